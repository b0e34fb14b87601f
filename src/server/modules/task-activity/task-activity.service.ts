import { hideDependencyEntry } from '../../../domain/dependencies';
import type { ActivityListDto, PersonDto } from '../../../domain/schemas/task-detail';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/errors';
import * as repo from './task-activity.repo';

const person = (id: string | null, fullName: string | null, avatar: string | null): PersonDto | null =>
  id === null ? null : { id, fullName: fullName ?? '', avatar };

const isDependencyField = (field: string) => field === 'blocked_by' || field === 'blocking';
const isUuid = (value: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);

/** The history of a task's fields (written by TasksService.update in the transaction of each change). */
export class TaskActivityService {
  constructor(private readonly db: Db) {}

  async list(userId: string, taskId: string): Promise<ActivityListDto> {
    // The check runs beside the read; when it fails, the rows are dropped.
    const [creation, rows] = await Promise.all([
      repo.getTaskCreation(this.db, taskId, userId),
      repo.listByTaskId(this.db, taskId),
    ]);
    if (!creation?.callerRole) throw new AppError('task_not_found');
    // A dependency's other task that the reader cannot see now (its project moved to another team) loses its id and title.
    const others = rows.flatMap((r) => (isDependencyField(r.field) ? [r.newValue ?? r.oldValue ?? ''] : []));
    const hidden = await repo.hiddenTaskIds(this.db, others.filter(isUuid), userId);
    return {
      created: {
        by: person(creation.creatorId, creation.creatorName, creation.creatorAvatar),
        at: creation.createdAt.toISOString(),
      },
      activity: rows
        .map((row) => hideDependencyEntry(row, (id) => hidden.has(id)))
        .map((row) => ({
          id: row.id,
          taskId: row.taskId,
          actor: person(row.actorId, row.actorName, row.actorAvatar),
          field: row.field,
          oldValue: row.oldValue,
          newValue: row.newValue,
          oldLabel: row.oldLabel,
          newLabel: row.newLabel,
          fieldName: row.fieldName,
          createdAt: row.createdAt.toISOString(),
        })),
    };
  }
}
