import { api } from '../../../lib/api-client';

/** Opens the link sent to a new address (Settings → Account → Email address): the account moves to it. */
export const confirmEmailChange = (token: string) =>
  api.post<void>('/api/auth/confirm-email-change', { token }, { anonymous: true });
