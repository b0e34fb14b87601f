import { isChecklistFull, isExactOrder } from '../../../domain/checklist';
import type {
  ChecklistDto,
  ChecklistItemDto,
  ChecklistItemInput,
  ChecklistItemUpdate,
  ChecklistOrderInput,
} from '../../../domain/schemas/task-detail';
import type { Db } from '../../db/client';
import { requireVisibleTask, type TaskAccess } from '../../db/task-access';
import { AppError } from '../../lib/errors';
import type { EventBus } from '../../lib/events';
import * as repo from './task-checklist.repo';

function toItemDto(row: repo.ChecklistItemRow): ChecklistItemDto {
  return {
    id: row.id,
    taskId: row.taskId,
    title: row.title,
    done: row.done,
    position: row.position,
    createdAt: row.createdAt.toISOString(),
  };
}

/*
 * Every checklist write locks the task first: writes to one checklist run one at a time (the limit and a reorder's
 * list hold), and all of them lock the task before its items, as deleting the task does; an item ticked first and its
 * task locked by the trigger afterwards could deadlock with a reorder or a task deletion.
 */
const LOCK = 'no key update';

/** The checklist of a task: any active member of the task's team reads and edits it. */
export class TaskChecklistService {
  constructor(
    private readonly db: Db,
    private readonly events: EventBus,
  ) {}

  async list(userId: string, taskId: string): Promise<ChecklistDto> {
    // The check runs beside the read; when it fails, the rows are dropped.
    const [, rows] = await Promise.all([requireVisibleTask(this.db, taskId, userId), repo.listByTaskId(this.db, taskId)]);
    return { items: rows.map(toItemDto) };
  }

  async add(userId: string, taskId: string, input: ChecklistItemInput): Promise<ChecklistItemDto> {
    const { access, row } = await this.db.transaction(async (tx) => {
      const access = await requireVisibleTask(tx, taskId, userId, LOCK);
      if (isChecklistFull(access.checklistTotal)) throw new AppError('checklist_full');
      return { access, row: await repo.createOne(tx, taskId, input.title) };
    });
    this.publish(userId, access);
    return toItemDto(row);
  }

  async update(userId: string, taskId: string, itemId: string, input: ChecklistItemUpdate): Promise<ChecklistItemDto> {
    const { access, row } = await this.db.transaction(async (tx) => {
      const access = await requireVisibleTask(tx, taskId, userId, LOCK);
      const row = await repo.updateOne(tx, taskId, itemId, { title: input.title, done: input.done });
      if (!row) throw new AppError('checklist_item_not_found');
      return { access, row };
    });
    this.publish(userId, access);
    return toItemDto(row);
  }

  async remove(userId: string, taskId: string, itemId: string): Promise<void> {
    const access = await this.db.transaction(async (tx) => {
      const access = await requireVisibleTask(tx, taskId, userId, LOCK);
      if (!(await repo.deleteOne(tx, taskId, itemId))) throw new AppError('checklist_item_not_found');
      return access;
    });
    this.publish(userId, access);
  }

  /** The whole list in a new order: `ids` must be exactly the task's items (else 409, the list changed meanwhile). */
  async reorder(userId: string, taskId: string, input: ChecklistOrderInput): Promise<ChecklistDto> {
    const ids = input.ids.map((id) => id.toLowerCase());
    const { access, rows } = await this.db.transaction(async (tx) => {
      const access = await requireVisibleTask(tx, taskId, userId, LOCK);
      if (!isExactOrder(await repo.listIdsByTaskId(tx, taskId), ids)) throw new AppError('checklist_order_mismatch');
      return { access, rows: await repo.reorder(tx, taskId, ids) };
    });
    this.publish(userId, access);
    return { items: rows.map(toItemDto) };
  }

  private publish(actorId: string, access: TaskAccess): void {
    this.events.publish({
      type: 'task.detail_changed',
      teamId: access.teamId,
      actorId,
      taskId: access.id,
      projectId: access.projectId,
      part: 'checklist',
    });
  }
}
