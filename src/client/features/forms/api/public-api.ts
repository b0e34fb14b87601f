import type { PublicFormDto, RequestStatusDto } from '../../../../domain/schemas/outside';
import { api } from '../../../lib/api-client';

// The public pages' calls (no sign-in, no bearer token): a form's definition and its submission, a request's status.

const publicForm = (token: string) => `/api/public-forms/${encodeURIComponent(token)}`;

export const getPublicForm = (token: string, signal?: AbortSignal) =>
  api.get<PublicFormDto>(publicForm(token), { signal, anonymous: true });

export type SubmittedValue = string | number | boolean | string[] | null;

export const submitPublicForm = (token: string, values: Record<string, SubmittedValue>, website: string) =>
  api.post<{ received: true }>(publicForm(token), { values, website }, { anonymous: true });

export const getRequestStatus = (token: string, signal?: AbortSignal) =>
  api.get<RequestStatusDto>(`/api/requests/${encodeURIComponent(token)}`, { signal, anonymous: true });
