import { type ChangeOf, detailChanged, type PersonActor } from '../../../domain/changes';
import { isExactOrder } from '../../../domain/checklist';
import { validateStartDate } from '../../../domain/dates';
import { checkParent, type HierarchyTask } from '../../../domain/hierarchy';
import type { SubtaskOrderInput } from '../../../domain/schemas/dependencies';
import { TASK_STATUSES, type TaskStatus, type TeamRole } from '../../../domain/constants';
import { canAssignTask, canDeleteTask, canMoveTaskToTeam, canRestructureTask } from '../../../domain/permissions';
import { statusKeyUnknownMessage } from '../../../domain/schemas/workflow';
import { boardColumns, isClosed, mapStatusToProject, type StatusCategory } from '../../../domain/workflow';
import type {
  BoardColumnKind,
  CreateTaskInput,
  ListTasksQuery,
  SubtaskListDto,
  TaskBoardDto,
  TaskBoardQuery,
  TaskDto,
  TaskListDto,
  TaskListItemDto,
  TaskReadDto,
  UpdateTaskInput,
} from '../../../domain/schemas/task';
import { compactTaskList } from '../../../domain/task-list';
import { localDate } from '../../../domain/task-filters';
import {
  type CustomFieldValues,
  checkFieldFilter,
  FIELD_VALUE_TEXT,
  fieldAppliesTo,
  fieldIdOfSort,
  parseFieldFilter,
  validateFieldValue,
} from '../../../domain/custom-fields';
import type { Database, Db, DbOrTx, Tx } from '../../db/client';
import { isoFromPg } from '../../db/row-statements';
import { ERROR_MESSAGES } from '../../../domain/errors';
import { AppError } from '../../lib/errors';
import type { ChangeRecorder, RecordChange } from '../../lib/changes';
import { getMemberRole, requireTeamMember } from '../../db/membership';
import { requireProjectMember } from '../../db/project-access';
import { requireWriterRole, requireTaskEdit } from '../../db/task-access';
import { liveStatuses, shareLiveStatus } from '../workflows';
import { visibleDependencyIds } from '../task-dependencies';
import { teamFields } from '../custom-fields';
import { repeatOnCreate, repeatOnSubtreeUpdate, repeatOnUpdate } from '../recurrence';
import * as repo from './tasks.repo';
import { assigneeOf, repeatOf, taskCards, toTaskDto } from './task-dto';

const column = Object.fromEntries(Object.keys(repo.listColumns).map((key, i) => [key, i])) as Record<
  keyof typeof repo.listColumns,
  number
>;

/**
 * A list item for a row of `repo.cardStatements` (an array in `listColumns` order, times as PostgreSQL's text), built
 * in one step: `toTaskDto` without the names.
 */
function taskListItemFromRow(row: unknown[]): TaskListItemDto {
  return {
    id: row[column.id] as string,
    title: row[column.title] as string,
    description: row[column.description] as string | null,
    status: row[column.status] as string,
    statusCategory: row[column.statusCategory] as TaskDto['statusCategory'],
    priority: row[column.priority] as TaskDto['priority'],
    assigneeId: row[column.assigneeId] as string | null,
    projectId: row[column.projectId] as string,
    creatorId: row[column.creatorId] as string,
    dueDate: row[column.dueDate] as string | null,
    tags: row[column.tags] as string[],
    commentCount: row[column.commentCount] as number,
    attachmentCount: row[column.attachmentCount] as number,
    checklistTotal: row[column.checklistTotal] as number,
    checklistDone: row[column.checklistDone] as number,
    parentId: row[column.parentId] as string | null,
    subtaskCounts: { done: row[column.subtaskDone] as number, total: row[column.subtaskTotal] as number },
    startDate: row[column.startDate] as string | null,
    blockedCount: row[column.openBlockerCount] as number,
    fields: row[column.fields] as TaskDto['fields'],
    repeat: repeatOf(row[column.repeat] as TaskDto['repeat']),
    seriesId: row[column.seriesId] as string | null,
    estimateMinutes: row[column.estimateMinutes] as number | null,
    estimatePoints: row[column.estimatePoints] as number | null,
    loggedMinutes: row[column.loggedMinutes] as number,
    subtaskLoggedMinutes: row[column.subtaskLoggedMinutes] as number,
    createdAt: isoFromPg(row[column.createdAt] as string),
    updatedAt: isoFromPg(row[column.updatedAt] as string),
    version: row[column.version] as number,
  };
}

/** `toTaskDto` for a row of `repo.cardStatements`: the list item with its names added (the contract has them last). */
export function taskDtoFromRow(row: unknown[]): TaskDto {
  return Object.assign(taskListItemFromRow(row), {
    assignee: assigneeOf(row[column.assigneeId] as string | null, row[column.assigneeName] as string | null),
    projectName: row[column.projectName] as string,
  });
}

/** The list answer of rows of `repo.cardStatements`: the items, and each assignee and project once (issue 42). */
function listAnswerFromRows(rows: unknown[][], counts: Pick<TaskListDto, 'counts' | 'total'>): TaskListDto {
  const people = new Map<string, NonNullable<TaskDto['assignee']>>();
  const projects = new Map<string, string>();
  const tasks = rows.map((row) => {
    const assigneeId = row[column.assigneeId] as string | null;
    if (assigneeId && !people.has(assigneeId)) {
      const assignee = assigneeOf(assigneeId, row[column.assigneeName] as string | null);
      if (assignee) people.set(assigneeId, assignee);
    }
    projects.set(row[column.projectId] as string, row[column.projectName] as string);
    return taskListItemFromRow(row);
  });
  return { tasks, people: [...people.values()], projects: [...projects].map(([id, name]) => ({ id, name })), ...counts };
}

/** Every default status's count (0 when absent), any other key's that has tasks, and their sum (unless given). */
function countsOf(counted: { status: string; n: number }[], total?: number): Pick<TaskListDto, 'counts' | 'total'> {
  const counts: TaskListDto['counts'] = Object.fromEntries(TASK_STATUSES.map((s) => [s, 0])) as Record<TaskStatus, number>;
  for (const c of counted) counts[c.status] = Number(c.n);
  return { counts, total: total ?? Object.values(counts).reduce((a, b) => a + b, 0) };
}

/**
 * Holds the project's live status `key` for the transaction (workflows `shareLiveStatus`), or 400
 * `status_key_unknown` naming the project's keys. After the task's own row: a delete of the status locks its tasks
 * first, then the status, so the two wait in one order.
 */
async function requireStatus(db: DbOrTx, projectId: string, key: string): Promise<void> {
  if (await shareLiveStatus(db, projectId, key)) return;
  const keys = (await liveStatuses(db, projectId)).map((s) => s.key);
  throw new AppError('status_key_unknown', { fields: { status: statusKeyUnknownMessage(key, keys) } });
}

/**
 * The board's columns from the rows of `repo.boardStatements.statuses` (the workflows it can show): their kind and
 * order (domain `boardColumns`), the answer's `workflows`, the counters' counts per column, which columns a filter can
 * reach, and the answer itself. For one project (`projectId`), no row means no visible project: 404.
 */
function boardShape(rows: unknown[][], projectId?: string) {
  if (projectId && rows.length === 0) throw new AppError('project_not_found');
  const workflows: TaskBoardDto['workflows'] = [];
  const statuses = rows.map(repo.boardStatusFromRow);
  for (const { projectId: id, status } of statuses) {
    const last = workflows.at(-1);
    if (last?.projectId === id) last.statuses.push(status);
    else workflows.push({ projectId: id, statuses: [status] });
  }
  const columns = boardColumns(workflows.map((w) => w.statuses));
  const kind: BoardColumnKind = columns[0]?.kind ?? 'status';
  const order = columns.map((c) => (c.kind === 'status' ? c.key : c.category));
  const columnOf = (s: { key: string; category: StatusCategory }) => (kind === 'status' ? s.key : s.category);
  return {
    kind,
    order,
    /** The counters' figure per column (each status row carries its key's sum). */
    counters: statuses.map(({ status, n }) => ({ column: columnOf(status), n })),
    /** The columns the filters can reach: a status or category filter leaves only the columns holding it. */
    columnsFor(f: Pick<repo.TaskFilters, 'status' | 'category'>): repo.BoardColumnFilter[] {
      const reachable = order.filter((id) =>
        statuses.some(
          ({ status: s }) =>
            columnOf(s) === id && (!f.status || s.key === f.status) && (!f.category || s.category === f.category),
        ),
      );
      return reachable.map((id) => (kind === 'status' ? { status: id } : { category: id as StatusCategory }));
    },
    /** The answer: cards into their columns (newest first as read), the counts summed per column. */
    answer(cards: TaskDto[], counted: { column: string; n: number }[]): TaskBoardDto {
      const byColumn: Record<string, TaskDto[]> = Object.fromEntries(order.map((id) => [id, []]));
      for (const card of cards) byColumn[kind === 'status' ? card.status : card.statusCategory]?.push(card);
      const counts: Record<string, number> = Object.fromEntries(order.map((id) => [id, 0]));
      let total = 0;
      for (const { column, n } of counted) {
        const value = Number(n);
        total += value;
        if (column in counts) counts[column]! += value;
      }
      return { columnKind: kind, order, columns: byColumn, counts, total, workflows };
    },
  };
}

/**
 * 400 unless `task` may be a sub-task of `parent` (domain hierarchy.ts `checkParent`, with the parent's ancestors and
 * the task's subtree height, one recursive statement each). The project's hierarchy lock first: two re-parentings that
 * lock no row in common (one under a chain's bottom, one of the chain's top under another) could each pass the depth
 * rule and together make a chain longer than the limit.
 */
async function requireParentRule(db: DbOrTx, task: { id?: string; projectId: string }, parent: HierarchyTask | null) {
  if (parent === null) return;
  await repo.lockHierarchy(db, parent.projectId);
  const [parentAncestorIds, subtreeHeight] = await Promise.all([
    repo.ancestorIds(db, parent.id),
    task.id === undefined ? 1 : repo.subtreeHeight(db, task.id),
  ]);
  const result = checkParent({ task, parent, parentAncestorIds, subtreeHeight });
  if (!result.ok) throw new AppError(result.reason, { fields: { parentId: ERROR_MESSAGES[result.reason] } });
}

/** 400 on the field startDate when the start is after the due date (domain dates.ts `validateStartDate`). */
function requireStartDate(startDate: string | null, dueDate: string | null): void {
  const result = validateStartDate(startDate, dueDate);
  if (!result.ok) throw new AppError(result.reason, { fields: { startDate: ERROR_MESSAGES[result.reason] } });
}

/**
 * The sub-tasks an edit of their top task writes, each with its new status (top-down, as locked): moved with it
 * (`move`: each status mapped into the workflow `statuses` by mapStatusToProject, as the task's own), and with
 * `complete` each open one (neither completed nor canceled) in the workflow's first completed status. Without either,
 * none.
 */
function subtreeStatuses(
  subtree: readonly repo.SubtreeRow[],
  statuses: readonly { key: string; category: StatusCategory; position: number }[],
  how: { move: boolean; complete: boolean },
): { row: repo.SubtreeRow; status: string }[] {
  const completed = how.complete ? mapStatusToProject({ category: 'completed' }, statuses) : undefined;
  return subtree.flatMap((row) => {
    if (completed && !isClosed(row.statusCategory)) return [{ row, status: completed.key }];
    if (!how.move) return [];
    return [{ row, status: mapStatusToProject({ key: row.status, category: row.statusCategory }, statuses)?.key ?? row.status }];
  });
}

/** 400 `custom_field_invalid`, the message naming the field (errors.ts `errorBody` takes the first field's message). */
const fieldValueInvalid = (message: string) => new AppError('custom_field_invalid', { fields: { fields: message } });
const fieldFilterInvalid = (key: 'cf' | 'sort', message?: string) =>
  new AppError('custom_field_filter_invalid', { fields: { [key]: message ?? ERROR_MESSAGES.custom_field_filter_invalid } });

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * `fields` of a create or an edit applied to `current` (decision 0026): each named field must be one of the team's
 * (read once, held `for share` to the end of the transaction: an option removed or the field archived meanwhile waits
 * for this write, then clears what it wrote), not archived, for the task's project, and its value valid for its type
 * (domain `validateFieldValue`; a person an active member of the team); a cleared value leaves the map. 400
 * `custom_field_invalid` naming the field otherwise.
 */
async function applyFieldValues(
  db: DbOrTx,
  task: { teamId: string; projectId: string },
  input: Record<string, unknown>,
  current: CustomFieldValues,
): Promise<CustomFieldValues> {
  const entries = Object.entries(input).map(([id, value]) => [id.toLowerCase(), value] as const);
  const defs = new Map((await teamFields(db, task.teamId, { share: true })).map((d) => [d.id, d]));
  // The people named (a person field or two in an edit, each one look-up).
  const members = new Set<string>();
  for (const [id, value] of entries) {
    if (defs.get(id)?.type !== 'person' || typeof value !== 'string' || !UUID.test(value)) continue;
    if (await getMemberRole(db, task.teamId, value.toLowerCase())) members.add(value.toLowerCase());
  }
  const next: CustomFieldValues = { ...current };
  for (const [id, value] of entries) {
    const field = defs.get(id);
    if (!field) throw fieldValueInvalid(FIELD_VALUE_TEXT.unknown);
    if (field.archived) throw fieldValueInvalid(FIELD_VALUE_TEXT.archived(field.name));
    if (!fieldAppliesTo(field, task.projectId)) throw fieldValueInvalid(FIELD_VALUE_TEXT.notHere(field.name));
    const result = validateFieldValue(field, value, (userId) => members.has(userId));
    if (!result.ok) throw fieldValueInvalid(result.message);
    if (result.value === null) delete next[id];
    else next[id] = result.value;
  }
  return next;
}

const sameValues = (a: CustomFieldValues, b: CustomFieldValues) =>
  Object.keys(a).length === Object.keys(b).length &&
  Object.entries(a).every(([id, value]) => JSON.stringify(value) === JSON.stringify(b[id]));

type TaskCreatedChange = ChangeOf<'task.created'>;

const assigneeNotMember = () =>
  new AppError('assignee_not_member', { fields: { assigneeId: ERROR_MESSAGES.assignee_not_member } });

export class TasksService {
  constructor(
    private readonly db: Db,
    private readonly changes: ChangeRecorder,
    /** Where the card statements run (db/row-statements.ts). */
    private readonly database: Database,
  ) {}

  async list(userId: string, query: ListTasksQuery): Promise<TaskListDto> {
    if (!repo.hasTaskFilters(query) && repo.isDefaultOrder(query)) {
      const statement = repo.cardStatements.page[query.projectId ? 'project' : 'all'][query.status ? 'status' : 'all'];
      const [rows, counts] = await Promise.all([
        statement.run(this.database, {
          userId,
          projectId: query.projectId,
          status: query.status,
          limit: query.limit ?? repo.LIST_PAGE_DEFAULT,
          offset: query.offset ?? 0,
        }),
        this.countCards(userId, query),
      ]);
      return listAnswerFromRows(rows, counts);
    }
    const filters: repo.TaskFilters = {
      ...query,
      ...(await this.fieldQuery(userId, query)),
      today: query.today ?? localDate(new Date()),
    };
    // The project check runs beside the reads; when it fails, their rows are dropped.
    const [, , rows, counted] = await Promise.all([
      query.projectId && this.requireVisibleProject(this.db, query.projectId, userId),
      query.teamId && requireTeamMember(this.db, query.teamId, userId, 'team_not_found'),
      repo.listVisible(this.db, userId, filters),
      repo.countVisibleByStatus(this.db, userId, filters),
    ]);
    return compactTaskList({ tasks: rows.map(toTaskDto), ...countsOf(counted) });
  }

  /**
   * The board's first screen in one call (decision 0024): its columns (boardColumns of the workflows it can show: one
   * project's statuses, the default four, or the categories in use), each column's newest tasks, every exact count,
   * and those workflows.
   */
  async board(userId: string, query: TaskBoardQuery): Promise<TaskBoardDto> {
    const { limit, ...rest } = query;
    const { projectId } = query;
    const { statuses, project, categories } = repo.boardStatements;
    const readStatuses = () => (projectId ? statuses.project : statuses.all).run(this.database, { userId, projectId });
    if (!repo.hasTaskFilters(rest) && !rest.status) {
      // No filters: the cards by a row statement, the counts from the counters (the statuses' read carries them).
      if (projectId) {
        const [found, rows] = await Promise.all([readStatuses(), project.run(this.database, { userId, projectId, limit })]);
        const board = boardShape(found, projectId);
        return board.answer(rows.map(taskDtoFromRow), board.counters);
      }
      // All Projects: the workflows decide the read, so it follows the statuses' (not beside it: today's statement for a
      // caller who sees a small share of the tasks walks far, all for nothing when the workflows differ).
      const board = boardShape(await readStatuses());
      const rows = await (board.kind === 'status'
        ? repo.cardStatements.board.all
        : categories(board.order as StatusCategory[])
      ).run(this.database, { userId, limit });
      return board.answer(rows.map(taskDtoFromRow), board.counters);
    }
    const [found, , fieldQuery] = await Promise.all([
      readStatuses(),
      query.teamId && requireTeamMember(this.db, query.teamId, userId, 'team_not_found'),
      this.fieldQuery(userId, rest),
    ]);
    const filters: repo.TaskFilters = { ...rest, ...fieldQuery, today: query.today ?? localDate(new Date()) };
    const board = boardShape(found, projectId);
    const [rows, counted] = await Promise.all([
      repo.listBoard(this.db, userId, filters, board.columnsFor(filters), limit),
      repo.countBoardColumns(this.db, userId, filters, board.kind),
    ]);
    return board.answer(rows.map(toTaskDto), counted);
  }

  /**
   * The custom field filters (`cf`) and sort (`sort=field:<id>`) of a list or board query, each checked against its
   * field (one read of the fields named, only when there are some): 400 `custom_field_filter_invalid` when a filter does
   * not parse, names a field that is not one of the caller's teams', or does not fit its field (domain
   * `checkFieldFilter`, naming the field), or the sort names such a field.
   */
  private async fieldQuery(
    userId: string,
    query: { cf?: string[]; sort?: string },
  ): Promise<Pick<repo.TaskFilters, 'fieldFilters' | 'fieldSort'>> {
    const sortId = fieldIdOfSort(query.sort)?.toLowerCase() ?? null;
    const texts = query.cf ?? [];
    if (texts.length === 0 && sortId === null) return {};
    const parsed = texts.map((text) => {
      const filter = parseFieldFilter(text);
      if (!filter) throw fieldFilterInvalid('cf');
      return filter;
    });
    const ids = new Set(parsed.map((f) => f.fieldId));
    if (sortId !== null) ids.add(sortId);
    const fields = new Map((await repo.visibleFields(this.db, userId, [...ids])).map((f) => [f.id, f]));
    const fieldFilters = parsed.map((filter) => {
      const field = fields.get(filter.fieldId);
      if (!field) throw fieldFilterInvalid('cf', FIELD_VALUE_TEXT.unknown);
      const problem = checkFieldFilter(field, filter);
      if (problem) throw fieldFilterInvalid('cf', problem);
      return { filter, type: field.type };
    });
    if (sortId === null) return { fieldFilters };
    const fieldSort = fields.get(sortId);
    if (!fieldSort) throw fieldFilterInvalid('sort', FIELD_VALUE_TEXT.unknown);
    return { fieldFilters, fieldSort };
  }

  /**
   * The counts beside the card statements (no task filters), from the counters: of one project, which is also its
   * visibility check (404 for a stranger, whatever the cards statement found), or of every visible project.
   */
  private async countCards(userId: string, query: { projectId?: string; status?: string }) {
    const rows = await (query.projectId ? repo.countStatements.project : repo.countStatements.all).run(this.database, {
      userId,
      projectId: query.projectId,
    });
    if (query.projectId && rows[0]?.[0] !== true) throw new AppError('project_not_found');
    // Every key of the counters (one row each); a key without tasks (its counter rows left at 0) is not listed.
    const counted = rows.flatMap(([, status, n]) =>
      status !== null && Number(n) > 0 ? [{ status: status as string, n: Number(n) }] : [],
    );
    return countsOf(query.status ? counted.filter((c) => c.status === query.status) : counted);
  }

  /** The task page's read: the task and the ids of its dependencies the caller may see (read beside it, dropped on 404). */
  async get(userId: string, id: string): Promise<TaskReadDto> {
    const [row, dependencies] = await Promise.all([repo.getOneById(this.db, id), visibleDependencyIds(this.db, id, userId)]);
    if (!row) throw new AppError('task_not_found');
    await requireProjectMember(this.db, row.teamId, row.projectId, userId, 'task_not_found');
    return { ...toTaskDto(row), ...dependencies };
  }

  async create(actor: PersonActor, input: CreateTaskInput): Promise<TaskDto> {
    return this.changes.run(this.db, actor, (tx, record) => this.createIn(tx, record, actor.userId, input));
  }

  /**
   * `create` in a transaction the caller opened (issue 40: a mail to a project's intake address, a form's submission):
   * the task is `userId`'s, who must be an active member of the project's team; the change goes with the run's actor
   * and `submitted` (the history's first entry).
   */
  async createIn(
    tx: Tx,
    record: RecordChange,
    userId: string,
    input: CreateTaskInput,
    submitted?: TaskCreatedChange['submitted'],
  ): Promise<TaskDto> {
    // The check reads what it must before the insert: the insert's trigger adds to the project's counters (migrations
    // 0003, 0004) and locks a counter row until the commit, so it goes as late as it can; a project deleted in between
    // fails the insert's foreign key (400).
    // Without a parent, the status is held by the access check's own statement (nothing is locked before it); with one,
    // after the parent's row, as every task write takes it (requireStatus).
    const statusFirst = input.parentId === null;
    const access = await this.requireVisibleProject(
      tx,
      input.projectId,
      userId,
      input.assigneeId,
      statusFirst ? input.status : undefined,
      // A viewer or a guest creates no task (issue 41).
      true,
    );
    const parent = input.parentId === null ? null : await this.lockVisibleParent(tx, input.parentId, userId);
    await requireParentRule(tx, { projectId: input.projectId }, parent);
    requireStartDate(input.startDate, input.dueDate);
    if (!statusFirst || !access.statusHeld) await requireStatus(tx, input.projectId, input.status);
    const fields =
      input.fields && Object.keys(input.fields).length > 0
        ? await applyFieldValues(tx, { teamId: access.teamId, projectId: input.projectId }, input.fields, {})
        : {};
    const created = await repo.createOne(tx, {
      title: input.title,
      description: input.description,
      status: input.status,
      priority: input.priority,
      assigneeId: input.assigneeId,
      projectId: input.projectId,
      creatorId: userId,
      dueDate: input.dueDate,
      tags: input.tags,
      parentId: parent?.id ?? null,
      // A new sub-task goes last among its siblings (the parent's lock queues siblings added at once).
      subtaskPosition: parent ? await repo.nextSubtaskPosition(tx, parent.id) : null,
      startDate: input.startDate,
      estimateMinutes: input.estimateMinutes ?? null,
      estimatePoints: input.estimatePoints ?? null,
      // Only with values: the insert of a task without any is the one it always was.
      ...(Object.keys(fields).length > 0 && { fields }),
    });
    // The answer is built from what the check already read: no second look-up.
    // `repeat`: the new task starts a series and carries it (decision 0027).
    const carried = await repeatOnCreate(tx, { task: created, teamId: access.teamId, userId, input: input.repeat });
    const task = toTaskDto({ ...carried, projectName: access.projectName, assigneeName: access.assigneeName });
    await record({
      kind: 'task.created',
      teamId: access.teamId,
      task,
      teamHasWebhooks: access.hasWebhooks,
      ...(submitted && { submitted }),
    });
    return task;
  }

  async update(actor: PersonActor, id: string, input: UpdateTaskInput): Promise<TaskDto> {
    const { userId } = actor;
    // `repeat` is the series' (decision 0027), never a column written as given.
    const { version, completeSubtasks, fields: fieldInput, repeat: repeatInput, ...changes } = input;
    return this.changes.run(this.db, actor, async (tx, record) => {
      const found = await this.lockVisible(tx, id, userId);
      const before = found.task;
      this.requireEditRights(found, userId, input);
      let teamId = found.teamId;
      let destinationRole: TeamRole | null = found.callerRole;
      const projectChanged = changes.projectId !== undefined && changes.projectId !== before.projectId;
      // A sub-task moved to another project leaves its parent, unless the body names one there.
      if (projectChanged && changes.parentId === undefined && before.parentId !== null) changes.parentId = null;
      const parentId = changes.parentId === undefined ? before.parentId : changes.parentId;
      const parentChanged = parentId !== before.parentId;
      // The parent's visibility is read before any rule: a 400 never tells a stranger's task exists.
      const parent =
        parentId !== null && (parentChanged || projectChanged) ? await this.lockVisibleParent(tx, parentId, userId) : null;
      const assigneeId = changes.assigneeId === undefined ? before.assigneeId : changes.assigneeId;
      if (projectChanged) {
        // The new project must be visible to the caller, and the assignee a member of its team.
        const destination = await this.requireVisibleProject(tx, changes.projectId!, userId, assigneeId);
        // Into another team, the task leaves this one: that takes the right to delete it here.
        if (destination.teamId !== teamId && !canMoveTaskToTeam(found.callerRole, destination.callerRole, userId, before)) {
          throw new AppError('task_move_denied');
        }
        teamId = destination.teamId;
        destinationRole = destination.callerRole;
      } else if (assigneeId && assigneeId !== before.assigneeId) {
        await this.requireAssignee(tx, teamId, assigneeId);
      }
      if (parent) {
        await requireParentRule(tx, { id, projectId: projectChanged ? changes.projectId! : before.projectId }, parent);
      }
      if (changes.startDate !== undefined || changes.dueDate !== undefined) {
        requireStartDate(
          changes.startDate === undefined ? before.startDate : changes.startDate,
          changes.dueDate === undefined ? before.dueDate : changes.dueDate,
        );
      }
      const projectId = projectChanged ? changes.projectId! : before.projectId;
      // The workflow the task ends in: it maps the moved tasks' statuses, and tells a completion.
      const statuses =
        projectChanged || (completeSubtasks && changes.status !== undefined) ? await liveStatuses(tx, projectId) : [];
      if (projectChanged && (changes.status === undefined || changes.status === before.status)) {
        // Unless the body names another status, the task takes the one mapStatusToProject gives it there (its own key
        // when the project has it, in the same category); the answer and the history say the new key.
        const target = mapStatusToProject({ key: before.status, category: before.statusCategory }, statuses);
        changes.status = target?.key ?? before.status;
      }
      // Its subtree moves with it, and with `completeSubtasks` and a completed status its open tasks are completed
      // (the flag is ignored with any other status). Locked after the task, before any status.
      const complete = completeSubtasks === true && statuses.find((s) => s.key === changes.status)?.category === 'completed';
      const subtree = projectChanged || complete ? await repo.lockSubtree(tx, id) : [];
      if (teamId !== found.teamId) await this.requireSubtreeMove(tx, subtree, { userId, teamId, found, destinationRole });
      const subtreeWrites = subtreeStatuses(subtree, statuses, { move: projectChanged, complete });
      const newStatus =
        changes.status !== undefined && (projectChanged || changes.status !== before.status) ? changes.status : null;
      if (newStatus !== null) await requireStatus(tx, projectId, newStatus);
      for (const key of new Set(subtreeWrites.map((w) => w.status))) {
        if (key !== newStatus) await requireStatus(tx, projectId, key);
      }
      if (version !== undefined && version !== before.version) throw new AppError('stale_edit');
      const values: repo.TaskChanges = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
      if (parentChanged) values.subtaskPosition = parentId === null ? null : await repo.nextSubtaskPosition(tx, parentId);
      // Custom field values (decision 0026), written in the same UPDATE: the named ones merged into the stored map;
      // into another team the task leaves its old team's fields behind (the map starts empty there).
      const teamChanged = teamId !== found.teamId;
      const keptValues = teamChanged ? {} : before.fields;
      const fields = fieldInput ? await applyFieldValues(tx, { teamId, projectId }, fieldInput, keptValues) : keptValues;
      const fieldsChanged = !sameValues(fields, before.fields);
      if (fieldsChanged) values.fields = fields;
      const updated = await repo.updateOne(tx, id, values, version);
      if (!updated) throw new AppError('stale_edit');
      // The series (decision 0027): `repeat` starts, changes or stops it; completing a 'When completed' task makes the next.
      const after = await repeatOnUpdate(tx, record, {
        before,
        after: updated,
        teamId,
        userId,
        input: repeatInput,
        cards: taskCards,
      });
      const repeatKeys = repeatInput !== undefined || before.repeat?.seriesId !== after.repeat?.seriesId ? ['repeat'] : [];
      // The subtree after the task, top-down, one statement a level (each sub-task's parent is there first).
      for (let depth = 1; subtreeWrites.some((w) => w.row.depth >= depth); depth++) {
        const level = subtreeWrites.filter((w) => w.row.depth === depth).map((w) => ({ id: w.row.id, status: w.status }));
        await repo.writeSubtreeLevel(tx, projectId, level, { clearFields: teamChanged });
      }
      // Sub-tasks that carry a series, written with it: completed, a 'When completed' one makes its next (decision 0027).
      const subtreeRepeats = await repeatOnSubtreeUpdate(tx, record, {
        written: subtreeWrites.map((w) => w.row),
        teamId,
        cards: taskCards,
      });
      // The names read with the lock still hold unless the project or the assignee changed; then the answer is read
      // again (membership was checked above, in this transaction), as it is after its sub-tasks changed (the counts of
      // migration 0013's triggers, which ran with their statements).
      const current =
        projectChanged || after.assigneeId !== before.assigneeId || subtreeWrites.length > 0
          ? (await repo.getOneById(tx, id))!
          : { ...after, projectName: found.projectName, assigneeName: found.assigneeName };
      const dto = toTaskDto(current);
      await record({
        kind: 'task.updated',
        teamId,
        previousTeamId: found.teamId,
        before: toTaskDto({ ...before, projectName: found.projectName, assigneeName: found.assigneeName }),
        after: dto,
        keys: [
          ...(fieldInput !== undefined || fieldsChanged ? [...Object.keys(changes), 'fields'] : Object.keys(changes)),
          ...repeatKeys,
        ],
      });
      // Each sub-task written is a change of its own (activity, webhooks and realtime see every task), top-down.
      const writtenIds = subtreeWrites.map((w) => w.row.id);
      const written = new Map((await repo.listCardsByIds(tx, writtenIds)).map((r) => [r.id, r]));
      for (const { row } of subtreeWrites) {
        await record({
          kind: 'task.updated',
          teamId,
          previousTeamId: found.teamId,
          before: toTaskDto(row),
          after: toTaskDto(written.get(row.id)!),
          keys: [
            ...(projectChanged ? ['projectId', 'status'] : ['status']),
            ...(teamChanged && Object.keys(row.fields).length > 0 ? ['fields'] : []),
            ...(subtreeRepeats.has(row.id) ? ['repeat'] : []),
          ],
        });
      }
      return dto;
    });
  }

  async move(actor: PersonActor, id: string, status: string): Promise<TaskDto> {
    return this.update(actor, id, { status });
  }

  async remove(actor: PersonActor, id: string): Promise<void> {
    await this.changes.run(this.db, actor, async (tx, record) => {
      const found = await this.lockVisible(tx, id, actor.userId);
      if (!canDeleteTask(found.callerRole, actor.userId, found.task)) throw new AppError('task_delete_denied');
      // Its sub-tasks go with it (the foreign key's cascade): each is a deletion the caller must have the right to, and
      // each is recorded (activity, webhooks and realtime see every task), deepest last.
      const subtree = await repo.lockSubtree(tx, id);
      if (subtree.some((t) => !canDeleteTask(found.callerRole, actor.userId, t))) throw new AppError('task_delete_denied');
      await repo.deleteOne(tx, id);
      const task = toTaskDto({ ...found.task, projectName: found.projectName, assigneeName: found.assigneeName });
      await record({ kind: 'task.deleted', teamId: found.teamId, task });
      for (const sub of subtree) await record({ kind: 'task.deleted', teamId: found.teamId, task: toTaskDto(sub) });
    });
  }

  /** A task's sub-tasks in their order; 404 when the caller may not see the task. */
  async subtasks(userId: string, id: string): Promise<SubtaskListDto> {
    const row = await repo.getOneById(this.db, id);
    if (!row) throw new AppError('task_not_found');
    await requireProjectMember(this.db, row.teamId, row.projectId, userId, 'task_not_found');
    return { tasks: (await repo.listSubtasks(this.db, id)).map(toTaskDto) };
  }

  /**
   * The sub-tasks in a new order: `ids` must be exactly the task's sub-tasks (else 409, they changed meanwhile). Rights
   * as editing the task (any member of its team); open pages refresh (`task.detail_changed`, part 'subtasks').
   */
  async reorderSubtasks(actor: PersonActor, id: string, input: SubtaskOrderInput): Promise<SubtaskListDto> {
    const ids = input.ids.map((x) => x.toLowerCase());
    return this.changes.run(this.db, actor, async (tx, record) => {
      const found = await this.lockVisible(tx, id, actor.userId);
      requireTaskEdit({ callerRole: found.callerRole, assigneeId: found.task.assigneeId }, actor.userId);
      if (!isExactOrder(await repo.listSubtaskIds(tx, id), ids)) throw new AppError('subtask_order_mismatch');
      await repo.reorderSubtasks(tx, id, ids);
      await record(detailChanged({ id, teamId: found.teamId, projectId: found.task.projectId }, 'subtasks'));
      return { tasks: (await repo.listSubtasks(tx, id)).map(toTaskDto) };
    });
  }

  /**
   * A subtree moving into another team with its top task: the caller must have the right to move each of its tasks
   * there (as the top task's own move: the right to delete it in its team; 403 `task_move_denied` otherwise, so a
   * member cannot take others' tasks along under a task of their own), and each assignee must be a member there (400).
   */
  private async requireSubtreeMove(
    db: DbOrTx,
    subtree: readonly repo.SubtreeRow[],
    move: { userId: string; teamId: string; found: { callerRole: TeamRole }; destinationRole: TeamRole | null },
  ): Promise<void> {
    if (subtree.some((t) => !canMoveTaskToTeam(move.found.callerRole, move.destinationRole, move.userId, t))) {
      throw new AppError('task_move_denied');
    }
    for (const assigneeId of new Set(subtree.flatMap((t) => (t.assigneeId ? [t.assigneeId] : [])))) {
      if (!(await getMemberRole(db, move.teamId, assigneeId))) throw new AppError('assignee_not_member');
    }
  }

  /**
   * 403 unless the caller may make this edit (issue 41): a viewer changes no task; a guest only one assigned to them, and
   * then neither its project, its parent, its series nor its sub-tasks (`completeSubtasks`), and it stays assigned to
   * them (domain canEditTask, canRestructureTask, canAssignTask).
   */
  private requireEditRights(
    found: { callerRole: TeamRole; task: { assigneeId: string | null; projectId: string; parentId: string | null } },
    userId: string,
    changes: Pick<UpdateTaskInput, 'projectId' | 'parentId' | 'assigneeId' | 'repeat' | 'completeSubtasks'>,
  ): void {
    const { callerRole: role, task } = found;
    requireTaskEdit({ callerRole: role, assigneeId: task.assigneeId }, userId);
    const differs = (given: string | null | undefined, current: string | null) =>
      given !== undefined && (given?.toLowerCase() ?? null) !== current;
    const moves =
      differs(changes.projectId, task.projectId) ||
      differs(changes.parentId, task.parentId) ||
      changes.repeat !== undefined ||
      changes.completeSubtasks === true;
    if (moves && !canRestructureTask(role)) throw new AppError('task_edit_denied');
    const assigneeId = changes.assigneeId?.toLowerCase() ?? null;
    if (differs(changes.assigneeId, task.assigneeId) && !canAssignTask(role, userId, assigneeId)) {
      throw new AppError('task_edit_denied');
    }
  }

  /** The parent a task is being given, locked, or 404 `subtask_parent_not_found` when the caller may not see it. */
  private async lockVisibleParent(db: DbOrTx, parentId: string, userId: string): Promise<HierarchyTask> {
    const parent = await repo.lockParent(db, parentId, userId);
    if (!parent?.callerRole) throw new AppError('subtask_parent_not_found');
    return { id: parent.id, projectId: parent.projectId };
  }

  /**
   * The project's team and name (and the assignee's name), or 404 when the caller is not an active
   * member of its team; 400 when `assigneeId` is given and is not a member there.
   */
  private async requireVisibleProject(
    db: DbOrTx,
    projectId: string,
    userId: string,
    assigneeId: string | null = null,
    statusKey?: string,
    /** A creation: a viewer or a guest is refused (403) before anything in the body is judged. */
    writer = false,
  ) {
    const access = await repo.getProjectAccess(db, projectId, userId, assigneeId, statusKey);
    if (!access?.callerRole) throw new AppError('project_not_found');
    if (writer) requireWriterRole(access.callerRole);
    if (assigneeId && !access.assigneeRole) throw assigneeNotMember();
    return access;
  }

  private async requireAssignee(db: DbOrTx, teamId: string, assigneeId: string): Promise<void> {
    if (!(await getMemberRole(db, teamId, assigneeId))) throw assigneeNotMember();
  }

  /** The locked task, its team and the caller's role there; 404 when the caller is not a member. */
  private async lockVisible(db: DbOrTx, id: string, userId: string) {
    const found = await repo.lockOneById(db, id, userId);
    if (!found?.callerRole) throw new AppError('task_not_found');
    return { ...found, callerRole: found.callerRole };
  }
}
