import type { SessionDto, UserDto } from '../../../../domain/schemas/auth';
import { api } from '../../../lib/api-client';

export const signInWithPassword = (email: string, password: string) =>
  api.post<SessionDto>('/api/auth/token', { email, password }, { query: { grant_type: 'password' }, anonymous: true });

export const signUp = (input: { email: string; password: string; fullName: string }) =>
  api.post<{ user: UserDto }>('/api/auth/signup', input, { anonymous: true });

export const signOut = () => api.post<void>('/api/auth/logout');

export const getCurrentUser = () => api.get<UserDto>('/api/auth/user');
