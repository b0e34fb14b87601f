import type { PersonActor } from '../../../domain/changes';
import type { ErrorReason } from '../../../domain/errors';
import { canManageGuests, seesWholeTeam } from '../../../domain/permissions';
import type { AddProjectGuestInput, ProjectGuestDto } from '../../../domain/schemas/team';
import type { Db, DbOrTx } from '../../db/client';
import type { ChangeRecorder } from '../../lib/changes';
import { AppError } from '../../lib/errors';
import { toUserSummary } from '../users';
import * as repo from './project-guests.repo';

const toDto = (row: repo.GuestRow): ProjectGuestDto => ({
  userId: row.userId,
  user: toUserSummary(row),
  addedAt: row.createdAt.toISOString(),
});

/**
 * A project's guests (issue 41, decision 0031): the team's guests see only the projects they are given here. The
 * team's members, admins, owner and viewers read the list; a guest does not (403); the owner and admins add and remove
 * guests; anyone who does not see the project gets 404.
 */
export class ProjectGuestsService {
  constructor(
    private readonly db: Db,
    private readonly changes: ChangeRecorder,
  ) {}

  async list(userId: string, projectId: string): Promise<{ guests: ProjectGuestDto[] }> {
    await this.requireProject(this.db, projectId, userId, seesWholeTeam, 'guests_read_denied');
    return { guests: (await repo.listByProjectId(this.db, projectId)).map(toDto) };
  }

  /**
   * Gives the project to a guest of its team: 400 `not_a_guest` unless `userId` is an active member of the team with
   * the role guest. Adding a guest who has it already changes nothing (the same answer).
   */
  async add(actor: PersonActor, projectId: string, input: AddProjectGuestInput): Promise<ProjectGuestDto> {
    const guestId = input.userId.toLowerCase();
    return this.changes.run(this.db, actor, async (tx, record) => {
      const { teamId } = await this.requireProject(tx, projectId, actor.userId, canManageGuests, 'guests_manage_denied', true);
      const member = await repo.lockMemberRole(tx, teamId, guestId);
      if (member?.role !== 'guest') {
        throw new AppError('not_a_guest', { fields: { userId: 'Only a guest of the team can be added to a project' } });
      }
      if (await repo.insertOne(tx, { projectId, userId: guestId, addedBy: actor.userId })) {
        await record({ kind: 'project.guest_added', teamId, projectId, guest: { userId: guestId, email: member.email } });
      }
      return toDto((await repo.getOne(tx, projectId, guestId))!);
    });
  }

  /** Takes the project from a guest: 404 `project_guest_not_found` when they are not one of its guests. */
  async remove(actor: PersonActor, projectId: string, userId: string): Promise<void> {
    const guestId = userId.toLowerCase();
    await this.changes.run(this.db, actor, async (tx, record) => {
      const { teamId } = await this.requireProject(tx, projectId, actor.userId, canManageGuests, 'guests_manage_denied', true);
      const guest = await repo.getOne(tx, projectId, guestId);
      if (!guest || !(await repo.deleteOne(tx, projectId, guestId))) throw new AppError('project_guest_not_found');
      await record({ kind: 'project.guest_removed', teamId, projectId, guest: { userId: guestId, email: guest.email } });
    });
  }

  /** The project's team when the caller sees the project (else 404) and their role passes `can` (else 403 `denied`). */
  private async requireProject(
    db: DbOrTx,
    projectId: string,
    userId: string,
    can: (role: NonNullable<repo.ProjectAccess['callerRole']>) => boolean,
    denied: ErrorReason,
    lock = false,
  ): Promise<{ teamId: string }> {
    const access = await repo.getProjectAccess(db, projectId.toLowerCase(), userId, lock);
    if (!access?.callerRole || !access.callerSees) throw new AppError('project_not_found');
    if (!can(access.callerRole)) throw new AppError(denied);
    return { teamId: access.teamId };
  }
}
