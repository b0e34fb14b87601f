import type { PersonActor } from '../../../domain/changes';
import { canEditProject } from '../../../domain/permissions';
import type { IntakeDto, IntakeInput } from '../../../domain/schemas/outside';
import type { Db, Tx } from '../../db/client';
import { requireTeamRight } from '../../db/membership';
import type { ChangeRecorder, RecordChange } from '../../lib/changes';
import { AppError } from '../../lib/errors';
import { hashToken } from '../../lib/tokens';
import type { Sealer } from '../oidc';
import { intakeAddress, newAddressToken } from './addresses';
import * as repo from './inbound-mail.repo';

/**
 * A project's intake address (issue 40, decision 0028): `<project-slug>+<token>@<INBOUND_MAIL_DOMAIN>`. Its project's
 * team owner and admins see and manage it (members 403, anyone else 404). The token is kept as its SHA-256 (what a
 * mail is matched by) and sealed (to show the address again); a reset replaces both, so the old address is dead at once.
 */
export class IntakeService {
  constructor(
    private readonly db: Db,
    private readonly changes: ChangeRecorder,
    private readonly sealer: Sealer,
    /** INBOUND_MAIL_DOMAIN; null: mail intake is not set up on this server. */
    private readonly domain: string | null,
  ) {}

  async get(userId: string, projectId: string): Promise<IntakeDto> {
    const project = await this.requireManager(this.db, userId, projectId);
    return this.dto(project.name, await repo.getIntake(this.db, projectId));
  }

  async set(actor: PersonActor, projectId: string, input: IntakeInput): Promise<IntakeDto> {
    return this.changes.run(this.db, actor, async (tx, record) => {
      const project = await this.requireManager(tx, actor.userId, projectId, true);
      if (input.enabled && !this.domain) throw new AppError('intake_not_configured');
      const current = await repo.getIntake(tx, projectId);
      if (input.enabled === !!current) return this.dto(project.name, current);
      if (input.enabled) await this.newToken(tx, record, actor.userId, project, 'enabled');
      else {
        await repo.deleteIntake(tx, projectId);
        await record({
          kind: 'intake.changed',
          teamId: project.teamId,
          projectId,
          projectName: project.name,
          action: 'disabled',
        });
      }
      return this.dto(project.name, await repo.getIntake(tx, projectId));
    });
  }

  async reset(actor: PersonActor, projectId: string): Promise<IntakeDto> {
    return this.changes.run(this.db, actor, async (tx, record) => {
      const project = await this.requireManager(tx, actor.userId, projectId, true);
      if (!this.domain) throw new AppError('intake_not_configured');
      if (!(await repo.getIntake(tx, projectId))) throw new AppError('intake_off');
      await this.newToken(tx, record, actor.userId, project, 'reset');
      return this.dto(project.name, await repo.getIntake(tx, projectId));
    });
  }

  private async newToken(
    tx: Tx,
    record: RecordChange,
    userId: string,
    project: { id: string; teamId: string; name: string },
    action: 'enabled' | 'reset',
  ): Promise<void> {
    const token = newAddressToken();
    await repo.upsertIntake(tx, {
      projectId: project.id,
      tokenHash: hashToken(token),
      tokenSealed: await this.sealer.seal({ token }),
      enabledById: userId,
    });
    await record({ kind: 'intake.changed', teamId: project.teamId, projectId: project.id, projectName: project.name, action });
  }

  private async dto(projectName: string, row: repo.IntakeRow | undefined): Promise<IntakeDto> {
    if (!this.domain) return { enabled: !!row, address: null, configured: false };
    if (!row) return { enabled: false, address: null, configured: true };
    const opened = await this.sealer.open(row.tokenSealed);
    const token = typeof opened?.token === 'string' ? opened.token : null;
    // A token sealed under another AUTH_SECRET cannot be shown: a reset makes a new one.
    return { enabled: true, address: token ? intakeAddress(projectName, token, this.domain) : null, configured: true };
  }

  /** The project, when the caller may manage it (its team's owner or an admin); 403 for members, 404 for others. */
  private async requireManager(db: Db | Tx, userId: string, projectId: string, lock = false) {
    const project = await repo.getProject(db, projectId, lock);
    if (!project) throw new AppError('project_not_found');
    await requireTeamRight(db, project.teamId, userId, canEditProject, 'intake_manage_denied', 'project_not_found');
    return project;
  }
}
