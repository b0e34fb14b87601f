import { splitFullName } from '../../../domain/schemas/common';
import type { TaskDto } from '../../../domain/schemas/task';
import type { DbOrTx } from '../../db/client';
import { listCardsByIds, type TaskListRow } from './tasks.repo';

/** A task's answer from its row with the names it shows (the one mapping: the tasks service and the series' job). */
export function toTaskDto(row: TaskListRow): TaskDto {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    status: row.status,
    statusCategory: row.statusCategory,
    priority: row.priority,
    assigneeId: row.assigneeId,
    projectId: row.projectId,
    creatorId: row.creatorId,
    dueDate: row.dueDate,
    tags: row.tags,
    commentCount: row.commentCount,
    attachmentCount: row.attachmentCount,
    checklistTotal: row.checklistTotal,
    checklistDone: row.checklistDone,
    parentId: row.parentId,
    subtaskCounts: { done: row.subtaskDone, total: row.subtaskTotal },
    startDate: row.startDate,
    blockedCount: row.openBlockerCount,
    fields: row.fields,
    repeat: repeatOf(row.repeat),
    seriesId: row.seriesId,
    estimateMinutes: row.estimateMinutes,
    estimatePoints: row.estimatePoints,
    loggedMinutes: row.loggedMinutes,
    subtaskLoggedMinutes: row.subtaskLoggedMinutes,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    version: row.version,
    assignee: assigneeOf(row.assigneeId, row.assigneeName),
    projectName: row.projectName,
  };
}

/** What a card shows of its assignee (null: none, or one whose name is not readable). */
export function assigneeOf(id: string | null, fullName: string | null): TaskDto['assignee'] {
  return id && fullName !== null ? { id, fullName, firstName: splitFullName(fullName).firstName } : null;
}

/** Tasks' answers by id, as they are in the transaction (in no particular order): what a change records of them. */
export async function taskCards(db: DbOrTx, ids: readonly string[]): Promise<TaskDto[]> {
  return (await listCardsByIds(db, ids)).map(toTaskDto);
}

/**
 * `repeat` as its contract orders it: the column is jsonb, which PostgreSQL stores with its keys re-sorted (shorter
 * first), and the list answers are written as built (serializer.ts `builtExactly`), so the order is set here.
 */
export function repeatOf(r: TaskDto['repeat']): TaskDto['repeat'] {
  return r && { seriesId: r.seriesId, rule: r.rule, mode: r.mode, timezone: r.timezone, nextDate: r.nextDate, nextAt: r.nextAt };
}
