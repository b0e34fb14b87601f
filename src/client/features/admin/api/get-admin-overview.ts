import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { AdminOverviewDto, AdminUserDto } from '../../../../domain/schemas/admin';
import { api } from '../../../lib/api-client';
import { adminKeys } from './admin-keys';

export const getAdminOverview = () => api.get<AdminOverviewDto>('/api/admin/overview');

export const useAdminOverview = () => useQuery({ queryKey: adminKeys.overview(), queryFn: getAdminOverview });

export const searchAdminUsers = (q: string) =>
  api.get<{ users: AdminUserDto[] }>('/api/admin/users', { query: { q } }).then((r) => r.users);

/** Users matching `q` (server-side); idle while `q` is empty. */
export const useAdminUserSearch = (q: string) =>
  useQuery({
    queryKey: adminKeys.users(q),
    queryFn: () => searchAdminUsers(q),
    enabled: q.length > 0,
    placeholderData: keepPreviousData,
  });
