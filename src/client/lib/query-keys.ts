/** The first element of every query key: one per feature (teams and projects are shared, in queries/). */
export type QueryRoot =
  | 'tasks'
  | 'projects'
  | 'teams'
  | 'invitations'
  | 'dashboard'
  | 'notifications'
  | 'admin'
  | 'settings'
  | 'notes'
  | 'fields'
  /** Time entries (issue 39): a task's, the timesheet's. */
  | 'time'
  /** The caller's running timer (issue 39), on every device. */
  | 'timer';

/**
 * The key every key factory starts from (`all: rootKey('tasks')`), and that realtime.ts invalidates by, so
 * neither retypes a key nor imports a feature.
 */
export const rootKey = <R extends QueryRoot>(root: R): readonly [R] => [root];
