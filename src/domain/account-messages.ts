/** The account pages' texts (verification, password reset): apart from messages.ts, which the sign-in page loads at start-up. */
export const ACCOUNT_MSG = {
  verifyEmailBanner: 'Please verify your email address.',
  resendEmail: 'Resend email',
  verificationSent: (email: string) => `We sent a new verification link to ${email}.`,
  verificationSendFailed: 'Failed to send the verification email. Please try again.',
  emailVerified: 'Your email address is verified.',
  verifyingEmail: 'Verifying your email address...',
  checkingLink: 'Checking the link...',
  forgotPasswordSent: 'If an account exists for that email, we sent a link to reset your password.',
  forgotPasswordFailed: 'Failed to send the reset link. Please try again.',
  passwordResetDone: 'Your password has been reset. Please sign in.',
  passwordResetFailed: 'Failed to reset your password. Please try again.',
} as const;
