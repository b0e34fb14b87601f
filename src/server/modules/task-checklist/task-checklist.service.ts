import { detailChanged, type PersonActor } from '../../../domain/changes';
import { isChecklistFull, isExactOrder } from '../../../domain/checklist';
import type {
  ChecklistDto,
  ChecklistItemDto,
  ChecklistItemInput,
  ChecklistItemUpdate,
  ChecklistOrderInput,
} from '../../../domain/schemas/task-detail';
import type { Db, Tx } from '../../db/client';
import { requireEditableTask, requireVisibleTask, TASK_WRITE_LOCK, type TaskAccess } from '../../db/task-access';
import { AppError } from '../../lib/errors';
import type { ChangeRecorder } from '../../lib/changes';
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

/** The checklist of a task: any active member of the task's team reads and edits it. */
export class TaskChecklistService {
  constructor(
    private readonly db: Db,
    private readonly changes: ChangeRecorder,
  ) {}

  async list(userId: string, taskId: string): Promise<ChecklistDto> {
    // The check runs beside the read; when it fails, the rows are dropped.
    const [, rows] = await Promise.all([requireVisibleTask(this.db, taskId, userId), repo.listByTaskId(this.db, taskId)]);
    return { items: rows.map(toItemDto) };
  }

  async add(actor: PersonActor, taskId: string, input: ChecklistItemInput): Promise<ChecklistItemDto> {
    return this.change(actor, taskId, async (tx, access) => {
      if (isChecklistFull(access.checklistTotal)) throw new AppError('checklist_full');
      return toItemDto(await repo.createOne(tx, taskId, input.title));
    });
  }

  async update(actor: PersonActor, taskId: string, itemId: string, input: ChecklistItemUpdate): Promise<ChecklistItemDto> {
    return this.change(actor, taskId, async (tx) => {
      const row = await repo.updateOne(tx, taskId, itemId, { title: input.title, done: input.done });
      if (!row) throw new AppError('checklist_item_not_found');
      return toItemDto(row);
    });
  }

  async remove(actor: PersonActor, taskId: string, itemId: string): Promise<void> {
    await this.change(actor, taskId, async (tx) => {
      if (!(await repo.deleteOne(tx, taskId, itemId))) throw new AppError('checklist_item_not_found');
    });
  }

  /** The whole list in a new order: `ids` must be exactly the task's items (else 409, the list changed meanwhile). */
  async reorder(actor: PersonActor, taskId: string, input: ChecklistOrderInput): Promise<ChecklistDto> {
    const ids = input.ids.map((id) => id.toLowerCase());
    return this.change(actor, taskId, async (tx) => {
      if (!isExactOrder(await repo.listIdsByTaskId(tx, taskId), ids)) throw new AppError('checklist_order_mismatch');
      return { items: (await repo.reorder(tx, taskId, ids)).map(toItemDto) };
    });
  }

  /**
   * A checklist write: the task locked and visible to the caller (else 404), and the change recorded with it.
   * Every checklist write locks the task first: writes to one checklist run one at a time (the limit and a reorder's
   * list hold), and all of them lock the task before its items, as deleting the task does; an item ticked first and
   * its task locked by the trigger afterwards could deadlock with a reorder or a task deletion.
   */
  private change<T>(actor: PersonActor, taskId: string, work: (tx: Tx, access: TaskAccess) => Promise<T>): Promise<T> {
    return this.changes.run(this.db, actor, async (tx, record) => {
      // 403 for a viewer, and for a guest on a task not assigned to them (issue 41).
      const access = await requireEditableTask(tx, taskId, actor.userId, TASK_WRITE_LOCK);
      const result = await work(tx, access);
      await record(detailChanged(access, 'checklist'));
      return result;
    });
  }
}
