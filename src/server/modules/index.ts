import type { FastifyInstance } from 'fastify';
import { registerTeams } from './teams/teams.routes';
import { registerProjects } from './projects/projects.routes';
import { registerTasks } from './tasks/tasks.routes';
import { registerDashboard } from './dashboard/dashboard.routes';
import { registerNotifications } from './notifications/notifications.routes';
import { registerRealtime } from './realtime/realtime.routes';
import { registerOidc } from './oidc/oidc.routes';
import { registerAdmin } from './admin/admin.routes';
import { registerMail } from '../mail-runtime';
import { registerSecurity } from './security/security.routes';
import { registerMe } from './me/me.routes';
import { registerAccountLinks } from './auth/account-links.routes';
import { registerAttachments } from './attachments/attachments.routes';
import { registerAvatars } from './avatars/avatars.routes';
import { registerTaskChecklist } from './task-checklist/task-checklist.routes';
import { registerTaskActivity } from './task-activity/task-activity.routes';
import { registerTaskComments } from './task-comments/task-comments.routes';
import { registerSearch } from './search/search.routes';
import { registerSavedViews } from './saved-views/saved-views.routes';
import { registerCalendar } from './calendar/calendar.routes';
import { registerAnalytics } from './analytics/analytics.routes';
import { registerApiTokens } from './api-tokens/api-tokens.routes';
import { registerWebhooks } from './webhooks/webhooks.routes';
import { registerAudit } from './audit/audit.routes';
import { registerTransfer } from './transfer/transfer.routes';
import { registerNotes } from './notes/notes.routes';
import { registerWorkflows } from './workflows/workflows.routes';
import { registerTaskDependencies } from './task-dependencies/task-dependencies.routes';
import { registerTimeline } from './timeline/timeline.routes';
import { registerCustomFields } from './custom-fields';
import { registerRecurrence } from './recurrence';
import { taskCards } from './tasks';
import { registerTimeTracking } from './time-tracking';
import { registerInboundMail } from './inbound-mail';
import { registerForms } from './forms';
import { registerSharing } from './sharing';
import { registerProjectGuests } from './project-guests';
import { registerScim } from './scim';
import { registerSaml } from './saml';

/**
 * Feature modules register their routes here. Each module owns its folder:
 * modules/<name>/<name>.routes.ts -> .service.ts -> .repo.ts
 */
export function registerModules(app: FastifyInstance): void {
  registerTeams(app);
  registerTasks(app);
  registerProjects(app);
  registerDashboard(app);
  registerNotifications(app);
  registerRealtime(app);
  registerOidc(app);
  registerAdmin(app);
  registerMail(app);
  registerSecurity(app);
  registerMe(app);
  registerAccountLinks(app);
  registerAttachments(app);
  registerAvatars(app);
  registerTaskChecklist(app);
  registerTaskActivity(app);
  registerTaskComments(app);
  registerSearch(app);
  registerSavedViews(app);
  registerCalendar(app);
  registerAnalytics(app);
  registerApiTokens(app);
  registerWebhooks(app);
  registerAudit(app);
  registerTransfer(app);
  registerNotes(app);
  registerWorkflows(app);
  registerTaskDependencies(app);
  registerTimeline(app);
  registerCustomFields(app);
  // The schedule records the tasks it makes with the tasks module's answers (recurrence may not import tasks).
  registerRecurrence(app, taskCards);
  registerTimeTracking(app);
  registerInboundMail(app);
  registerSharing(app);
  // Issue 41: a project's guests.
  registerProjectGuests(app);
  registerForms(app);
  // Issue 41: /scim/v2 (its own auth and error shape) and /api/admin/scim-tokens.
  registerScim(app);
  registerSaml(app);
}
