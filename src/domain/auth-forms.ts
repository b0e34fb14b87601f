/**
 * The sign-in and sign-up forms (spec §5), as the API's own schemas extended with what only a
 * form has: a minimum length on sign-in, the confirmation, the terms box. The login screen's
 * sign-up takes 6-character passwords, the /signup page 8.
 */
import { z } from 'zod';
import { LIMITS } from './constants';
import { MSG } from './messages';
import {
  changePasswordInput,
  directoryPasswordGrantInput,
  forgotPasswordInput,
  passwordGrantInput,
  passwordInput,
  resetPasswordInput,
  signupInput,
} from './schemas/auth';

const confirmPassword = z.string().min(1, MSG.confirmRequired);

/** The confirmation must match; checked even while other fields fail, so every error shows at once. */
const confirmMatches = {
  path: ['confirmPassword'],
  message: MSG.passwordsMismatch,
  when: ({ value }: { value: unknown }) => {
    const v = value as { password?: unknown; confirmPassword?: unknown };
    return typeof v.password === 'string' && typeof v.confirmPassword === 'string' && v.confirmPassword !== '';
  },
};
const matches = (v: { password: string; confirmPassword: string }) => v.password === v.confirmPassword;

export const signInForm = z.object({
  ...passwordGrantInput.shape,
  password: passwordInput.min(LIMITS.loginPasswordMin, MSG.passwordMin6),
});

/** The sign-in form with directory sign-in on (issue 41): an email or a directory username; the directory rules its passwords. */
export const directorySignInForm = z.object({ ...directoryPasswordGrantInput.shape });

export const loginSignUpForm = z.object({ ...signupInput.shape, confirmPassword }).refine(matches, confirmMatches);

export const signupPageForm = z
  .object({
    ...signupInput.shape,
    password: passwordInput.min(LIMITS.signupPasswordMin, MSG.passwordMin8),
    confirmPassword,
    agreeToTerms: z.boolean().refine(Boolean, MSG.termsRequired),
  })
  .refine(matches, confirmMatches);

/** /forgot-password: the address alone, as the API takes it. */
export const forgotPasswordForm = forgotPasswordInput;

/** /reset-password: the new password by the /signup page's rules (resetPasswordInput), and its confirmation. */
export const resetPasswordForm = z
  .object({ password: resetPasswordInput.shape.password, confirmPassword })
  .refine(matches, confirmMatches);

/** Settings → Account → Change password: the API's body, and the confirmation. */
export const changePasswordForm = z.object({ ...changePasswordInput.shape, confirmPassword }).refine(matches, confirmMatches);
