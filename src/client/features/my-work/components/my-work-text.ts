import type { MyWorkGroup, MyWorkSort } from '../../../../domain/my-work';

/** My work's texts (kept with the page, off the shared message table). */
export const GROUP_LABELS: Record<MyWorkGroup, string> = {
  overdue: 'Overdue',
  today: 'Today',
  this_week: 'This week',
  later: 'Later',
  no_date: 'No date',
};

export const GROUP_EMPTY: Record<MyWorkGroup, string> = {
  overdue: 'Nothing overdue.',
  today: 'Nothing due today.',
  this_week: 'Nothing else due this week.',
  later: 'Nothing due later.',
  no_date: 'Every task has a due date.',
};

export const SORT_LABELS: Record<MyWorkSort, string> = {
  due: 'Due date',
  priority: 'Priority',
  project: 'Project',
  created: 'Recently created',
};

/** Whose work the page shows: the caller's own, or a teammate's (`?user=`). */
export interface Subject {
  isSelf: boolean;
  fullName: string;
  firstName: string;
}

export const pageTitle = (s: Subject) => (s.isSelf ? 'My work' : `${s.fullName}'s work`);
export const toggleLabel = (s: Subject) => (s.isSelf ? 'Created by me' : `Created by ${s.firstName || s.fullName}`);

const openTasks = (n: number) => `${n} open ${n === 1 ? 'task' : 'tasks'}`;

export function subtitle(s: Subject, createdBy: boolean, count: number | null): string {
  const what = count === null ? 'Open tasks' : openTasks(count);
  if (s.isSelf) return createdBy ? `${what} you created, across all your teams` : `${what} assigned to you across all your teams`;
  return createdBy ? `${what} ${s.fullName} created, in your teams` : `${what} assigned to ${s.fullName} in your teams`;
}

export function emptyPage(s: Subject, createdBy: boolean): { title: string; message: string } {
  if (s.isSelf) {
    return createdBy
      ? { title: 'Nothing open that you created', message: 'Tasks you create stay here until they are completed.' }
      : { title: "You're all caught up", message: 'No open tasks are assigned to you.' };
  }
  return createdBy
    ? { title: 'Nothing open', message: `${s.fullName} has no open tasks they created in your teams.` }
    : { title: 'Nothing open', message: `No open tasks are assigned to ${s.fullName} in your teams.` };
}
