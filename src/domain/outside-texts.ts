/**
 * The texts of work from outside the team (issue 40, decision 0028), given in the issue to the letter. The server's
 * errors and the pages read them from here (not from ./schemas: the public pages load without zod).
 */
export const OUTSIDE_TEXTS = {
  // The public board link.
  share: 'Share',
  publicLink: 'Public link',
  copyLink: 'Copy link',
  resetLink: 'Reset link',
  showPeople: 'Show people',
  showDescriptions: 'Show descriptions',
  // Request forms.
  forms: 'Forms',
  newForm: 'New form',
  formClosed: 'This form is closed.',
  submitted: 'Thanks! Your request was received.',
  // Tasks by email.
  intakeSection: 'Email to this project',
  copy: 'Copy',
  reset: 'Reset',
  replyFooter: 'Reply to this email to comment',
} as const;

/** The history's line for a task that came from a form ('Submitted via Bug reports'). */
export const submittedVia = (formName: string): string => `Submitted via ${formName}`;

/** The history's line for a task that came by email to the project's intake address. */
export const SUBMITTED_BY_EMAIL = 'Submitted by email';

/** What a submission with a missing or bad value gets (400), per field: '<label> is required.' */
export const fieldRequired = (label: string): string => `${label} is required.`;
export const FORM_EMAIL_INVALID = 'Please enter a valid email address';
export const FORM_NOT_FOUND = 'This form does not exist.';
export const SHARE_NOT_FOUND = 'This link does not exist or was turned off.';
