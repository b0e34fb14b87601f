import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import type { SignUpValues } from '../../../../domain/auth-forms';
import { MSG } from '../../../../domain/messages';
import { ApiError } from '../../../lib/api-client';
import { signUp } from '../api/auth-api';

/**
 * The submit of both sign-up forms (the login screen's and /signup): validate with the form's own
 * rules, create the account, then the spec's toast and back to /login; a refusal shows the server's
 * message (e.g. the email is taken), anything else the generic failure.
 */
export function useSignUpSubmit<V extends SignUpValues>(
  values: V,
  validate: (values: V) => Partial<Record<keyof V, string>>,
  setErrors: (errors: Partial<Record<keyof V, string>>) => void,
  onCreated?: () => void,
) {
  const navigate = useNavigate();
  const [submitting, setSubmitting] = useState(false);
  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const found = validate(values);
    setErrors(found);
    if (Object.keys(found).length) return;
    setSubmitting(true);
    try {
      await signUp({ email: values.email.trim(), password: values.password, fullName: values.fullName.trim() });
      toast.success(MSG.accountCreated);
      onCreated?.();
      navigate('/login', { replace: true });
    } catch (error) {
      toast.error(error instanceof ApiError && error.status > 0 ? error.message : MSG.signupFailed);
    } finally {
      setSubmitting(false);
    }
  };
  return { submitting, onSubmit };
}
