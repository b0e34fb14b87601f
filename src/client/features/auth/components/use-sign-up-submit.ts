import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import type { z } from 'zod';
import { MSG } from '../../../../domain/messages';
import type { SignUpValues } from '../../../../domain/password-requirements';
import { saveForm } from '../../../lib/save-form';
import type { FormState } from '../../../lib/use-form-state';
import { signUp } from '../api/auth-api';
import { type AuthForms, loadAuthForms } from './auth-forms';

/**
 * The submit of both sign-up forms (the login screen's and /signup): check with the form's schema,
 * create the account, then the spec's toast and back to /login; a refusal shows its reason (e.g.
 * the email is taken), anything else the generic failure.
 */
export function useSignUpSubmit<V extends SignUpValues>(
  form: Pick<FormState<V>, 'validate' | 'showFieldErrors'>,
  schemaOf: (forms: AuthForms) => z.ZodType<SignUpValues>,
  onCreated?: () => void,
) {
  const navigate = useNavigate();
  const [submitting, setSubmitting] = useState(false);
  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const body = form.validate(schemaOf(await loadAuthForms()));
    if (!body) return;
    setSubmitting(true);
    const created = await saveForm(form, () => signUp({ email: body.email, password: body.password, fullName: body.fullName }), {
      saved: MSG.accountCreated,
      failed: MSG.signupFailed,
    });
    setSubmitting(false);
    if (!created) return;
    onCreated?.();
    navigate('/login', { replace: true });
  };
  return { submitting, onSubmit };
}
