import { isChecklistFull, isExactOrder } from '../../../domain/checklist';
import type {
  ChecklistDto,
  ChecklistItemDto,
  ChecklistItemInput,
  ChecklistItemUpdate,
  ChecklistOrderInput,
} from '../../../domain/schemas/task-detail';
import type { Db, DbOrTx } from '../../db/client';
import { AppError } from '../../lib/errors';
import type { EventBus } from '../../lib/events';
import * as repo from './task-checklist.repo';

type TaskAccess = NonNullable<Awaited<ReturnType<typeof repo.getTaskAccess>>>;

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

/** The checklist of a task: any active member of the task's team reads and edits it. */
export class TaskChecklistService {
  constructor(
    private readonly db: Db,
    private readonly events: EventBus,
  ) {}

  async list(userId: string, taskId: string): Promise<ChecklistDto> {
    // The check runs beside the read; when it fails, the rows are dropped.
    const [, rows] = await Promise.all([this.requireVisible(this.db, taskId, userId), repo.listByTaskId(this.db, taskId)]);
    return { items: rows.map(toItemDto) };
  }

  async add(userId: string, taskId: string, input: ChecklistItemInput): Promise<ChecklistItemDto> {
    const { access, row } = await this.db.transaction(async (tx) => {
      const access = await this.lockVisible(tx, taskId, userId);
      if (isChecklistFull(access.itemCount)) throw new AppError('checklist_full');
      return { access, row: await repo.createOne(tx, taskId, input.title) };
    });
    this.publish(userId, access);
    return toItemDto(row);
  }

  async update(userId: string, taskId: string, itemId: string, input: ChecklistItemUpdate): Promise<ChecklistItemDto> {
    const { access, row } = await this.db.transaction(async (tx) => {
      const access = await this.lockVisible(tx, taskId, userId);
      const row = await repo.updateOne(tx, taskId, itemId, { title: input.title, done: input.done });
      if (!row) throw new AppError('checklist_item_not_found');
      return { access, row };
    });
    this.publish(userId, access);
    return toItemDto(row);
  }

  async remove(userId: string, taskId: string, itemId: string): Promise<void> {
    const access = await this.db.transaction(async (tx) => {
      const access = await this.lockVisible(tx, taskId, userId);
      if (!(await repo.deleteOne(tx, taskId, itemId))) throw new AppError('checklist_item_not_found');
      return access;
    });
    this.publish(userId, access);
  }

  /** The whole list in a new order: `ids` must be exactly the task's items (else 409, the list changed meanwhile). */
  async reorder(userId: string, taskId: string, input: ChecklistOrderInput): Promise<ChecklistDto> {
    const ids = input.ids.map((id) => id.toLowerCase());
    const { access, rows } = await this.db.transaction(async (tx) => {
      const access = await this.lockVisible(tx, taskId, userId);
      if (!isExactOrder(await repo.listIdsByTaskId(tx, taskId), ids)) throw new AppError('checklist_order_mismatch');
      return { access, rows: await repo.reorder(tx, taskId, ids) };
    });
    this.publish(userId, access);
    return { items: rows.map(toItemDto) };
  }

  private async requireVisible(db: DbOrTx, taskId: string, userId: string): Promise<TaskAccess> {
    const access = await repo.getTaskAccess(db, taskId, userId);
    if (!access?.callerRole) throw new AppError('task_not_found');
    return access;
  }

  private async lockVisible(db: DbOrTx, taskId: string, userId: string): Promise<TaskAccess> {
    const access = await repo.lockTaskAccess(db, taskId, userId);
    if (!access?.callerRole) throw new AppError('task_not_found');
    return access;
  }

  private publish(actorId: string, access: TaskAccess): void {
    this.events.publish({
      type: 'task.detail_changed',
      teamId: access.teamId,
      actorId,
      taskId: access.taskId,
      projectId: access.projectId,
      part: 'checklist',
    });
  }
}
