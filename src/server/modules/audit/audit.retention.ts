import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import { startPeriodic } from '../../lib/periodic';
import { purgeOlderThan } from './audit.repo';

/** How often each instance purges (several instances purging at once is harmless: a row is deleted once). */
export const AUDIT_PURGE_EVERY_MS = 6 * 3600_000;

const DAY_MS = 86_400_000;

/** Deletes the audit rows older than `retentionDays` (AUDIT_RETENTION_DAYS) before `now`; returns how many. */
export function purgeAuditLog(db: Db, retentionDays: number, now = new Date()): Promise<number> {
  return purgeOlderThan(db, new Date(now.getTime() - retentionDays * DAY_MS));
}

/**
 * The retention purge on every instance: once when the app is ready (in the background: start-up does not wait for
 * it), then every 6 hours; stopped, and waited for, when the app closes (before the database is).
 */
export function startAuditRetention(app: FastifyInstance, db: Db, retentionDays: number): void {
  startPeriodic(app, {
    everyMs: AUDIT_PURGE_EVERY_MS,
    run: async () => {
      const deleted = await purgeAuditLog(db, retentionDays);
      if (deleted) app.log.info({ deleted, retentionDays }, 'audit log: purged rows past their retention');
    },
    failed: 'audit log purge failed',
  });
}
