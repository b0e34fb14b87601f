import { formatDuration, loggedSummary } from '../../../../domain/durations';
import type { TaskDto } from '../../../../domain/schemas/task';

/**
 * A card's time figure (issue 39), from its row alone. Its own module, without the schemas (and zod): the board's
 * cards load it.
 */

type TimeFigures = Pick<TaskDto, 'loggedMinutes' | 'subtaskLoggedMinutes' | 'estimateMinutes' | 'estimatePoints'>;

/** Minutes on the task and on its sub-tasks at every level (the roll-up the triggers keep). */
export const totalLogged = (task: TimeFigures): number => task.loggedMinutes + task.subtaskLoggedMinutes;

/**
 * The card's figure, when either side is set: '1h 30m / 5h', '1h 30m · 3 pts', '1h 30m', '0m / 5h'. The card has no
 * team at hand (it is one row read), so it shows the estimate the row holds, minutes before points.
 */
export function cardTimeText(task: TimeFigures): string | null {
  const logged = formatDuration(totalLogged(task));
  if (task.estimateMinutes !== null) return `${logged} / ${formatDuration(task.estimateMinutes)}`;
  if (task.estimatePoints !== null) return `${logged} · ${task.estimatePoints} ${task.estimatePoints === 1 ? 'pt' : 'pts'}`;
  return totalLogged(task) > 0 ? logged : null;
}

/** The card's figure as a screen reader hears it. */
export const cardTimeLabel = (task: TimeFigures): string =>
  loggedSummary(totalLogged(task), {
    minutes: task.estimateMinutes,
    points: task.estimateMinutes === null ? task.estimatePoints : null,
  });
