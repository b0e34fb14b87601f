import { MSG } from '../../../domain/messages';
import type { CreateProjectInput, ListProjectsQuery, ProjectDto, UpdateProjectInput } from '../../../domain/schemas/project';
import { endNotAfterStart } from '../../../domain/schemas/project';
import type { Db } from '../../db/client';
import { canEditProject } from '../../../domain/permissions';
import { AppError } from '../../lib/errors';
import type { EventBus } from '../../lib/events';
import { type AuditBy, recordAudit } from '../audit/audit.record';
import { requireTeamMember, requireTeamRight } from '../teams/membership';
import { projectWebhookEvent } from '../webhooks/webhooks.outbox';
import * as repo from './projects.repo';

const projectNotFound = () => new AppError('project_not_found');

/** Project rules (DESIGN.md "Authorization"): members create; the team's owner/admins edit and delete. */
export class ProjectsService {
  constructor(
    private readonly db: Db,
    private readonly events: EventBus,
  ) {}

  list(userId: string, query: ListProjectsQuery): Promise<ProjectDto[]> {
    return repo.listVisible(this.db, userId, query);
  }

  async get(userId: string, id: string): Promise<ProjectDto> {
    const project = await repo.getVisibleById(this.db, userId, id);
    if (!project) throw projectNotFound();
    return project;
  }

  async create(userId: string, input: CreateProjectInput): Promise<ProjectDto> {
    const row = await this.db.transaction(async (tx) => {
      await requireTeamMember(tx, input.teamId, userId);
      const created = await repo.createOne(tx, { ...input, ownerId: userId });
      await projectWebhookEvent(tx, { teamId: created.teamId, type: 'project.created', actorId: userId, projectId: created.id });
      return created;
    });
    this.events.publish({ type: 'project.created', teamId: row.teamId, actorId: userId, projectId: row.id, progress: 0 });
    return this.get(userId, row.id);
  }

  async update(userId: string, id: string, input: UpdateProjectInput): Promise<ProjectDto> {
    const { version, ...changes } = input;
    const row = await this.db.transaction(async (tx) => {
      const current = await repo.getOneByIdForUpdate(tx, id);
      if (!current) throw projectNotFound();
      await requireTeamRight(tx, current.teamId, userId, canEditProject, 'project_edit_denied', 'project_not_found');
      if (version !== undefined && version !== current.version) throw new AppError('stale_edit');
      const moving = changes.teamId !== undefined && changes.teamId !== current.teamId;
      if (moving) await requireTeamMember(tx, changes.teamId!, userId);
      const startDate = changes.startDate === undefined ? current.startDate : changes.startDate;
      const endDate = changes.endDate === undefined ? current.endDate : changes.endDate;
      if (endNotAfterStart(startDate, endDate))
        throw new AppError('end_before_start', { fields: { endDate: MSG.endAfterStart } });
      const updated = await repo.updateOne(tx, id, current.version, changes);
      if (!updated) throw new AppError('stale_edit');
      if (moving) await repo.unassignNonMembers(tx, id, updated.teamId);
      await projectWebhookEvent(tx, { teamId: updated.teamId, type: 'project.updated', actorId: userId, projectId: id });
      return updated;
    });
    this.events.publish({ type: 'project.updated', teamId: row.teamId, actorId: userId, projectId: row.id });
    return this.get(userId, row.id);
  }

  async remove(userId: string, id: string, by?: AuditBy): Promise<void> {
    const row = await this.db.transaction(async (tx) => {
      const current = await repo.getOneByIdForUpdate(tx, id);
      if (!current) throw projectNotFound();
      await requireTeamRight(tx, current.teamId, userId, canEditProject, 'project_edit_denied', 'project_not_found');
      await projectWebhookEvent(tx, { teamId: current.teamId, type: 'project.deleted', actorId: userId, projectId: id });
      await repo.deleteOne(tx, id);
      await recordAudit(tx, {
        action: 'project.deleted',
        ...(by ?? { actorId: userId, actorEmail: null, ip: null }),
        teamId: current.teamId,
        targetType: 'project',
        targetId: current.id,
        targetLabel: current.name,
      });
      return current;
    });
    this.events.publish({ type: 'project.deleted', teamId: row.teamId, actorId: userId, projectId: row.id });
  }
}
