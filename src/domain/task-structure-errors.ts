/**
 * The refusals of sub-tasks, dependencies and start dates (issue 37, decision 0025) with their error codes and texts,
 * in the shape of errors.ts `ERRORS`, which spreads them. Plain data beside hierarchy.ts, dependencies.ts and dates.ts:
 * errors.ts is in the client's start-up script, so this file must not import zod or anything under schemas/ (an import
 * from there tied the start-up script and the schemas chunk in a circle once: every page stuck at 'Loading...').
 */
import { SUBTASK_LIMITS } from './constants';
import type { DateRuleReason } from './dates';
import { DEPENDENCY_TEXT, type DependencyRuleReason } from './dependencies';
import type { HierarchyRuleReason } from './hierarchy';

/**
 * Every reason with its error code and text, in the shape of errors.ts `ERRORS` (to be spread into it). A parent or a
 * blocker the caller may not see answers `subtask_parent_not_found` / `task_not_found` before any other rule is read, so
 * the 400s here never tell a stranger that a task exists. `dependency_cycle`'s answer names the cycle's tasks
 * (dependencyCycleMessage); `start_after_due` is the field `startDate`'s message.
 */
export const TASK_STRUCTURE_ERRORS = {
  subtask_cycle: { code: 'validation_failed', message: 'A task cannot be a sub-task of itself or of one of its own sub-tasks' },
  subtask_too_deep: {
    code: 'validation_failed',
    message: `Sub-tasks can be nested at most ${SUBTASK_LIMITS.maxDepth} tasks deep, counting the top task`,
  },
  subtask_other_project: { code: 'validation_failed', message: 'A sub-task must be in the same project as its parent' },
  subtask_parent_not_found: { code: 'not_found', message: 'Parent task not found' },
  dependency_cycle: { code: 'validation_failed', message: 'This dependency would make a cycle' },
  dependency_exists: { code: 'conflict', message: 'This task is already blocked by that task' },
  dependency_self: { code: 'validation_failed', message: 'A task cannot be blocked by itself' },
  dependency_other_team: { code: 'validation_failed', message: 'A task can only be blocked by tasks of its own team' },
  dependency_not_found: { code: 'not_found', message: 'This task is not blocked by that task' },
  start_after_due: { code: 'validation_failed', message: 'Start date must be on or before the due date' },
} as const satisfies Record<
  HierarchyRuleReason | DependencyRuleReason | DateRuleReason | 'subtask_parent_not_found' | 'dependency_not_found',
  { code: string; message: string }
>;

/** A title in the cycle's message is cut here (a title may be 200 characters). */
const TITLE_MAX = 60;
/** The message names at most this many tasks of a long cycle, then says how many more. */
const CYCLE_TITLES_MAX = 10;

const quoted = (title: string | null): string => {
  if (title === null) return DEPENDENCY_TEXT.hiddenTask;
  const chars = [...title];
  return `"${chars.length > TITLE_MAX ? `${chars.slice(0, TITLE_MAX - 1).join('')}…` : title}"`;
};

/**
 * The 400 text of `dependency_cycle`: the cycle's tasks by title in order, each blocked by the next, back to the first
 * ('This dependency would make a cycle: "A" → "B" → "C" → "A" (each is blocked by the next)'). `titles` follow
 * findDependencyCycle's ids; null stands for a task the caller may not see (named 'A task in another project').
 */
export function dependencyCycleMessage(titles: readonly (string | null)[]): string {
  if (titles.length === 0) return TASK_STRUCTURE_ERRORS.dependency_cycle.message;
  const shown = titles.length > CYCLE_TITLES_MAX ? titles.slice(0, CYCLE_TITLES_MAX) : titles;
  const names = shown.map(quoted);
  const more = titles.length - shown.length;
  const chain = more > 0 ? [...names, `${more} more`] : names;
  return `${TASK_STRUCTURE_ERRORS.dependency_cycle.message}: ${[...chain, quoted(titles[0]!)].join(' → ')} (each is blocked by the next)`;
}
