import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { NotificationListDto } from '../../../../domain/schemas/notification';
import { api } from '../../../lib/api-client';
import { notificationKeys } from './notification-keys';

export const markNotificationRead = (id: string) => api.patch<void>(`/api/notifications/${id}/read`);
export const markAllNotificationsRead = () => api.post<void>('/api/notifications/read-all');

/** Marks read in every cached page at once (`id` null: all of them); the server confirms after. */
function useOptimisticRead(mutationFn: (id: string | null) => Promise<void>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn,
    onMutate: async (id: string | null) => {
      await qc.cancelQueries({ queryKey: notificationKeys.all });
      const snapshot = qc.getQueriesData<NotificationListDto>({ queryKey: notificationKeys.lists() });
      const wasUnread = snapshot.some(([, data]) => data?.notifications.some((n) => n.id === id && !n.isRead));
      for (const [key, data] of snapshot) {
        if (!data) continue;
        qc.setQueryData<NotificationListDto>(key, {
          ...data,
          unread: id === null ? 0 : Math.max(0, data.unread - (wasUnread ? 1 : 0)),
          notifications: data.notifications.map((n) => (id === null || n.id === id ? { ...n, isRead: true } : n)),
        });
      }
      return { snapshot };
    },
    onError: (_error, _id, context) => {
      for (const [key, data] of context?.snapshot ?? []) qc.setQueryData(key, data);
    },
    onSettled: () => qc.invalidateQueries({ queryKey: notificationKeys.all }),
  });
}

export const useMarkRead = () => useOptimisticRead((id) => markNotificationRead(id ?? ''));
export const useMarkAllRead = () => useOptimisticRead(() => markAllNotificationsRead());
