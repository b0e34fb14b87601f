import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminUserDto } from '../../../../domain/schemas/admin';
import { api } from '../../../lib/api-client';
import { adminKeys } from './admin-keys';

export const setUserActive = (id: string, isActive: boolean) => api.patch<AdminUserDto>(`/api/admin/users/${id}`, { isActive });

export const useSetUserActive = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, isActive }: { id: string; isActive: boolean }) => setUserActive(id, isActive),
    onSettled: () => qc.invalidateQueries({ queryKey: adminKeys.all }),
  });
};
