/** Login-screen and signup-page validation rules (spec §5). Pure: returns field -> message. */
import { LIMITS } from './constants';
import { MSG } from './messages';

export type FieldErrors<K extends string> = Partial<Record<K, string>>;

/** A simple address pattern, as the spec asks. */
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function validateEmail(email: string): string | undefined {
  if (!email.trim()) return MSG.emailRequired;
  if (!EMAIL_PATTERN.test(email.trim())) return MSG.emailInvalid;
  return undefined;
}

export function validatePassword(password: string, min: number): string | undefined {
  if (!password) return MSG.passwordRequired;
  if (password.length < min) return min === LIMITS.signupPasswordMin ? MSG.passwordMin8 : MSG.passwordMin6;
  if (password.length > LIMITS.passwordMax) return MSG.passwordTooLong;
  return undefined;
}

export function validateFullName(fullName: string): string | undefined {
  if (!fullName.trim()) return MSG.fullNameRequired;
  if (fullName.trim().length < LIMITS.fullNameMin) return MSG.fullNameMin;
  return undefined;
}

export function validateConfirm(password: string, confirm: string): string | undefined {
  if (!confirm) return MSG.confirmRequired;
  if (confirm !== password) return MSG.passwordsMismatch;
  return undefined;
}

function compact<K extends string>(errors: Record<K, string | undefined>): FieldErrors<K> {
  const out: FieldErrors<K> = {};
  for (const key of Object.keys(errors) as K[]) {
    if (errors[key]) out[key] = errors[key];
  }
  return out;
}

export interface SignInValues {
  email: string;
  password: string;
}

export function validateSignIn(v: SignInValues): FieldErrors<keyof SignInValues> {
  return compact({
    email: validateEmail(v.email),
    password: validatePassword(v.password, LIMITS.loginPasswordMin),
  });
}

export interface SignUpValues {
  fullName: string;
  email: string;
  password: string;
  confirmPassword: string;
}

/** The login screen's sign-up form: 6-character passwords. */
export function validateLoginSignUp(v: SignUpValues): FieldErrors<keyof SignUpValues> {
  return compact({
    fullName: validateFullName(v.fullName),
    email: validateEmail(v.email),
    password: validatePassword(v.password, LIMITS.loginPasswordMin),
    confirmPassword: validateConfirm(v.password, v.confirmPassword),
  });
}

export interface SignupPageValues extends SignUpValues {
  agreeToTerms: boolean;
}

/** The /signup page: 8-character passwords and the terms box. */
export function validateSignupPage(v: SignupPageValues): FieldErrors<keyof SignupPageValues> {
  return compact({
    fullName: validateFullName(v.fullName),
    email: validateEmail(v.email),
    password: validatePassword(v.password, LIMITS.signupPasswordMin),
    confirmPassword: validateConfirm(v.password, v.confirmPassword),
    agreeToTerms: v.agreeToTerms ? undefined : MSG.termsRequired,
  });
}

/** The live password-requirements list shown while signing up. */
export function passwordRequirements(password: string, min: number): { label: string; met: boolean }[] {
  return [
    { label: `At least ${min} characters`, met: password.length >= min },
    { label: 'Contains a letter', met: /[A-Za-z]/.test(password) },
    { label: 'Contains a number', met: /\d/.test(password) },
  ];
}
