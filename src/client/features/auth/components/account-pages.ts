// The pages the account's emailed links open, in one lazily loaded chunk (app/router.tsx).
export { ConfirmEmailPage } from './confirm-email-page';
export { ForgotPasswordPage } from './forgot-password-page';
export { ResetPasswordPage } from './reset-password-page';
export { VerifyEmailPage } from './verify-email-page';
