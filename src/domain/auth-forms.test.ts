import { describe, expect, it } from 'vitest';
import { forgotPasswordForm, loginSignUpForm, resetPasswordForm, signInForm, signupPageForm } from './auth-forms';
import { passwordRequirements } from './password-requirements';
import { MSG } from './messages';
import { parseForm } from './forms';

const errorsOf = (schema: Parameters<typeof parseForm>[0]) => (values: unknown) => {
  const result = parseForm(schema, values);
  return result.ok ? {} : result.errors;
};
const validateSignIn = errorsOf(signInForm);
const validateLoginSignUp = errorsOf(loginSignUpForm);
const validateSignupPage = errorsOf(signupPageForm);
const validateEmail = (email: string) => validateSignIn({ email, password: 'secret' }).email;

describe('email', () => {
  it.each([
    ['', MSG.emailRequired],
    ['   ', MSG.emailRequired],
    ['plain', MSG.emailInvalid],
    ['a@b', MSG.emailInvalid],
    ['a b@c.de', MSG.emailInvalid],
    ['@c.de', MSG.emailInvalid],
    ['ok@example.com', undefined],
    [' padded@example.com ', undefined],
  ])('%j → %s', (email, expected) => {
    expect(validateEmail(email)).toBe(expected);
  });
});

describe('login screen: sign in', () => {
  it('requires email and password', () => {
    expect(validateSignIn({ email: '', password: '' })).toEqual({
      email: MSG.emailRequired,
      password: MSG.passwordRequired,
    });
  });
  it('needs at least 6 characters', () => {
    expect(validateSignIn({ email: 'a@b.co', password: '12345' })).toEqual({ password: MSG.passwordMin6 });
    expect(validateSignIn({ email: 'a@b.co', password: '123456' })).toEqual({});
  });
});

describe('login screen: sign up', () => {
  const valid = { fullName: 'Ada Lovelace', email: 'ada@example.com', password: 'secret', confirmPassword: 'secret' };
  it('accepts a valid form with a 6-character password', () => {
    expect(validateLoginSignUp(valid)).toEqual({});
  });
  it('requires a full name of at least 2 characters after trimming', () => {
    expect(validateLoginSignUp({ ...valid, fullName: '' }).fullName).toBe(MSG.fullNameRequired);
    expect(validateLoginSignUp({ ...valid, fullName: '   ' }).fullName).toBe(MSG.fullNameRequired);
    expect(validateLoginSignUp({ ...valid, fullName: ' A ' }).fullName).toBe(MSG.fullNameMin);
    expect(validateLoginSignUp({ ...valid, fullName: 'Al' }).fullName).toBeUndefined();
  });
  it('requires the confirmation and that it matches', () => {
    expect(validateLoginSignUp({ ...valid, confirmPassword: '' }).confirmPassword).toBe(MSG.confirmRequired);
    expect(validateLoginSignUp({ ...valid, confirmPassword: 'secreT' }).confirmPassword).toBe(MSG.passwordsMismatch);
  });
  it('uses the 6-character rule', () => {
    expect(validateLoginSignUp({ ...valid, password: '12345', confirmPassword: '12345' }).password).toBe(MSG.passwordMin6);
  });
});

describe('signup page', () => {
  const valid = {
    fullName: 'Grace Hopper',
    email: 'grace@example.com',
    password: 'longer12',
    confirmPassword: 'longer12',
    agreeToTerms: true,
  };
  it('accepts a valid form', () => {
    expect(validateSignupPage(valid)).toEqual({});
  });
  it('needs 8 characters, not 6', () => {
    expect(validateSignupPage({ ...valid, password: 'seven77', confirmPassword: 'seven77' }).password).toBe(MSG.passwordMin8);
    expect(validateSignupPage({ ...valid, password: '' }).password).toBe(MSG.passwordRequired);
  });
  it('requires the terms box', () => {
    expect(validateSignupPage({ ...valid, agreeToTerms: false })).toEqual({ agreeToTerms: MSG.termsRequired });
  });
  it('reports every empty field at once', () => {
    expect(validateSignupPage({ fullName: '', email: '', password: '', confirmPassword: '', agreeToTerms: false })).toEqual({
      fullName: MSG.fullNameRequired,
      email: MSG.emailRequired,
      password: MSG.passwordRequired,
      confirmPassword: MSG.confirmRequired,
      agreeToTerms: MSG.termsRequired,
    });
  });
  it('refuses passwords over 128 characters', () => {
    const long = 'x'.repeat(129);
    expect(validateSignupPage({ ...valid, password: long, confirmPassword: long }).password).toBe(MSG.passwordTooLong);
  });
});

describe('password requirements list', () => {
  it('marks each requirement as it is met', () => {
    expect(passwordRequirements('', 8).every((r) => !r.met)).toBe(true);
    expect(passwordRequirements('abcdefg1', 8).map((r) => r.met)).toEqual([true, true, true]);
    expect(passwordRequirements('abc', 6)[0]).toEqual({ label: 'At least 6 characters', met: false });
  });
});

describe('forgot and reset password forms', () => {
  const validateReset = errorsOf(resetPasswordForm);
  it('asks for a valid address', () => {
    expect(errorsOf(forgotPasswordForm)({ email: '' })).toEqual({ email: MSG.emailRequired });
    expect(errorsOf(forgotPasswordForm)({ email: 'plain' })).toEqual({ email: MSG.emailInvalid });
  });
  it('takes a new password by the /signup rules, confirmed', () => {
    expect(validateReset({ password: '', confirmPassword: '' })).toEqual({
      password: MSG.passwordRequired,
      confirmPassword: MSG.confirmRequired,
    });
    expect(validateReset({ password: 'short12', confirmPassword: 'short12' })).toEqual({ password: MSG.passwordMin8 });
    expect(validateReset({ password: 'x'.repeat(129), confirmPassword: 'x'.repeat(129) })).toEqual({
      password: MSG.passwordTooLong,
    });
    expect(validateReset({ password: 'long enough 1', confirmPassword: 'long enough 2' })).toEqual({
      confirmPassword: MSG.passwordsMismatch,
    });
    expect(validateReset({ password: 'long enough 1', confirmPassword: 'long enough 1' })).toEqual({});
  });
});
