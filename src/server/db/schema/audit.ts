/** The append-only audit log. */
import { bigserial, check, index, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { AUDIT_ACTIONS } from '../../../domain/constants';
import { createdAt, oneOf, textOf } from './columns';

/**
 * The audit log (issue 26): append-only (a trigger refuses updates, and deletes except the retention purge, which sets
 * `crewboard.audit_purge` for its transaction). No foreign keys: a row outlives the user, team or object it names, so
 * the names are copied (`actorEmail`, `targetLabel`).
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    createdAt: createdAt(),
    action: textOf('action', AUDIT_ACTIONS).notNull(),
    /** null: no signed-in actor (a failed sign-in, the CLI). */
    actorId: uuid('actor_id'),
    actorEmail: text('actor_email'),
    ip: text('ip'),
    /** The team the action concerns (team owners and admins read their team's rows); null: account or system level. */
    teamId: uuid('team_id'),
    targetType: text('target_type'),
    targetId: text('target_id'),
    targetLabel: text('target_label'),
    details: jsonb('details').notNull().default({}),
  },
  (t) => [
    index('audit_log_created_idx').on(t.createdAt),
    index('audit_log_team_idx').on(t.teamId, t.createdAt),
    index('audit_log_actor_idx').on(t.actorId, t.createdAt),
    check('audit_log_action_check', oneOf(t.action, AUDIT_ACTIONS)),
  ],
);
