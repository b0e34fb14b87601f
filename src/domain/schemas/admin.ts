import { z } from 'zod';
import { SYSTEM_ROLES } from '../constants';
import { intFields, isoDateTime, uuid } from './common';

export const adminStatsDto = intFields('totalUsers', 'activeUsers30d', 'teams', 'projects', 'tasks', 'tasksCompletedThisMonth');
export type AdminStatsDto = z.infer<typeof adminStatsDto>;

export const adminUserDto = z.object({
  id: uuid,
  fullName: z.string(),
  email: z.string(),
  role: z.enum(SYSTEM_ROLES),
  isActive: z.boolean(),
  createdAt: isoDateTime,
  lastSeenAt: isoDateTime.nullable(),
});
export type AdminUserDto = z.infer<typeof adminUserDto>;

export const ALERT_TYPES = ['info', 'warning', 'error'] as const;
export type AlertType = (typeof ALERT_TYPES)[number];

export const systemAlertDto = z.object({
  id: z.string(),
  type: z.enum(ALERT_TYPES),
  title: z.string(),
  message: z.string(),
});
export type SystemAlertDto = z.infer<typeof systemAlertDto>;

/** Where mail goes: an SMTP server (SMTP_URL), or the server log without one. */
export const MAIL_TRANSPORTS = ['smtp', 'log'] as const;
export type MailTransportKind = (typeof MAIL_TRANSPORTS)[number];

/** The admin panel's Email card: the transport, the outbox's counts (of the days it keeps) and the latest error. */
export const adminMailDto = intFields('queued', 'sent', 'failed').extend({
  transport: z.enum(MAIL_TRANSPORTS),
  /** Why the most recent undelivered message failed, if one did. */
  lastError: z.string().nullable(),
});
export type AdminMailDto = z.infer<typeof adminMailDto>;

export const adminOverviewDto = z.object({
  stats: adminStatsDto,
  recentUsers: z.array(adminUserDto),
  alerts: z.array(systemAlertDto),
  mail: adminMailDto,
});
export type AdminOverviewDto = z.infer<typeof adminOverviewDto>;

/** PATCH /api/admin/users/:id */
export const updateAdminUserInput = z.object({ isActive: z.boolean() }).strict();
export type UpdateAdminUserInput = z.infer<typeof updateAdminUserInput>;

/** How many users the overview lists, newest first. */
export const ADMIN_RECENT_USERS = 10;

/** GET /api/admin/users?q= — users whose name or email contains q, newest first. */
export const adminUsersQuery = z.object({ q: z.string().trim().max(100).optional() });
export type AdminUsersQuery = z.infer<typeof adminUsersQuery>;

export const adminUsersResponse = z.object({ users: z.array(adminUserDto) });

/** How many users a search lists. */
export const ADMIN_USER_SEARCH_LIMIT = 50;
