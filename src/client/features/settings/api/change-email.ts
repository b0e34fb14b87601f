import { useMutation } from '@tanstack/react-query';
import type { MailAcceptedResponse } from '../../../../domain/schemas/auth';
import type { ChangeEmailInput } from '../../../../domain/schemas/me';
import { api } from '../../../lib/api-client';

/** Sends the confirmation link to the new address; nothing changes until it is opened (/confirm-email). */
export const requestEmailChange = (input: ChangeEmailInput) => api.post<MailAcceptedResponse>('/api/me/email', input);

export const useRequestEmailChange = () => useMutation({ mutationFn: requestEmailChange });
