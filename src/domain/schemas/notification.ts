import { z } from 'zod';
import { NOTIFICATION_TYPES } from '../constants';
import { isoDateTime, uuid } from './common';

export const notificationDto = z.object({
  id: uuid,
  userId: uuid,
  type: z.enum(NOTIFICATION_TYPES),
  title: z.string(),
  message: z.string(),
  isRead: z.boolean(),
  data: z.object({
    taskId: z.string().optional(),
    completedBy: z.string().optional(),
    projectId: z.string().optional(),
    progress: z.number().optional(),
    teamId: z.string().optional(),
    memberId: z.string().optional(),
    invitationId: z.string().optional(),
  }),
  createdAt: isoDateTime,
});
export type NotificationDto = z.infer<typeof notificationDto>;

export const listNotificationsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  offset: z.coerce.number().int().min(0).default(0),
});

export const notificationListDto = z.object({
  notifications: z.array(notificationDto),
  total: z.number().int(),
  unread: z.number().int(),
});
export type NotificationListDto = z.infer<typeof notificationListDto>;
