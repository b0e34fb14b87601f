import type { NotificationPreferenceKind } from './constants';

/**
 * The texts of Settings (issue 21: 'Save changes' … 'Password changed' are requirements to the letter), beside
 * messages.ts rather than in it: every module the entry imports is in the sign-in page's start-up bundle, whatever
 * of it that page uses (a re-export too: measured), and that bundle has a budget. Only /settings, /confirm-email
 * and the server import this. The texts of the settings' errors are in errors.ts, with every other error's.
 */
export const SETTINGS_MSG = {
  saveChanges: 'Save changes',
  profileUpdated: 'Profile updated',
  profileUpdateFailed: 'Failed to update profile',
  changeAvatar: 'Change avatar',
  removeAvatar: 'Remove avatar',
  saveAvatar: 'Save avatar',
  avatarUpdated: 'Avatar updated',
  avatarRemoved: 'Avatar removed',
  avatarUpdateFailed: 'Failed to update your avatar',
  avatarRemoveFailed: 'Failed to remove your avatar',
  avatarUnreadable: 'This file cannot be read as an image. Choose a PNG, JPEG, GIF or WebP image.',
  currentPassword: 'Current password',
  newPassword: 'New password',
  confirmPassword: 'Confirm password',
  changePassword: 'Change password',
  passwordChanged: 'Password changed',
  passwordChangeFailed: 'Failed to change password',
  emailChangeSent: (email: string) => `We sent a confirmation link to ${email}. Your address changes once you open it.`,
  emailChangeFailed: 'Failed to send the confirmation link',
  emailChanged: (email: string) => `Your email address is now ${email}.`,
  emailChangedSignIn: 'Your email address has been changed. Sign in with the new one.',
  emailChangeConfirmFailed: 'Failed to change your email address',
  ownsTeams: (names: string[]) =>
    `You own ${names.length === 1 ? 'the team' : 'the teams'} ${names.map((n) => `"${n}"`).join(', ')}. A team cannot be left without its owner: transfer ${names.length === 1 ? 'it' : 'them'} to another member or delete ${names.length === 1 ? 'it' : 'them'} before deleting your account.`,
  accountDeleted: 'Your account has been deleted',
  accountDeleteFailed: 'Failed to delete your account',
  preferencesFailed: 'Failed to save notification preferences',
  deletedUserName: 'Deleted user',
} as const;

/** Settings → Notifications: what each kind is about. */
export const NOTIFICATION_PREFERENCE_LABELS: Record<NotificationPreferenceKind, string> = {
  task_assigned: 'A task is assigned to you',
  task_completed: 'A task you created or were assigned is completed',
  project_updated: 'A project in one of your teams is updated',
  team_invite: 'You are invited to a team',
  mentioned: 'You are mentioned in a comment or a note',
  task_comment: 'Someone comments on a task you watch',
  task_status: 'A task you watch changes status',
  webhook_failing: "One of your team's webhooks keeps failing",
};
