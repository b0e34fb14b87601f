import { useMemo } from 'react';
import { LIMITS } from '../../../../domain/constants';
import { Button } from '../../../components/ui/button';
import { useFormState } from '../../../lib/use-form-state';
import { SignUpFields } from './sign-up-fields';
import { useSignUpSubmit } from './use-sign-up-submit';

const EMPTY = { fullName: '', email: '', password: '', confirmPassword: '' };

/**
 * The login screen's 'Sign up with Email' form (spec: at least 6 characters here). A module of its own, loaded when
 * that mode opens: /login's start-up bundle holds only what signing in needs (its budget).
 */
export function LoginSignUpForm({ onBack, backButton }: { onBack: () => void; backButton: React.ReactNode }) {
  const initial = useMemo(() => EMPTY, []);
  const form = useFormState(initial);
  const { submitting, onSubmit } = useSignUpSubmit(form, (forms) => forms.loginSignUpForm, onBack);
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label="Sign up">
      <SignUpFields
        form={form}
        passwordMin={LIMITS.loginPasswordMin}
        passwordHint={<span>Must be at least {LIMITS.loginPasswordMin} characters</span>}
        autoFocus
      />
      <Button type="submit" className="w-full justify-center" size="lg" isLoading={submitting}>
        Create account
      </Button>
      {backButton}
    </form>
  );
}
