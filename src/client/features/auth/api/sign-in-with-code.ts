import type { SessionDto } from '../../../../domain/schemas/auth';
import { api } from '../../../lib/api-client';

/** The code step (an authenticator app's code, or a recovery code) after the password. Only the lazy code step loads it. */
export const signInWithCode = (mfaToken: string, code: string) =>
  api.post<SessionDto>('/api/auth/token', { mfa_token: mfaToken, code }, { query: { grant_type: 'mfa' }, anonymous: true });
