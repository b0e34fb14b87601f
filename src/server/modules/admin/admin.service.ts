import type { PersonActor } from '../../../domain/changes';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  ADMIN_RECENT_USERS,
  ADMIN_USER_SEARCH_LIMIT,
  type AdminOverviewDto,
  type AdminUserDto,
  type SystemAlertDto,
} from '../../../domain/schemas/admin';
import type { Config } from '../../config';
import { migrationsFolder, type Database } from '../../db/client';
import { AppError } from '../../lib/errors';
import type { ChangeRecorder } from '../../lib/changes';
import * as authRepo from '../auth';
import type { UserRow } from '../../db/schema';
import { getOutboxStats, transportKind } from '../mail';
import * as repo from './admin.repo';

function toAdminUserDto(row: UserRow): AdminUserDto {
  return {
    id: row.id,
    fullName: row.fullName,
    email: row.email,
    role: row.role,
    isActive: row.isActive,
    createdAt: row.createdAt.toISOString(),
    lastSeenAt: row.lastSeenAt?.toISOString() ?? null,
  };
}

async function journalSize(): Promise<number | null> {
  try {
    const journal = JSON.parse(await readFile(join(migrationsFolder(), 'meta/_journal.json'), 'utf8')) as { entries?: unknown[] };
    return journal.entries?.length ?? 0;
  } catch {
    return null;
  }
}

export class AdminService {
  constructor(
    private readonly database: Database,
    private readonly config: Config,
    private readonly changes: ChangeRecorder,
  ) {}

  async overview(): Promise<AdminOverviewDto> {
    const db = this.database.db;
    const [stats, recent, alerts, outbox] = await Promise.all([
      repo.getStats(db),
      repo.listUsers(db, { limit: ADMIN_RECENT_USERS }),
      this.alerts(),
      getOutboxStats(db),
    ]);
    return {
      stats,
      recentUsers: recent.map(toAdminUserDto),
      alerts,
      mail: { transport: transportKind(this.config.mail), ...outbox },
    };
  }

  async searchUsers(q: string | undefined): Promise<AdminUserDto[]> {
    const rows = await repo.listUsers(this.database.db, { limit: ADMIN_USER_SEARCH_LIMIT, search: q || undefined });
    return rows.map(toAdminUserDto);
  }

  /** Deactivates or reactivates a user; deactivation ends all their sessions in the same transaction. */
  async setActive(actor: PersonActor, userId: string, isActive: boolean): Promise<AdminUserDto> {
    if (userId === actor.userId && !isActive) {
      throw new AppError('cannot_deactivate_self');
    }
    const row = await this.changes.run(this.database.db, actor, async (tx, record) => {
      const updated = await repo.setActive(tx, userId, isActive);
      if (!updated) return updated;
      if (!isActive) await authRepo.revokeAllSessionsOfUser(tx, userId);
      await record({ kind: isActive ? 'account.activated' : 'account.deactivated', userId: updated.id, email: updated.email });
      return updated;
    });
    if (!row) throw new AppError('user_not_found');
    return toAdminUserDto(row);
  }

  /** Real checks: database reachable, migrations current, Google sign-in configured. */
  private async alerts(): Promise<SystemAlertDto[]> {
    const alerts: SystemAlertDto[] = [];
    const engine = this.database.kind === 'pglite' ? 'embedded PGlite' : 'PostgreSQL';
    try {
      const started = Date.now();
      await this.database.ping();
      alerts.push({
        id: 'database',
        type: 'info',
        title: 'Database reachable',
        message: `The ${engine} database answered in ${Date.now() - started} ms.`,
      });
    } catch {
      alerts.push({
        id: 'database',
        type: 'error',
        title: 'Database unreachable',
        message: `The ${engine} database did not answer.`,
      });
    }

    const [applied, expected] = await Promise.all([repo.countAppliedMigrations(this.database.db), journalSize()]);
    if (applied === null || expected === null) {
      alerts.push({
        id: 'migrations',
        type: 'error',
        title: 'Migrations unknown',
        message: 'The applied migrations could not be compared with the ones this version ships.',
      });
    } else if (applied === expected) {
      alerts.push({
        id: 'migrations',
        type: 'info',
        title: 'Migrations current',
        message: `All ${expected} database migrations are applied.`,
      });
    } else if (applied < expected) {
      alerts.push({
        id: 'migrations',
        type: 'error',
        title: 'Migrations pending',
        message: `${expected - applied} of ${expected} database migrations are not applied. Restart the server to apply them.`,
      });
    } else {
      alerts.push({
        id: 'migrations',
        type: 'warning',
        title: 'Database ahead of this version',
        message: `The database has ${applied} migrations applied but this version ships ${expected}. Is an older version running?`,
      });
    }

    alerts.push(
      this.config.google
        ? {
            id: 'google',
            type: 'info',
            title: 'Google sign-in configured',
            message: `Users can sign in with ${this.config.google.issuer}.`,
          }
        : {
            id: 'google',
            type: 'warning',
            title: 'Google sign-in not configured',
            message: 'Set GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET to let users sign in with Google.',
          },
    );
    if (transportKind(this.config.mail) === 'log') {
      alerts.push({
        id: 'mail',
        type: 'warning',
        title: 'Email is not sent',
        message: 'SMTP_URL is not set: every email, with its links, is written to the server log instead.',
      });
    }
    alerts.push(
      this.config.emailVerification === 'off'
        ? {
            id: 'email_verification',
            type: 'warning',
            title: 'Email verification is off',
            message:
              'Addresses are unproven: anyone can sign up with an address that is not theirs. Set SMTP_URL and EMAIL_VERIFICATION=required.',
          }
        : {
            id: 'email_verification',
            type: 'info',
            title: 'Email verification required',
            message: 'New accounts prove their address by an emailed link.',
          },
    );
    return alerts;
  }
}
