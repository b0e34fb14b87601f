/**
 * The board's pure rules (decision 0024, "The board"): which columns it draws from the board answer, which lane a card
 * is in when the board is grouped, and what a drop changes (the column's status, the lane's field), so the components
 * only draw and the rules are tested on their own.
 */
import { TASK_PRIORITIES, TASK_PRIORITY_LABELS, type TaskPriority } from '../../../../domain/constants';
import type { TaskDto } from '../../../../domain/schemas/task';
import type { StatusDto } from '../../../../domain/schemas/workflow';
import {
  type BoardColumn,
  boardColumns,
  DEFAULT_STATUSES,
  isStatusCategory,
  mapStatusToProject,
  STATUS_CATEGORY_COLORS,
  STATUS_CATEGORY_LABELS,
  type StatusCategory,
} from '../../../../domain/workflow';

/** The statuses of each project the board can show (the board answer's `workflows`). */
export type BoardWorkflows = readonly { projectId: string; statuses: readonly StatusDto[] }[];

/** What the board draws its columns from: the board answer's shape (schemas/task.ts `taskBoardDto`). */
export interface BoardShape {
  columnKind: 'status' | 'category';
  order: readonly string[];
  workflows: BoardWorkflows;
}

/** A column as the board draws it: `id` is a status key ('status') or a category ('category'). */
export type DrawnColumn = BoardColumn & { id: string };

/** Which column (query, drop target) a column is: a status key or a category. */
export interface ColumnRef {
  kind: 'status' | 'category';
  id: string;
}

const withId = (c: BoardColumn): DrawnColumn => ({ ...c, id: c.kind === 'status' ? c.key : c.category });

/**
 * The columns to draw, in the answer's `order`: each id described by `boardColumns(workflows)` (a status's name,
 * colour and WIP limit; a category's label and colour). An id the workflows do not describe (a status deleted since)
 * is drawn by its key, under the category it names or 'started'.
 */
export function columnsOf(shape: BoardShape): DrawnColumn[] {
  const known = new Map(
    boardColumns(shape.workflows.map((w) => w.statuses))
      .map(withId)
      .map((c) => [`${c.kind}:${c.id}`, c]),
  );
  return shape.order.map((id) => {
    const found = known.get(`${shape.columnKind}:${id}`);
    if (found) return found;
    if (shape.columnKind === 'category' && isStatusCategory(id)) {
      return { kind: 'category', id, category: id, name: STATUS_CATEGORY_LABELS[id], color: STATUS_CATEGORY_COLORS[id] };
    }
    return { kind: 'status', id, key: id, name: id, category: 'started', color: '#64748b', wipLimit: null };
  });
}

/** The default board (the default four): what a board draws before its first answer, and with no project at all. */
export const DEFAULT_SHAPE: BoardShape = { columnKind: 'status', order: DEFAULT_STATUSES.map((s) => s.key), workflows: [] };

/** The column a task is in on a board of this kind: its status key, or its status's category. */
export const columnIdOf = (task: Pick<TaskDto, 'status' | 'statusCategory'>, kind: ColumnRef['kind']): string =>
  kind === 'status' ? task.status : task.statusCategory;

/** A project's statuses as the board answer sent them (the default four for a project it does not describe). */
export function statusesOf(workflows: BoardWorkflows, projectId: string): readonly (Omit<StatusDto, 'id'> & { id?: string })[] {
  return workflows.find((w) => w.projectId === projectId)?.statuses ?? DEFAULT_STATUSES;
}

/** The task's own status (name, colour, category) in its project's workflow, when the board answer has it. */
export const taskStatusOf = (workflows: BoardWorkflows, task: Pick<TaskDto, 'projectId' | 'status'>): StatusDto | undefined =>
  workflows.find((w) => w.projectId === task.projectId)?.statuses.find((s) => s.key === task.status);

// ---------------------------------------------------------------------------------------------------------------
// Swimlanes

export const GROUP_BYS = ['assignee', 'priority', 'project'] as const;
export type GroupBy = (typeof GROUP_BYS)[number];
export const GROUP_BY_LABELS: Record<GroupBy | '', string> = {
  '': 'None',
  assignee: 'Assignee',
  priority: 'Priority',
  project: 'Project',
};
export const isGroupBy = (v: unknown): v is GroupBy => typeof v === 'string' && (GROUP_BYS as readonly string[]).includes(v);

/** The field a lane sets on a card dropped into it. */
export type LanePatch = { assigneeId: string | null } | { priority: TaskPriority } | { projectId: string };

export interface Lane {
  /** Unique among the lanes (a user id, 'unassigned', a priority, a project id). */
  key: string;
  name: string;
  /** What a card dropped into the lane takes. */
  patch: LanePatch;
  /** The lane's cards, by column id (every drawn column has an entry). */
  cells: Record<string, TaskDto[]>;
  count: number;
}

const UNASSIGNED = 'unassigned';
/** Priority lanes: the most pressing first. */
const PRIORITY_LANES = [...TASK_PRIORITIES].reverse();

/** The lane a task is in, and what the lane is called and sets. */
function laneOfTask(task: TaskDto, groupBy: GroupBy): Omit<Lane, 'cells' | 'count'> {
  if (groupBy === 'assignee') {
    return task.assigneeId
      ? { key: task.assigneeId, name: task.assignee?.fullName ?? 'Unknown member', patch: { assigneeId: task.assigneeId } }
      : { key: UNASSIGNED, name: 'Unassigned', patch: { assigneeId: null } };
  }
  if (groupBy === 'priority') {
    return { key: task.priority, name: TASK_PRIORITY_LABELS[task.priority], patch: { priority: task.priority } };
  }
  return { key: task.projectId, name: task.projectName, patch: { projectId: task.projectId } };
}

/**
 * The loaded cards in lanes (the server read is unchanged: lanes group what the columns loaded). Assignee: one lane per
 * member with cards, by name, then 'Unassigned'; Priority: all four, urgent first; Project: one per project with cards
 * or named in `projects` (those the board can show, so a card can be dragged into an empty one), by name.
 */
export function groupIntoLanes(
  columns: readonly { id: string; tasks: readonly TaskDto[] }[],
  groupBy: GroupBy,
  projects: readonly { id: string; name: string }[] = [],
): Lane[] {
  const lanes = new Map<string, Lane>();
  const empty = () => Object.fromEntries(columns.map((c) => [c.id, [] as TaskDto[]]));
  const add = (lane: Omit<Lane, 'cells' | 'count'>) => {
    let found = lanes.get(lane.key);
    if (!found) {
      found = { ...lane, cells: empty(), count: 0 };
      lanes.set(lane.key, found);
    }
    return found;
  };
  if (groupBy === 'priority') {
    for (const p of PRIORITY_LANES) add({ key: p, name: TASK_PRIORITY_LABELS[p], patch: { priority: p } });
  }
  if (groupBy === 'project') for (const p of projects) add({ key: p.id, name: p.name, patch: { projectId: p.id } });
  for (const column of columns) {
    for (const task of column.tasks) {
      const lane = add(laneOfTask(task, groupBy));
      lane.cells[column.id]!.push(task);
      lane.count += 1;
    }
  }
  const all = [...lanes.values()];
  if (groupBy === 'priority') return all;
  const byName = (a: Lane, b: Lane) => a.name.localeCompare(b.name);
  return [...all.filter((l) => l.key !== UNASSIGNED).sort(byName), ...all.filter((l) => l.key === UNASSIGNED)];
}

// ---------------------------------------------------------------------------------------------------------------
// Drops

/** What a drop writes: the status (a column change) and the lane's field, in one request. */
export interface DropPatch {
  status?: string;
  assigneeId?: string | null;
  priority?: TaskPriority;
  projectId?: string;
}

const laneChanges = (task: TaskDto, patch: LanePatch | undefined): Omit<DropPatch, 'status'> => {
  if (!patch) return {};
  if ('assigneeId' in patch) return patch.assigneeId === task.assigneeId ? {} : patch;
  if ('priority' in patch) return patch.priority === task.priority ? {} : patch;
  return patch.projectId === task.projectId ? {} : patch;
};

/**
 * What dropping `task` on a column (and a lane, when grouped) changes, or null for nothing. A status column sends its
 * key; a category column the first status of that category in the card's project (mapStatusToProject). A card moved
 * to another project's lane takes a status of that project: the column's own key when it has it, else the first of
 * the column's category there; without a column change the server maps the status itself.
 */
export function dropPatch(task: TaskDto, column: DrawnColumn, workflows: BoardWorkflows, lane?: LanePatch): DropPatch | null {
  const out: DropPatch = laneChanges(task, lane);
  const projectId = out.projectId ?? task.projectId;
  if (columnIdOf(task, column.kind) !== column.id) {
    const statuses = statusesOf(workflows, projectId);
    const target =
      column.kind === 'status'
        ? mapStatusToProject({ key: column.key, category: column.category }, statuses)
        : mapStatusToProject({ category: column.category }, statuses);
    if (target) out.status = target.key;
  }
  return Object.keys(out).length > 0 ? out : null;
}

/** The column a status key of the card's project is drawn in on a board of this kind (for the optimistic move). */
export function categoryOf(workflows: BoardWorkflows, projectId: string, key: string): StatusCategory | undefined {
  return statusesOf(workflows, projectId).find((s) => s.key === key)?.category;
}

// ---------------------------------------------------------------------------------------------------------------
// Keyboard moves between drop targets

export interface TargetRect {
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * The drop target an arrow key moves to from the point (x, y): left and right the nearest target beside it (in the
 * same lane first), up and down (only where `vertical`) the nearest above or below (in the same column first).
 */
export function nextTarget<T extends TargetRect>(
  rects: readonly T[],
  at: { x: number; y: number },
  dir: 'left' | 'right' | 'up' | 'down',
): T | undefined {
  const cx = (r: TargetRect) => r.left + r.width / 2;
  const cy = (r: TargetRect) => r.top + r.height / 2;
  const horizontal = dir === 'left' || dir === 'right';
  const ahead = rects.filter((r) =>
    dir === 'right'
      ? r.left > at.x
      : dir === 'left'
        ? r.left + r.width < at.x
        : dir === 'down'
          ? r.top > at.y
          : r.top + r.height < at.y,
  );
  const along = (r: TargetRect) => (horizontal ? Math.abs(cx(r) - at.x) : Math.abs(cy(r) - at.y));
  const across = (r: TargetRect) =>
    horizontal
      ? at.y >= r.top && at.y <= r.top + r.height
        ? 0
        : Math.abs(cy(r) - at.y)
      : at.x >= r.left && at.x <= r.left + r.width
        ? 0
        : Math.abs(cx(r) - at.x);
  return ahead.sort((a, b) => across(a) - across(b) || along(a) - along(b))[0];
}

/**
 * The task as the board shows it until the server answers a drop: the patch applied, with the status's category (the
 * column's for a category column), and the lane's name as the new assignee's or project's name.
 */
export function movedTask(
  task: TaskDto,
  patch: DropPatch,
  workflows: BoardWorkflows,
  column: DrawnColumn,
  laneName: string,
): TaskDto {
  const moved: TaskDto = { ...task };
  if (patch.priority) moved.priority = patch.priority;
  if (patch.assigneeId !== undefined) {
    moved.assigneeId = patch.assigneeId;
    moved.assignee = patch.assigneeId
      ? { id: patch.assigneeId, fullName: laneName, firstName: laneName.split(' ')[0] ?? laneName }
      : null;
  }
  if (patch.projectId) {
    moved.projectId = patch.projectId;
    moved.projectName = laneName;
    // Without a column change the server maps the status; show where it will land.
    if (!patch.status) {
      const mapped = mapStatusToProject(
        { key: task.status, category: task.statusCategory },
        statusesOf(workflows, patch.projectId),
      );
      if (mapped) moved.status = mapped.key;
    }
  }
  if (patch.status) {
    moved.status = patch.status;
    moved.statusCategory = column.category;
  }
  moved.statusCategory = categoryOf(workflows, moved.projectId, moved.status) ?? moved.statusCategory;
  return moved;
}
