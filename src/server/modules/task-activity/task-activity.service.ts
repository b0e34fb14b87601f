import { hideDependencyEntry } from '../../../domain/dependencies';
import type { ActivityListDto, PersonDto } from '../../../domain/schemas/task-detail';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/errors';
import * as repo from './task-activity.repo';

const person = (id: string | null, fullName: string | null, avatar: string | null): PersonDto | null =>
  id === null ? null : { id, fullName: fullName ?? '', avatar };

const isDependencyField = (field: string) => field === 'blocked_by' || field === 'blocking';
const isUuid = (value: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);

/** A project move's entry with the sides the reader may not see blanked (no id, no name). */
function hideProjectEntry<
  T extends { oldValue: string | null; newValue: string | null; oldLabel: string | null; newLabel: string | null },
>(row: T, isHidden: (id: string) => boolean): T {
  const oldHidden = row.oldValue !== null && isHidden(row.oldValue);
  const newHidden = row.newValue !== null && isHidden(row.newValue);
  if (!oldHidden && !newHidden) return row;
  return {
    ...row,
    ...(oldHidden ? { oldValue: null, oldLabel: null } : {}),
    ...(newHidden ? { newValue: null, newLabel: null } : {}),
  };
}

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
    // A project the reader does not see (a guest's other projects, decision 0031) loses its id and name in a move's entry.
    const moves = rows.flatMap((r) => (r.field === 'project' ? [r.oldValue ?? '', r.newValue ?? ''] : []));
    const [hidden, hiddenProjects] = await Promise.all([
      repo.hiddenTaskIds(this.db, others.filter(isUuid), userId),
      repo.hiddenProjectIds(this.db, [...new Set(moves.filter(isUuid))], userId),
    ]);
    return {
      created: {
        by: person(creation.creatorId, creation.creatorName, creation.creatorAvatar),
        at: creation.createdAt.toISOString(),
      },
      activity: rows
        .map((row) => hideDependencyEntry(row, (id) => hidden.has(id)))
        .map((row) => (row.field === 'project' ? hideProjectEntry(row, (id) => hiddenProjects.has(id)) : row))
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
