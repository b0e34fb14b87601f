import { useEffect, useState } from 'react';
import type { UserTokenPurpose } from '../../../../domain/constants';
import type { LinkStatusDto } from '../../../../domain/schemas/account-links';
import type { MailAcceptedResponse } from '../../../../domain/schemas/auth';
import { api } from '../../../lib/api-client';
import { logError } from '../../../lib/failure';

/** The account's emailed links (server: modules/auth/account-links.routes.ts). */

export const requestPasswordReset = (email: string) =>
  api.post<MailAcceptedResponse>('/api/auth/forgot-password', { email }, { anonymous: true });

export const resetPassword = (token: string, password: string) =>
  api.post<void>('/api/auth/reset-password', { token, password }, { anonymous: true });

export const verifyEmail = (token: string) => api.post<void>('/api/auth/verify-email', { token }, { anonymous: true });

export const resendVerification = () => api.post<MailAcceptedResponse>('/api/auth/resend-verification');

/** Whether an emailed link still works, read without spending it. */
export const getLinkStatus = (purpose: UserTokenPurpose, token: string) =>
  api.get<LinkStatusDto>('/api/auth/link-status', { query: { purpose, token }, anonymous: true });

export type LinkCheck = 'checking' | 'valid' | 'invalid';

/**
 * A link's page asks when it opens whether the link still works, so that a used or expired one says so at once rather
 * than after the form is filled in. No token is `invalid`. Should the check itself fail (offline, a rate limit), the
 * page goes on as `valid`: using the link then gives the answer.
 */
export function useLinkCheck(purpose: UserTokenPurpose, token: string | null): LinkCheck {
  const [state, setState] = useState<{ token: string | null; check: LinkCheck }>({ token, check: 'checking' });
  useEffect(() => {
    if (!token) return;
    let live = true;
    getLinkStatus(purpose, token).then(
      (res) => live && setState({ token, check: res.valid ? 'valid' : 'invalid' }),
      (error) => {
        logError('checking the link failed', error);
        if (live) setState({ token, check: 'valid' });
      },
    );
    return () => {
      live = false;
    };
  }, [purpose, token]);
  if (!token) return 'invalid';
  return state.token === token ? state.check : 'checking';
}
