import { z } from 'zod';
import { TIME_LIMITS } from '../constants';
import { isTimeEntryDay, TIME_DATE_INVALID, TIME_ENTRY_TOO_LONG, TIME_MINUTES_INVALID } from '../time-errors';
import { isoDate, isoDateTime, optionalText, uuid } from './common';

// The texts live in ../time-errors.ts (the client's forms read them without zod); exported here as they were.
export { TIME_DATE_INVALID, TIME_MINUTES_INVALID };

/** A day of time tracking: an ISO date from 1900 to 2999 (../time-errors.ts `isTimeEntryDay` says why). */
const timeDate = isoDate.refine(isTimeEntryDay, { error: TIME_DATE_INVALID });

const minutes = z
  .number({ error: TIME_MINUTES_INVALID })
  .int(TIME_MINUTES_INVALID)
  .min(1, TIME_MINUTES_INVALID)
  .max(TIME_LIMITS.entryMinutesMax, TIME_ENTRY_TOO_LONG);

/** `POST /api/tasks/:id/time-entries`: a day, a duration in whole minutes, an optional note. */
export const timeEntryInput = z.object({ date: timeDate, minutes, note: optionalText(TIME_LIMITS.noteMax) }).strict();
export type TimeEntryInput = z.infer<typeof timeEntryInput>;

/** `PATCH /api/time-entries/:id`: any of them. */
export const timeEntryPatch = z
  .object({ date: timeDate.optional(), minutes: minutes.optional(), note: optionalText(TIME_LIMITS.noteMax).optional() })
  .strict();
export type TimeEntryPatch = z.infer<typeof timeEntryPatch>;

export const timeEntryDto = z.object({
  id: uuid,
  taskId: uuid,
  userId: uuid,
  userName: z.string(),
  date: isoDate,
  minutes: z.number().int(),
  note: z.string().nullable(),
  /** The task as the timesheet names it. */
  task: z.object({ id: uuid, title: z.string(), projectId: uuid, projectName: z.string(), teamId: uuid }),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});
export type TimeEntryDto = z.infer<typeof timeEntryDto>;

/**
 * `GET /api/time-entries`: the entries from `from` to `to` (both included, at most TIME_LIMITS.rangeDaysMax days) of
 * `userId` (default: the caller; another person only for an owner or admin of `teamId`, who must be given), in
 * `teamId`'s tasks when given.
 */
export const timeEntriesQuery = z.object({
  from: timeDate,
  to: timeDate,
  userId: uuid.optional(),
  teamId: uuid.optional(),
});
export type TimeEntriesQuery = z.infer<typeof timeEntriesQuery>;

export const timeEntryListDto = z.object({ entries: z.array(timeEntryDto) });
export type TimeEntryListDto = z.infer<typeof timeEntryListDto>;

/** The caller's running timer (one a person), on every device. */
export const timerDto = z.object({
  taskId: uuid,
  taskTitle: z.string(),
  projectId: uuid,
  startedAt: isoDateTime,
});
export type TimerDto = z.infer<typeof timerDto>;

/** What stopping a timer did: `minutes` logged (0: under a minute, nothing logged, `entry` null). */
export const stoppedTimerDto = z.object({
  taskId: uuid,
  taskTitle: z.string(),
  minutes: z.number().int(),
  entry: timeEntryDto.nullable(),
});
export type StoppedTimerDto = z.infer<typeof stoppedTimerDto>;

/** `GET /api/me/timer`. */
export const timerStateDto = z.object({ timer: timerDto.nullable() });
export type TimerStateDto = z.infer<typeof timerStateDto>;

/** `POST /api/me/timer` `{ taskId }`: the new timer, and the one it stopped (null when none ran). */
export const startTimerInput = z.object({ taskId: uuid }).strict();
export type StartTimerInput = z.infer<typeof startTimerInput>;
export const startTimerDto = z.object({ timer: timerDto, stopped: stoppedTimerDto.nullable() });
export type StartTimerDto = z.infer<typeof startTimerDto>;

/** `DELETE /api/me/timer`: what it logged (null when no timer ran). */
export const stopTimerDto = z.object({ stopped: stoppedTimerDto.nullable() });
export type StopTimerDto = z.infer<typeof stopTimerDto>;

/** An estimate on a task: minutes (a team estimating in time) or points (a team estimating in story points). */
export const estimateMinutesInput = z.number().int().min(1).max(TIME_LIMITS.estimateMinutesMax).nullable();
export const estimatePointsInput = z.number().min(0).max(TIME_LIMITS.estimatePointsMax).multipleOf(0.5).nullable();
