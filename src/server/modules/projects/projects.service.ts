import type { PersonActor } from '../../../domain/changes';
import { MSG } from '../../../domain/messages';
import type { CreateProjectInput, ListProjectsQuery, ProjectDto, UpdateProjectInput } from '../../../domain/schemas/project';
import { endNotAfterStart } from '../../../domain/schemas/project';
import type { Db } from '../../db/client';
import { canEditProject } from '../../../domain/permissions';
import { AppError } from '../../lib/errors';
import type { ChangeRecorder } from '../../lib/changes';
import { requireContributor, requireTeamRight } from '../../db/membership';
import * as repo from './projects.repo';

const projectNotFound = () => new AppError('project_not_found');

/** Project rules (DESIGN.md "Authorization"): members create; the team's owner/admins edit and delete. */
export class ProjectsService {
  constructor(
    private readonly db: Db,
    private readonly changes: ChangeRecorder,
  ) {}

  list(userId: string, query: ListProjectsQuery): Promise<ProjectDto[]> {
    return repo.listVisible(this.db, userId, query);
  }

  async get(userId: string, id: string): Promise<ProjectDto> {
    const project = await repo.getVisibleById(this.db, userId, id);
    if (!project) throw projectNotFound();
    return project;
  }

  async create(actor: PersonActor, input: CreateProjectInput): Promise<ProjectDto> {
    const { userId } = actor;
    const row = await this.changes.run(this.db, actor, async (tx, record) => {
      // A viewer or a guest creates no project (issue 41).
      await requireContributor(tx, input.teamId, userId);
      const created = await repo.createOne(tx, { ...input, ownerId: userId });
      await record({ kind: 'project.created', teamId: created.teamId, projectId: created.id });
      return created;
    });
    return this.get(userId, row.id);
  }

  async update(actor: PersonActor, id: string, input: UpdateProjectInput): Promise<ProjectDto> {
    const { userId } = actor;
    const { version, ...changes } = input;
    const row = await this.changes.run(this.db, actor, async (tx, record) => {
      const current = await repo.getOneByIdForUpdate(tx, id);
      if (!current) throw projectNotFound();
      await requireTeamRight(tx, current.teamId, userId, canEditProject, 'project_edit_denied', 'project_not_found');
      if (version !== undefined && version !== current.version) throw new AppError('stale_edit');
      const moving = changes.teamId !== undefined && changes.teamId !== current.teamId;
      if (moving) await requireContributor(tx, changes.teamId!, userId);
      const startDate = changes.startDate === undefined ? current.startDate : changes.startDate;
      const endDate = changes.endDate === undefined ? current.endDate : changes.endDate;
      if (endNotAfterStart(startDate, endDate))
        throw new AppError('end_before_start', { fields: { endDate: MSG.endAfterStart } });
      const updated = await repo.updateOne(tx, id, current.version, changes);
      if (!updated) throw new AppError('stale_edit');
      if (moving) {
        await repo.unassignNonMembers(tx, id, updated.teamId);
        await repo.clearFieldValues(tx, id);
      }
      await record({ kind: 'project.updated', teamId: updated.teamId, previousTeamId: current.teamId, projectId: id });
      return updated;
    });
    return this.get(userId, row.id);
  }

  async remove(actor: PersonActor, id: string): Promise<void> {
    await this.changes.run(this.db, actor, async (tx, record) => {
      const current = await repo.getOneByIdForUpdate(tx, id);
      if (!current) throw projectNotFound();
      await requireTeamRight(tx, current.teamId, actor.userId, canEditProject, 'project_edit_denied', 'project_not_found');
      // Recorded while the row is there: the webhook carries the project as it was.
      await record({ kind: 'project.deleted', teamId: current.teamId, projectId: id, name: current.name });
      await repo.deleteOne(tx, id);
    });
  }
}
