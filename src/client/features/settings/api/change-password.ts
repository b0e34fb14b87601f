import { useMutation } from '@tanstack/react-query';
import type { ChangePasswordInput } from '../../../../domain/schemas/auth';
import { api } from '../../../lib/api-client';

/** Every other session of the account is signed out; this one stays. */
export const changePassword = (input: ChangePasswordInput) => api.post<void>('/api/me/password', input);

export const useChangePassword = () => useMutation({ mutationFn: changePassword });
