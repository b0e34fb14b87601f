import { z } from 'zod';
import { AUDIT_ACTIONS } from '../constants';
import { uuid } from './common';

export { AUDIT_ACTION_LABELS, AUDIT_CSV_MAX_ROWS, AUDIT_PAGE, TEAM_AUDIT_ACTIONS } from '../audit';
import { AUDIT_ACTION_LABELS, AUDIT_PAGE } from '../audit';

const instant = z.iso.datetime({ offset: true });

/**
 * GET /api/admin/audit, /api/teams/:id/audit (and their .csv): newest first. `actorId` matches the actor exactly;
 * `actor` is text found in the actor's email (a failed sign-in's attempted address included). `from` is inclusive,
 * `to` exclusive. `before` is the id of the last row of the previous page (keyset pagination).
 */
export const auditQuery = z.object({
  actorId: uuid.optional(),
  actor: z.string().trim().max(200).optional(),
  action: z.enum(AUDIT_ACTIONS).optional(),
  from: instant.optional(),
  to: instant.optional(),
  before: z
    .string()
    .regex(/^[1-9][0-9]{0,17}$/, 'before must be a row id')
    .optional(),
  limit: z.coerce.number().int().min(1).max(AUDIT_PAGE.max).optional(),
});
export type AuditQuery = z.infer<typeof auditQuery>;

export const auditEntryDto = z.object({
  /** The row's id (a bigserial, as text): the `before` cursor of the next page. */
  id: z.string(),
  createdAt: z.string(),
  action: z.enum(AUDIT_ACTIONS),
  actorId: z.string().nullable(),
  actorEmail: z.string().nullable(),
  ip: z.string().nullable(),
  teamId: z.string().nullable(),
  targetType: z.string().nullable(),
  targetId: z.string().nullable(),
  targetLabel: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
});
export type AuditEntryDto = z.infer<typeof auditEntryDto>;

export const auditPageDto = z.object({
  entries: z.array(auditEntryDto),
  /** The `before` of the next page; null when this page is the last. */
  nextCursor: z.string().nullable(),
});
export type AuditPageDto = z.infer<typeof auditPageDto>;

/** The CSV export's columns, in order (one record per row, newest first). */
export const AUDIT_CSV_HEADER = [
  'id',
  'time',
  'action',
  'action_label',
  'actor_id',
  'actor_email',
  'ip',
  'team_id',
  'target_type',
  'target_id',
  'target_label',
  'details',
] as const;

/** One row as its CSV record (AUDIT_CSV_HEADER's order). */
export function auditCsvRecord(entry: AuditEntryDto): (string | null)[] {
  return [
    entry.id,
    entry.createdAt,
    entry.action,
    AUDIT_ACTION_LABELS[entry.action],
    entry.actorId,
    entry.actorEmail,
    entry.ip,
    entry.teamId,
    entry.targetType,
    entry.targetId,
    entry.targetLabel,
    JSON.stringify(entry.details),
  ];
}
