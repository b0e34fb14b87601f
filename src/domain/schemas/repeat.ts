import { z } from 'zod';
import { REPEAT_LIMITS, REPEAT_MODES } from '../constants';
import { normalizeRepeatRule } from '../recurrence';
import { isoDate, isoDateTime, uuid } from './common';
import { timeZoneInput } from './time-zone';

export const REPEAT_RULE_INVALID = 'Choose how often the task repeats';

/** An RRULE in decision 0027's subset, stored in its canonical form (domain recurrence.ts). */
export const repeatRule = z
  .string({ error: REPEAT_RULE_INVALID })
  .max(REPEAT_LIMITS.ruleMax, REPEAT_RULE_INVALID)
  .transform((text, ctx) => {
    const rule = normalizeRepeatRule(text);
    if (rule === null) {
      ctx.addIssue({ code: 'custom', message: REPEAT_RULE_INVALID });
      return z.NEVER;
    }
    return rule;
  })
  .meta({ description: 'An RFC 5545 RRULE: FREQ (DAILY, WEEKLY, MONTHLY, YEARLY), INTERVAL, BYDAY, BYMONTHDAY, COUNT, UNTIL' });

/**
 * `repeat` on `POST /api/tasks` and `PATCH /api/tasks/:id` (null stops repeating). The time zone defaults to the
 * caller's own (Settings), else UTC.
 */
export const repeatInput = z
  .object({
    rule: repeatRule,
    mode: z.enum(REPEAT_MODES),
    timezone: timeZoneInput.optional(),
  })
  .strict();
export type RepeatInput = z.infer<typeof repeatInput>;

/**
 * A repeating task's series, on the task that carries it (the series' newest task; decision 0027). `nextDate` is the
 * next task's date (its due date), `nextAt` the moment it is made 'On schedule' (00:00 that day in `timezone`); both null
 * once the rule has no more dates.
 */
export const repeatDto = z.object({
  seriesId: uuid,
  rule: z.string(),
  mode: z.enum(REPEAT_MODES),
  timezone: z.string(),
  nextDate: isoDate.nullable(),
  nextAt: isoDateTime.nullable(),
});
export type RepeatDto = z.infer<typeof repeatDto>;

/** `GET /api/tasks/occurrences`: the calendar's future dates of repeating tasks, not created yet. */
export const occurrencesQuery = z
  .object({
    from: isoDate,
    to: isoDate,
    teamId: uuid.optional(),
    projectId: uuid.optional(),
  })
  .refine((q) => q.teamId === undefined || q.projectId === undefined, {
    message: 'Give teamId or projectId, not both',
    path: ['projectId'],
  })
  .refine((q) => q.from <= q.to, { message: 'from must not be after to', path: ['from'] })
  .refine((q) => (Date.parse(q.to) - Date.parse(q.from)) / 86_400_000 <= REPEAT_LIMITS.occurrencesWindowDays, {
    message: `The window may span at most ${REPEAT_LIMITS.occurrencesWindowDays} days`,
    path: ['to'],
  });
export type OccurrencesQuery = z.infer<typeof occurrencesQuery>;

export const occurrenceDto = z.object({
  /** The repeating task (the series' newest) the date belongs to. */
  taskId: uuid,
  seriesId: uuid,
  title: z.string(),
  projectId: uuid,
  date: isoDate,
});
export const occurrenceListDto = z.object({ occurrences: z.array(occurrenceDto) });
export type OccurrenceDto = z.infer<typeof occurrenceDto>;
export type OccurrenceListDto = z.infer<typeof occurrenceListDto>;
