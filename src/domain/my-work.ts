/**
 * My work (issue 23): one person's open tasks across their teams, grouped by when they are due and sorted. Pure: the
 * caller passes its own local date ("today", YYYY-MM-DD); weeks run Monday to Sunday here (ISO 8601), unlike the
 * Sunday weeks of dates.ts' deadline labels.
 */

import { TASK_PRIORITIES, type TaskPriority } from './constants';
import { addDays, parseIsoDate } from './dates';
import { isClosed, type StatusCategory } from './workflow';

export const MY_WORK_GROUPS = ['overdue', 'today', 'this_week', 'later', 'no_date'] as const;
export type MyWorkGroup = (typeof MY_WORK_GROUPS)[number];

export const MY_WORK_SORTS = ['due', 'priority', 'project', 'created'] as const;
export type MyWorkSort = (typeof MY_WORK_SORTS)[number];
export const DEFAULT_MY_WORK_SORT: MyWorkSort = 'due';

/** A sort named in the URL, or the default for anything else. */
export function parseMyWorkSort(value: string | null | undefined): MyWorkSort {
  return (MY_WORK_SORTS as readonly string[]).includes(value ?? '') ? (value as MyWorkSort) : DEFAULT_MY_WORK_SORT;
}

/** The Monday that starts the (ISO) week holding `date`. */
export function startOfIsoWeek(date: string): string {
  const weekday = parseIsoDate(date).getUTCDay(); // 0 Sunday … 6 Saturday
  return addDays(date, -((weekday + 6) % 7));
}

/** The Sunday that ends the (ISO) week holding `date`. */
export function endOfIsoWeek(date: string): string {
  return addDays(startOfIsoWeek(date), 6);
}

/** The group of a due date seen on `today`: before it, on it, later this week (to Sunday), after that, or none. */
export function myWorkGroup(dueDate: string | null, today: string): MyWorkGroup {
  if (!dueDate) return 'no_date';
  if (dueDate < today) return 'overdue';
  if (dueDate === today) return 'today';
  return dueDate <= endOfIsoWeek(today) ? 'this_week' : 'later';
}

interface Groupable {
  dueDate: string | null;
  statusCategory: StatusCategory;
}

/**
 * The open tasks (neither completed nor canceled, whatever their project calls the status) in their groups, each
 * group in the order given. Every group is present.
 */
export function groupMyWork<T extends Groupable>(tasks: readonly T[], today: string): Record<MyWorkGroup, T[]> {
  const groups: Record<MyWorkGroup, T[]> = { overdue: [], today: [], this_week: [], later: [], no_date: [] };
  for (const task of tasks) {
    if (isClosed(task.statusCategory)) continue;
    groups[myWorkGroup(task.dueDate, today)].push(task);
  }
  return groups;
}

interface Sortable {
  id: string;
  dueDate: string | null;
  priority: TaskPriority;
  projectName: string;
  createdAt: string;
}

/** Urgent first. */
const priorityRank = (p: TaskPriority) => TASK_PRIORITIES.length - 1 - TASK_PRIORITIES.indexOf(p);

/** Earliest due first, no date last. */
const byDue = (a: Sortable, b: Sortable) => {
  if (a.dueDate === b.dueDate) return 0;
  if (!a.dueDate) return 1;
  if (!b.dueDate) return -1;
  return a.dueDate < b.dueDate ? -1 : 1;
};
/** Newest first; then by id, so that the order is total and stable across fetches. */
const byCreated = (a: Sortable, b: Sortable) =>
  a.createdAt === b.createdAt ? (a.id < b.id ? -1 : a.id > b.id ? 1 : 0) : a.createdAt < b.createdAt ? 1 : -1;
const byPriority = (a: Sortable, b: Sortable) => priorityRank(a.priority) - priorityRank(b.priority);
const byProject = (a: Sortable, b: Sortable) => a.projectName.localeCompare(b.projectName, undefined, { sensitivity: 'base' });

const COMPARE: Record<MyWorkSort, ((a: Sortable, b: Sortable) => number)[]> = {
  due: [byDue, byPriority, byCreated],
  priority: [byPriority, byDue, byCreated],
  project: [byProject, byDue, byPriority, byCreated],
  created: [byCreated],
};

/** A sorted copy. */
export function sortMyWork<T extends Sortable>(tasks: readonly T[], sort: MyWorkSort): T[] {
  const keys = COMPARE[sort];
  return [...tasks].sort((a, b) => {
    for (const compare of keys) {
      const d = compare(a, b);
      if (d !== 0) return d;
    }
    return 0;
  });
}
