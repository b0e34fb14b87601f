/** The values both sign-up forms edit (domain/auth-forms.ts holds their schemas). */
export type SignUpValues = {
  fullName: string;
  email: string;
  password: string;
  confirmPassword: string;
};

/** The live password-requirements list shown while signing up. */
export function passwordRequirements(password: string, min: number): { label: string; met: boolean }[] {
  return [
    { label: `At least ${min} characters`, met: password.length >= min },
    { label: 'Contains a letter', met: /[A-Za-z]/.test(password) },
    { label: 'Contains a number', met: /\d/.test(password) },
  ];
}
