import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { LIMITS } from '../../../../domain/constants';
import { passwordRequirements, validateSignupPage } from '../../../../domain/auth-forms';
import { MSG } from '../../../../domain/messages';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/field';
import { ApiError } from '../../../lib/api-client';
import { useFormState } from '../../../lib/use-form-state';
import { signUp } from '../api/auth-api';
import { AuthCard } from './auth-card';
import { PasswordField, PasswordRequirements } from './password-field';

export function SignupPage() {
  const navigate = useNavigate();
  const initial = useMemo(() => ({ fullName: '', email: '', password: '', confirmPassword: '', agreeToTerms: false }), []);
  const { values, errors, setErrors, setField } = useFormState(initial);
  const [submitting, setSubmitting] = useState(false);

  useEffect(() => {
    document.title = 'Create Account · Crewboard';
  }, []);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const found = validateSignupPage(values);
    setErrors(found);
    if (Object.keys(found).length) return;
    setSubmitting(true);
    try {
      await signUp({ email: values.email.trim(), password: values.password, fullName: values.fullName.trim() });
      toast.success(MSG.accountCreated);
      navigate('/login', { replace: true });
    } catch (error) {
      toast.error(error instanceof ApiError && error.status > 0 ? error.message : MSG.signupFailed);
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <AuthCard title="Create Account" subtitle="Join your team on Crewboard">
      <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label="Create Account">
        <TextField
          label="Full name"
          autoComplete="name"
          value={values.fullName}
          onChange={(e) => setField('fullName', e.target.value)}
          error={errors.fullName}
        />
        <TextField
          label="Email"
          type="email"
          autoComplete="email"
          value={values.email}
          onChange={(e) => setField('email', e.target.value)}
          error={errors.email}
        />
        <PasswordField
          label="Password"
          autoComplete="new-password"
          value={values.password}
          onChange={(e) => setField('password', e.target.value)}
          error={errors.password}
          hint={<PasswordRequirements items={passwordRequirements(values.password, LIMITS.signupPasswordMin)} />}
        />
        <PasswordField
          label="Confirm password"
          autoComplete="new-password"
          value={values.confirmPassword}
          onChange={(e) => setField('confirmPassword', e.target.value)}
          error={errors.confirmPassword}
        />
        <div className="space-y-1">
          <label className="flex items-start gap-2 text-sm">
            <input
              type="checkbox"
              checked={values.agreeToTerms}
              onChange={(e) => setField('agreeToTerms', e.target.checked)}
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
