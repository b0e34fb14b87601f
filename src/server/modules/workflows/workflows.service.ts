import type { PersonActor } from '../../../domain/changes';
import { ERRORS, type ErrorReason } from '../../../domain/errors';
import { canEditProject } from '../../../domain/permissions';
import type {
  CreateStatusInput,
  DeleteStatusInput,
  StatusDto,
  StatusListDto,
  StatusOrderInput,
  UpdateStatusInput,
} from '../../../domain/schemas/workflow';
import {
  checkWorkflowChange,
  planStatusDelete,
  reorder,
  type RuleResult,
  statusKeyFor,
  validateStatusName,
  type WorkflowRuleReason,
} from '../../../domain/workflow';
import type { Db, Tx } from '../../db/client';
import { requireTeamRight } from '../../db/membership';
import { requireProjectMember } from '../../db/project-access';
import type { ChangeRecorder } from '../../lib/changes';
import { AppError } from '../../lib/errors';
import * as repo from './workflows.repo';

const toDto = (row: repo.LiveStatusRow): StatusDto => ({
  id: row.id,
  key: row.key,
  name: row.name,
  category: row.category,
  color: row.color,
  position: row.position,
  wipLimit: row.wipLimit,
});

/** The body field each refusal is about (the others are about the workflow as a whole, or the request). */
const FIELD_OF: Partial<Record<WorkflowRuleReason, string>> = {
  status_name_required: 'name',
  status_name_too_long: 'name',
  status_name_taken: 'name',
  status_color_invalid: 'color',
  status_wip_limit_invalid: 'wipLimit',
  status_not_empty: 'moveTo',
  status_move_target_invalid: 'moveTo',
};

/** A domain rule's value, or its refusal as the API's error (on the body's field it is about, or on `field`). */
function ruled<T>(result: RuleResult<T>, field?: string): T {
  if (result.ok) return result.value;
  const on = field ?? FIELD_OF[result.reason];
  throw new AppError(result.reason, on ? { fields: { [on]: ERRORS[result.reason].message } } : undefined);
}

/**
 * A project's workflow (issue 36, decision 0024): its statuses, read by the members of its team and changed by those
 * who may edit the project (its team's owner and admins: 403 `project_edit_denied` for plain members, 404 for anyone
 * outside, as for the project). The rules are the domain's (domain/workflow.ts); every write holds the project's
 * workflow lock, so two writes to one workflow take turns and each checks the rules against what the other left.
 */
export class WorkflowsService {
  constructor(
    private readonly db: Db,
    private readonly changes: ChangeRecorder,
  ) {}

  async list(userId: string, projectId: string): Promise<StatusListDto> {
    const teamId = await repo.getProjectTeam(this.db, projectId);
    if (!teamId) throw new AppError('project_not_found');
    await requireProjectMember(this.db, teamId, projectId, userId, 'project_not_found');
    return { statuses: (await repo.listLiveByProjectId(this.db, projectId)).map(toDto) };
  }

  /** A new status after the last one; its key is its name's slug, unique in the project (deleted statuses' too). */
  create(actor: PersonActor, projectId: string, input: CreateStatusInput): Promise<StatusDto> {
    return this.changes.run(this.db, actor, async (tx, record) => {
      const { teamId, live } = await this.openWorkflow(tx, projectId, actor.userId, 'project_not_found');
      const name = ruled(validateStatusName(input.name, live));
      ruled(checkWorkflowChange(live, { kind: 'add', category: input.category }));
      const key = statusKeyFor(name, await repo.listKeysByProjectId(tx, projectId));
      const last = live.at(-1);
      const row = await repo.createOne(tx, {
        projectId,
        key,
        name,
        category: input.category,
        color: input.color,
        position: last ? last.position + 1 : 0,
        wipLimit: input.wipLimit,
      });
      const status = toDto(row);
      await record({ kind: 'status.created', teamId, projectId, status });
      return status;
    });
  }

  /**
   * A rename (the key and the tasks stay), a new category (the workflow must stay valid; its tasks take the category),
   * colour or WIP limit. A body that changes nothing answers the status as it is and records nothing.
   */
  update(actor: PersonActor, id: string, input: UpdateStatusInput): Promise<StatusDto> {
    return this.changes.run(this.db, actor, async (tx, record) => {
      const { teamId, projectId, live, current } = await this.openStatus(tx, id, actor.userId);
      const changes: Parameters<typeof repo.updateOne>[2] = {};
      if (input.name !== undefined && input.name !== current.name) {
        changes.name = ruled(validateStatusName(input.name, live, id));
      }
      if (input.category !== undefined && input.category !== current.category) {
        ruled(checkWorkflowChange(live, { kind: 'recategorise', id, category: input.category }), 'category');
        changes.category = input.category;
      }
      if (input.color !== undefined && input.color !== current.color) changes.color = input.color;
      if (input.wipLimit !== undefined && input.wipLimit !== current.wipLimit) changes.wipLimit = input.wipLimit;
      if (Object.keys(changes).length === 0) return toDto(current);
      // A new category reaches its tasks in this transaction, with no task written into the status meanwhile.
      if (changes.category) await repo.holdStatus(tx, projectId, current);
      const after = toDto(await repo.updateOne(tx, id, changes));
      if (changes.category) await repo.setTasksCategory(tx, projectId, current.key, changes.category);
      await record({ kind: 'status.updated', teamId, projectId, before: toDto(current), after });
      return after;
    });
  }

  /**
   * Takes a status out of the workflow. One that has tasks needs `moveTo` (409 `status_not_empty` without it): every
   * task moves there in this transaction, each with its history entry, then the status is deleted (its row kept).
   */
  remove(actor: PersonActor, id: string, input: DeleteStatusInput | null | undefined): Promise<void> {
    const moveTo = input?.moveTo;
    return this.changes.run(this.db, actor, async (tx, record) => {
      const { teamId, projectId, live, current } = await this.openStatus(tx, id, actor.userId);
      // The workflow's rules and the target first: refused, it locks nothing more.
      ruled(planStatusDelete(live, id, 0, moveTo));
      const taskCount = await repo.holdStatus(tx, projectId, current);
      const targetId = ruled(planStatusDelete(live, id, taskCount, moveTo));
      const target = live.find((s) => s.id === targetId);
      const movedTaskIds = target && taskCount > 0 ? await repo.moveTasks(tx, projectId, current.key, target.key) : [];
      await repo.softDelete(tx, current);
      await record({
        kind: 'status.deleted',
        teamId,
        projectId,
        status: toDto(current),
        movedTo: target && movedTaskIds.length > 0 ? toDto(target) : null,
        movedTaskIds,
      });
    });
  }

  /** The whole workflow in a new order: `ids` must name every live status once (409 `status_order_mismatch`). */
  reorder(actor: PersonActor, projectId: string, input: StatusOrderInput): Promise<StatusListDto> {
    return this.changes.run(this.db, actor, async (tx, record) => {
      const { teamId, live } = await this.openWorkflow(tx, projectId, actor.userId, 'project_not_found');
      const order = ruled(reorder(input.ids, live));
      const byId = new Map(live.map((s) => [s.id, s]));
      const moved = order
        .filter(({ id, position }) => byId.get(id)!.position !== position)
        .map(({ id, position }) => ({ ...toDto(byId.get(id)!), position }));
      if (moved.length === 0) return { statuses: live.map(toDto) };
      await repo.setOrder(tx, projectId, input.ids);
      await record({ kind: 'status.reordered', teamId, projectId, moved });
      return { statuses: (await repo.listLiveByProjectId(tx, projectId)).map(toDto) };
    });
  }

  /**
   * The project's workflow, for a write: the caller must be allowed to edit the project (404 `notFound` when they
   * cannot see it, 403 when they may not edit it); the project is kept from deletion and its workflow locked, then
   * its live statuses read.
   */
  private async openWorkflow(tx: Tx, projectId: string, userId: string, notFound: ErrorReason) {
    const teamId = await repo.getProjectTeam(tx, projectId, true);
    if (!teamId) throw new AppError(notFound);
    await requireTeamRight(tx, teamId, userId, canEditProject, 'project_edit_denied', notFound);
    await repo.lockWorkflow(tx, projectId);
    return { teamId, live: await repo.listLiveByProjectId(tx, projectId) };
  }

  /** A live status's workflow, for a write (as openWorkflow; a status deleted, or one the caller cannot see: 404). */
  private async openStatus(tx: Tx, id: string, userId: string) {
    const found = await repo.getOneById(tx, id);
    if (!found || found.deletedAt) throw new AppError('status_not_found');
    const { teamId, live } = await this.openWorkflow(tx, found.projectId, userId, 'status_not_found');
    // Read again under the lock: another write may have deleted it meanwhile.
    const current = live.find((s) => s.id === id);
    if (!current) throw new AppError('status_not_found');
    return { teamId, projectId: found.projectId, live, current };
  }
}
