import type { SessionDto, UserDto } from '../../../../domain/schemas/auth';
import { ApiError, api } from '../../../lib/api-client';

/** A right password: the session, or, for an account with two-factor sign-in on, the token of the code step. */
export type PasswordSignIn = { session: SessionDto } | { mfaToken: string };

export async function signInWithPassword(email: string, password: string): Promise<PasswordSignIn> {
  try {
    return {
      session: await api.post<SessionDto>(
        '/api/auth/token',
        { email, password },
        { query: { grant_type: 'password' }, anonymous: true },
      ),
    };
  } catch (error) {
    const mfaToken = error instanceof ApiError && error.reason === 'mfa_required' ? error.details.mfa_token : undefined;
    if (typeof mfaToken === 'string') return { mfaToken };
    throw error;
  }
}

export const signUp = (input: { email: string; password: string; fullName: string }) =>
  api.post<{ user: UserDto }>('/api/auth/signup', input, { anonymous: true });

export const signOut = () => api.post<void>('/api/auth/logout');

export const getCurrentUser = () => api.get<UserDto>('/api/auth/user');
