import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ProfileDto } from '../../../../domain/schemas/me';
import { api } from '../../../lib/api-client';
import { settingsKeys } from './settings-keys';

export const getProfile = (signal?: AbortSignal) => api.get<ProfileDto>('/api/me/profile', { signal });

export const profileQueryOptions = () =>
  queryOptions({ queryKey: settingsKeys.profile(), queryFn: ({ signal }) => getProfile(signal) });

export const useProfile = () => useQuery(profileQueryOptions());
