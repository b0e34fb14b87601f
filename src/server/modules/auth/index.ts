// The auth module's public surface: the service and its routes (authRoutes, which the app registers), the session
// policy, the account mails and links, and ending a user's sessions, credentials and one-time tokens (what signing out
// everywhere, a new password and an address change need).
export { accountLinkMail, emailChangedMail, passwordChangedMail } from './account-mails';
export { revokeAllSessionsOfUser, revokeOtherSessionsOfUser } from './auth.repo';
export { authRoutes } from './auth.routes';
export { AuthService } from './auth.service';
export { revokeCredentialsOfUser, signOutOtherSessions } from './credentials';
export {
  type DirectorySignIn,
  DirectoryUnreachable,
  type LocalPasswordPolicy,
  mayUseLocalPassword,
  type PasswordDirectory,
} from './directory';
export { sendLinkOnSignUp } from './email-verification.service';
export { mailNewLink } from './mail-link';
export { requireUncommonPassword } from './password-policy';
export { DEFAULT_SESSION_POLICY, type SessionPolicy, sessionExpiry } from './session-policy';
export { consumeUserToken, revokeUserTokens } from './user-tokens.repo';
