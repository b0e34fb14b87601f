import { useEffect, useMemo } from 'react';
import { Link } from 'react-router';
import { LIMITS } from '../../../../domain/constants';
import { Button } from '../../../components/ui/button';
import { useFormState } from '../../../lib/use-form-state';
import { AuthCard } from './auth-card';
import { SignUpFields } from './sign-up-fields';
import { useSignUpSubmit } from './use-sign-up-submit';

export function SignupPage() {
  const initial = useMemo(() => ({ fullName: '', email: '', password: '', confirmPassword: '', agreeToTerms: false }), []);
  const form = useFormState(initial);
  const { errors } = form;
  const { submitting, onSubmit } = useSignUpSubmit(form, (forms) => forms.signupPageForm);

  useEffect(() => {
    document.title = 'Create Account · Crewboard';
  }, []);

  return (
    <AuthCard title="Create Account" subtitle="Join your team on Crewboard">
      <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label="Create Account">
        <SignUpFields form={form} passwordMin={LIMITS.signupPasswordMin} />
        <div className="space-y-1">
          <label className="flex items-start gap-2 text-sm">
            <input
              type="checkbox"
              {...form.bindChecked('agreeToTerms')}
              aria-invalid={errors.agreeToTerms ? true : undefined}
              aria-describedby={errors.agreeToTerms ? 'terms-error' : undefined}
              className="mt-0.5 h-4 w-4 rounded border-slate-400 accent-indigo-600"
            />
            <span>I agree to the Terms of Service and Privacy Policy</span>
          </label>
          {errors.agreeToTerms && (
            <p id="terms-error" className="text-sm text-red-700 dark:text-red-400">
              {errors.agreeToTerms}
            </p>
          )}
        </div>
        <Button type="submit" className="w-full justify-center" size="lg" isLoading={submitting}>
          Create Account
        </Button>
        <p className="text-center text-sm">
          <Link to="/login" className="font-medium text-brand-700 underline-offset-2 hover:underline dark:text-indigo-300">
            Already have an account? Sign in
          </Link>
        </p>
      </form>
    </AuthCard>
  );
}
