import { type EstimateUnit, TIME_LIMITS } from '../../../../../domain/constants';
import { formatDuration, loggedSummary, parseDuration } from '../../../../../domain/durations';
import type { TaskDto } from '../../../../../domain/schemas/task';
import { TIME_ENTRY_TOO_LONG, TIME_MINUTES_INVALID } from '../../../../../domain/time-errors';
import { totalLogged } from '../card-time';

/**
 * What the task page's 'Time' says and reads (issue 39): the minutes logged on the task and its sub-tasks against its
 * estimate in the team's unit, and the durations and estimates typed in it. The card's figure is in ../card-time.ts.
 */

type TimeFigures = Pick<TaskDto, 'loggedMinutes' | 'subtaskLoggedMinutes' | 'estimateMinutes' | 'estimatePoints'>;

/** The estimate as the team counts it: a team estimating in points does not see minutes, and the other way round. */
export function estimateIn(task: TimeFigures, unit: EstimateUnit): { minutes: number | null; points: number | null } {
  return unit === 'points' ? { minutes: null, points: task.estimatePoints } : { minutes: task.estimateMinutes, points: null };
}

/** 'Logged 3h 20m of 5h estimate', 'Logged 3h 20m', 'Logged 2h · 5 points'. */
export const taskLoggedSummary = (task: TimeFigures, unit: EstimateUnit): string =>
  loggedSummary(totalLogged(task), estimateIn(task, unit));

/** How much of a time estimate is logged, in percent (over 100 when over the estimate); null without one. */
export function loggedPercent(task: TimeFigures, unit: EstimateUnit): number | null {
  const { minutes } = estimateIn(task, unit);
  return minutes ? (totalLogged(task) / minutes) * 100 : null;
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

/** A typed duration for 'Log time' or an entry's edit: whole minutes from 1 to a day, or the schema's message. */
export function parseEntryMinutes(text: string): Parsed<number> {
  const minutes = parseDuration(text);
  if (minutes === null) return { ok: false, message: TIME_MINUTES_INVALID };
  if (minutes > TIME_LIMITS.entryMinutesMax) return { ok: false, message: TIME_ENTRY_TOO_LONG };
  return { ok: true, value: minutes };
}

/** The estimate field's text for the task as it is. */
export function estimateDraft(task: TimeFigures, unit: EstimateUnit): string {
  if (unit === 'points') return task.estimatePoints === null ? '' : String(task.estimatePoints);
  return task.estimateMinutes === null ? '' : formatDuration(task.estimateMinutes);
}

export const ESTIMATE_POINTS_INVALID = `Enter points from 0 to ${TIME_LIMITS.estimatePointsMax}, in halves (such as 3 or 2.5)`;
const ESTIMATE_MINUTES_TOO_LONG = `An estimate is at most ${formatDuration(TIME_LIMITS.estimateMinutesMax)}`;

/** The estimate field's text as the value to save (empty: no estimate), or what is wrong with it. */
export function parseEstimate(text: string, unit: EstimateUnit): Parsed<number | null> {
  const s = text.trim();
  if (s === '') return { ok: true, value: null };
  if (unit === 'points') {
    const points = Number(s.replace(',', '.'));
    const valid =
      Number.isFinite(points) && points >= 0 && points <= TIME_LIMITS.estimatePointsMax && Number.isInteger(points * 2);
    return valid ? { ok: true, value: points } : { ok: false, message: ESTIMATE_POINTS_INVALID };
  }
  const minutes = parseDuration(s);
  if (minutes === null) return { ok: false, message: TIME_MINUTES_INVALID };
  if (minutes > TIME_LIMITS.estimateMinutesMax) return { ok: false, message: ESTIMATE_MINUTES_TOO_LONG };
  return { ok: true, value: minutes };
}
