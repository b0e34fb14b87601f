import { createHash, randomBytes } from 'node:crypto';
import type { PersonActor } from '../../../domain/changes';
import { OUTSIDE_LIMITS } from '../../../domain/constants';
import { canEditProject } from '../../../domain/permissions';
import type { ShareSettingsDto, ShareSettingsInput, SharedBoardDto, SharedCardDto } from '../../../domain/schemas/outside';
import { MENTION_TOKEN, mentionedIds } from '../../../domain/schemas/task-detail';
import type { Db, Tx } from '../../db/client';
import { requireTeamRight } from '../../db/membership';
import type { ChangeRecorder } from '../../lib/changes';
import { AppError } from '../../lib/errors';
import type { Sealer } from '../oidc';
import * as repo from './sharing.repo';
import type { OpenShare } from './sharing.streams';

/** What a token is looked up by: its SHA-256 (hex). The token itself is never stored in the clear. */
export const shareTokenHash = (token: string): string => createHash('sha256').update(token).digest('hex');

/** A new link's token: OUTSIDE_LIMITS.tokenBytes random bytes (192 bits), base64url. */
const newToken = () => randomBytes(OUTSIDE_LIMITS.tokenBytes).toString('base64url');

/**
 * A project's public board link (issue 40, decision 0028). Managed by those who may edit the project (its team's owner
 * and admins: 403 `project_edit_denied` for plain members, 404 for anyone outside); read by anyone with the token,
 * who gets the board as `sharedBoardDto` built field by field, never a task's answer with fields removed.
 */
export class SharingService {
  constructor(
    private readonly db: Db,
    private readonly changes: ChangeRecorder,
    private readonly sealer: Sealer,
    private readonly publicUrl: string,
  ) {}

  async get(userId: string, projectId: string): Promise<ShareSettingsDto> {
    return this.db.transaction(async (tx) => {
      await this.openProject(tx, projectId, userId);
      return this.toDto(await repo.getShare(tx, projectId));
    });
  }

  /**
   * On or off, and the options (left out: kept). Turning on makes a token; off drops it (the options stay); a body
   * that changes nothing records nothing. Options changed alone are recorded as 'updated' (no audit row).
   */
  update(actor: PersonActor, projectId: string, input: ShareSettingsInput): Promise<ShareSettingsDto> {
    return this.changes.run(this.db, actor, async (tx, record) => {
      const project = await this.openProject(tx, projectId, actor.userId);
      const current = await repo.lockShare(tx, projectId);
      const wasOn = Boolean(current?.tokenHash);
      const showPeople = input.showPeople ?? current?.showPeople ?? false;
      const showDescriptions = input.showDescriptions ?? current?.showDescriptions ?? false;
      const optionsChanged =
        showPeople !== (current?.showPeople ?? false) || showDescriptions !== (current?.showDescriptions ?? false);
      if (input.enabled === wasOn && !optionsChanged) return this.toDto(current);
      const token = input.enabled && !wasOn ? await this.sealedToken() : null;
      const row = await repo.saveShare(tx, {
        projectId,
        tokenHash: input.enabled ? (token?.hash ?? current!.tokenHash) : null,
        tokenSealed: input.enabled ? (token?.sealed ?? current!.tokenSealed) : null,
        showPeople,
        showDescriptions,
        updatedById: actor.userId,
      });
      const action = input.enabled === wasOn ? 'updated' : input.enabled ? 'enabled' : 'disabled';
      await record({
        kind: 'share.changed',
        teamId: project.teamId,
        projectId,
        projectName: project.name,
        action,
        showPeople,
        showDescriptions,
      });
      return this.toDto(row, token?.token);
    });
  }

  /** A new token for a link that is on (409 `share_off` when it is off): the old one answers 404 from the commit on. */
  reset(actor: PersonActor, projectId: string): Promise<ShareSettingsDto> {
    return this.changes.run(this.db, actor, async (tx, record) => {
      const project = await this.openProject(tx, projectId, actor.userId);
      const current = await repo.lockShare(tx, projectId);
      if (!current?.tokenHash) throw new AppError('share_off');
      const token = await this.sealedToken();
      const row = await repo.saveShare(tx, {
        projectId,
        tokenHash: token.hash,
        tokenSealed: token.sealed,
        showPeople: current.showPeople,
        showDescriptions: current.showDescriptions,
        updatedById: actor.userId,
      });
      await record({
        kind: 'share.changed',
        teamId: project.teamId,
        projectId,
        projectName: project.name,
        action: 'reset',
        showPeople: row.showPeople,
        showDescriptions: row.showDescriptions,
      });
      return this.toDto(row, token.token);
    });
  }

  /** The project (and its team) the link of token hash `hash` opens, or null (unknown, turned off, reset). */
  async openHash(hash: string): Promise<OpenShare | null> {
    const found = await repo.findByTokenHash(this.db, hash);
    return found ? { projectId: found.projectId, teamId: found.teamId } : null;
  }

  /**
   * The shared board (404 `share_not_found` for a token that opens nothing): the project's name, its columns, its
   * top-level cards in board order; `assigneeName` only with 'Show people', `description` only with 'Show descriptions'.
   */
  async board(token: string): Promise<SharedBoardDto> {
    return this.db.transaction(async (tx) => {
      const share = await repo.findByTokenHash(tx, shareTokenHash(token));
      if (!share) throw new AppError('share_not_found');
      const { showPeople, showDescriptions } = share;
      const [columns, rows] = await Promise.all([
        repo.listColumns(tx, share.projectId),
        repo.listCards(tx, share.projectId, showPeople),
      ]);
      // A description's mentions (`<@user-id>`) never carry an id out: a member's name with 'Show people', else '@someone'.
      const names = showPeople
        ? await repo.memberNames(tx, share.teamId, [
            ...new Set(rows.flatMap((r) => (r.description ? mentionedIds(r.description) : []))),
          ])
        : new Map<string, string>();
      const unmention = (text: string) =>
        text.replace(MENTION_TOKEN, (_, id: string) => `@${names.get(id.toLowerCase()) ?? 'someone'}`);
      const tasks = rows.map((row) => {
        const card: SharedCardDto = {
          id: row.id,
          title: row.title,
          status: row.status,
          priority: row.priority,
          dueDate: row.dueDate,
          tags: [...row.tags],
          checklist: { done: row.checklistDone, total: row.checklistTotal },
          subtasks: { done: row.subtaskDone, total: row.subtaskTotal },
        };
        if (showPeople) card.assigneeName = row.assigneeName ?? null;
        if (showDescriptions) card.description = row.description === null ? null : unmention(row.description);
        return card;
      });
      return {
        project: { name: share.projectName },
        showPeople,
        showDescriptions,
        columns: columns.map((c) => ({ key: c.key, name: c.name, category: c.category, color: c.color })),
        tasks,
      };
    });
  }

  /** The project, for a caller who may edit it (404 `project_not_found` when they cannot see it, 403 when a member). */
  private async openProject(tx: Tx, projectId: string, userId: string) {
    const project = await repo.getProjectForShare(tx, projectId);
    if (!project) throw new AppError('project_not_found');
    await requireTeamRight(tx, project.teamId, userId, canEditProject, 'project_edit_denied', 'project_not_found');
    return project;
  }

  private async sealedToken() {
    const token = newToken();
    return { token, hash: shareTokenHash(token), sealed: await this.sealer.seal({ t: token }) };
  }

  /** The settings; the link's URL from the token just made, or from its sealed copy (null when off). */
  private async toDto(row: repo.ShareRow | undefined, fresh?: string): Promise<ShareSettingsDto> {
    const enabled = Boolean(row?.tokenHash);
    let token = enabled ? fresh : undefined;
    if (enabled && !token && row?.tokenSealed) {
      const opened = await this.sealer.open(row.tokenSealed);
      token = typeof opened?.t === 'string' ? opened.t : undefined;
    }
    return {
      enabled,
      showPeople: row?.showPeople ?? false,
      showDescriptions: row?.showDescriptions ?? false,
      url: token ? `${this.publicUrl}/share/${token}` : null,
    };
  }
}
