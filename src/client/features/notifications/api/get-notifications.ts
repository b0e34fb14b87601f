import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { NotificationListDto } from '../../../../domain/schemas/notification';
import { api } from '../../../lib/api-client';
import { notificationKeys } from './notification-keys';

export const getNotifications = (limit: number, offset: number) =>
  api.get<NotificationListDto>('/api/notifications', { query: { limit, offset } });

export const notificationsQuery = (limit: number, offset: number) =>
  queryOptions({
    queryKey: notificationKeys.list(limit, offset),
    queryFn: () => getNotifications(limit, offset),
    placeholderData: keepPreviousData,
  });

export const useNotifications = (limit: number, offset = 0) => useQuery(notificationsQuery(limit, offset));
