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
    commentId: z.string().optional(),
    /** A mention in a note (issue 25). */
    noteId: z.string().optional(),
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

/** The texts of generated notifications (shown in the dropdown and on /notifications). */
export const NOTIFICATION_TEXT = {
  task_assigned: {
    title: 'New task assigned',
    message: (actor: string, task: string) => `${actor} assigned you "${task}"`,
  },
  task_completed: {
    title: 'Task completed',
    message: (actor: string, task: string) => `${actor} completed "${task}"`,
  },
  project_updated: {
    title: 'Project updated',
    message: (actor: string, project: string, progress: number) => `${actor} updated "${project}" (${progress}% complete)`,
  },
  team_invite: {
    title: 'Team invitation',
    message: (inviter: string, team: string) => `${inviter} invited you to join ${team}`,
  },
  mentioned: {
    title: 'You were mentioned',
    message: (actor: string, task: string) => `${actor} mentioned you in "${task}"`,
  },
  task_comment: {
    title: 'New comment',
    message: (actor: string, task: string) => `${actor} commented on "${task}"`,
  },
  task_status: {
    title: 'Task status changed',
    message: (actor: string, task: string, status: string) => `${actor} moved "${task}" to ${status}`,
  },
  webhook_failing: {
    title: 'Webhook failing',
    message: (url: string, team: string) => `Deliveries to ${url} (${team}) have failed for 24 hours`,
  },
} as const;
