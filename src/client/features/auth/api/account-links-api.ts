import type { MailAcceptedResponse } from '../../../../domain/schemas/auth';
import { api } from '../../../lib/api-client';

/** The account's emailed links (server: modules/auth/account-links.routes.ts). */

export const requestPasswordReset = (email: string) =>
  api.post<MailAcceptedResponse>('/api/auth/forgot-password', { email }, { anonymous: true });

export const resetPassword = (token: string, password: string) =>
  api.post<void>('/api/auth/reset-password', { token, password }, { anonymous: true });

export const verifyEmail = (token: string) => api.post<void>('/api/auth/verify-email', { token }, { anonymous: true });

export const resendVerification = () => api.post<MailAcceptedResponse>('/api/auth/resend-verification');
