import { useState } from 'react';
import { toast } from 'sonner';
import { ACCOUNT_MSG } from '../../../../domain/account-messages';
import { cn } from '../../../lib/cn';
import { isError, toastError } from '../../../lib/errors';
import { useAuthStore } from '../../../stores/auth-store';
import { resendVerification } from '../api/account-links-api';
import { getCurrentUser } from '../api/auth-api';

/** 'Resend email': a new verification link for the signed-in user (rate-limited by the server). */
export function ResendVerificationButton({ className }: { className?: string }) {
  const [sending, setSending] = useState(false);
  const resend = async () => {
    setSending(true);
    try {
      await resendVerification();
      toast.success(ACCOUNT_MSG.verificationSent(useAuthStore.getState().user?.email ?? 'your address'));
    } catch (error) {
      toastError(error, ACCOUNT_MSG.verificationSendFailed);
      // Verified meanwhile (in another tab): the banner goes.
      if (isError(error, 'email_already_verified')) useAuthStore.getState().setUser(await getCurrentUser());
    } finally {
      setSending(false);
    }
  };
  return (
    <button
      type="button"
      onClick={resend}
      disabled={sending}
      aria-busy={sending || undefined}
      className={cn('font-medium underline underline-offset-2 disabled:cursor-not-allowed disabled:opacity-70', className)}
    >
      {ACCOUNT_MSG.resendEmail}
    </button>
  );
}
