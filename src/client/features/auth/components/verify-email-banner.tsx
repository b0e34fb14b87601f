import { ACCOUNT_MSG } from '../../../../domain/account-messages';
import { useAuthStore } from '../../../stores/auth-store';
import { useProviders } from '../api/google-api';
import { ResendVerificationButton } from './resend-verification-button';

/**
 * Above every page of the app while the signed-in user's address is unproven and the server asks for proof
 * (EMAIL_VERIFICATION=required; with `off` nobody is asked). A verified user costs no request.
 */
export function VerifyEmailBanner() {
  const unverified = useAuthStore((s) => s.user?.emailVerified === false);
  return unverified ? <BannerIfRequired /> : null;
}

function BannerIfRequired() {
  const required = useProviders().data?.emailVerification === 'required';
  if (!required) return null;
  return (
    <section
      aria-label="Email verification"
      className="flex flex-wrap items-center justify-center gap-x-3 gap-y-1 border-b border-amber-300 bg-amber-50 px-4 py-2 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100"
    >
      <p>{ACCOUNT_MSG.verifyEmailBanner}</p>
      <ResendVerificationButton />
    </section>
  );
}
