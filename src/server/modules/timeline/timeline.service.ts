import type { TaskPriority } from '../../../domain/constants';
import {
  TIMELINE_LIMITS,
  type TimelineAnswer,
  type TimelineDependency,
  type TimelineProject,
  type TimelineQuery,
  type TimelineTask,
} from '../../../domain/schemas/timeline';
import type { StatusCategory } from '../../../domain/workflow';
import type { Database } from '../../db/client';
import { requireTeamMember } from '../../db/membership';
import { AppError } from '../../lib/errors';
import { COLUMN as C, isProjectVisible, type TimelineScope, timelineStatements } from './timeline.repo';

type Row = unknown[];

/** A row into the answer's task, field for field in the contract's order (the route writes it with JSON.stringify). */
const toTask = (row: Row): TimelineTask => ({
  id: row[C.id] as string,
  title: row[C.title] as string,
  projectId: row[C.projectId] as string,
  parentId: row[C.parentId] as string | null,
  startDate: row[C.startDate] as string | null,
  dueDate: row[C.dueDate] as string | null,
  status: row[C.status] as string,
  statusCategory: row[C.statusCategory] as StatusCategory,
  priority: row[C.priority] as TaskPriority,
  assigneeId: row[C.assigneeId] as string | null,
  version: row[C.version] as number,
});

/**
 * The dated rows (by project, first day, id) in the timeline's order: each sub-task right after its parent, siblings by
 * their position (then first day, id). A sub-task whose parent is outside the window stands as a top-level row, by its
 * own first day. Every row is kept once, whatever the parent links say.
 */
export function timelineOrder(rows: readonly Row[]): Row[] {
  const byId = new Map(rows.map((row) => [row[C.id] as string, row]));
  const children = new Map<string, Row[]>();
  const roots: Row[] = [];
  for (const row of rows) {
    const parentId = row[C.parentId] as string | null;
    if (parentId === null || !byId.has(parentId)) roots.push(row);
    else {
      const siblings = children.get(parentId);
      if (siblings) siblings.push(row);
      else children.set(parentId, [row]);
    }
  }
  if (children.size === 0) return [...rows];
  const position = (row: Row) => (row[C.subtaskPosition] as number | null) ?? Number.MAX_SAFE_INTEGER;
  // Sorting is stable, and `rows` come by first day then id: those break ties between equal positions.
  for (const siblings of children.values()) siblings.sort((a, b) => position(a) - position(b));
  const ordered: Row[] = [];
  const seen = new Set<Row>();
  const visit = (row: Row) => {
    if (seen.has(row)) return;
    seen.add(row);
    ordered.push(row);
    for (const child of children.get(row[C.id] as string) ?? []) visit(child);
  };
  for (const root of roots) visit(root);
  // Only a cycle in the parent links (which the database refuses) could leave rows unvisited: never drop them.
  for (const row of rows) visit(row);
  return ordered;
}

const collator = new Intl.Collator('en');
/** Projects by name, then id (two projects may share a name). */
const byName = (a: TimelineProject, b: TimelineProject) => collator.compare(a.name, b.name) || (a.id < b.id ? -1 : 1);

/** The projects of the rows, by name then id, once each. */
function projectsOf(...lists: readonly Row[][]): TimelineProject[] {
  const found = new Map<string, TimelineProject>();
  for (const rows of lists) {
    for (const row of rows) {
      const id = row[C.projectId] as string;
      if (!found.has(id)) found.set(id, { id, name: row[C.projectName] as string });
    }
  }
  return [...found.values()].sort(byName);
}

/** The dated rows (by project id, then first day, id) with their projects in `projects`' order (by name). */
function inProjectOrder(rows: readonly Row[], projects: readonly TimelineProject[]): Row[] {
  const byProject = new Map<string, Row[]>();
  for (const row of rows) {
    const id = row[C.projectId] as string;
    const list = byProject.get(id);
    if (list) list.push(row);
    else byProject.set(id, [row]);
  }
  return projects.flatMap((project) => byProject.get(project.id) ?? []);
}

/** GET /api/timeline (issue 37, decision 0025): three statements side by side (and the scope's check). */
export class TimelineService {
  constructor(private readonly database: Database) {}

  async read(userId: string, query: TimelineQuery): Promise<TimelineAnswer> {
    const scope: TimelineScope = query.projectId ? 'project' : query.teamId ? 'team' : 'all';
    const values = {
      userId,
      teamId: query.teamId,
      projectId: query.projectId,
      from: query.from,
      to: query.to,
      limit: TIMELINE_LIMITS.unscheduled,
    };
    // The scope's check runs beside the reads (which see nothing outside the caller's teams); when it fails, their
    // rows are dropped.
    const [, datedRows, edges, unscheduledRows] = await Promise.all([
      this.requireScope(userId, query),
      timelineStatements.dated[scope].run(this.database, values),
      timelineStatements.dependencies[scope].run(this.database, values),
      timelineStatements.unscheduled[scope].run(this.database, values),
    ]);
    const projects = projectsOf(datedRows, unscheduledRows);
    const dated = timelineOrder(inProjectOrder(datedRows, projects));
    const returned = new Set(dated.map((row) => row[C.id] as string));
    const dependencies: TimelineDependency[] = [];
    for (const [taskId, blockedById] of edges as [string, string][]) {
      if (returned.has(taskId) && returned.has(blockedById)) dependencies.push({ taskId, blockedById });
    }
    return {
      tasks: dated.map(toTask),
      dependencies,
      projects,
      unscheduled: unscheduledRows.map(toTask),
      // Each row ends with the count of them all (timeline.repo.ts `unscheduledStatement`).
      unscheduledTotal: Number(unscheduledRows[0]?.at(-1) ?? 0),
    };
  }

  /** A team or project the caller cannot see answers 404, as a stranger's. */
  private async requireScope(userId: string, query: TimelineQuery): Promise<void> {
    if (query.projectId) {
      if (!(await isProjectVisible(this.database.db, userId, query.projectId))) throw new AppError('project_not_found');
    } else if (query.teamId) {
      await requireTeamMember(this.database.db, query.teamId, userId, 'team_not_found');
    }
  }
}
