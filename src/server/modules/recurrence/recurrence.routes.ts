import type { FastifyInstance } from 'fastify';
import { errorResponse } from '../../../domain/schemas/common';
import { occurrenceListDto, occurrencesQuery } from '../../../domain/schemas/repeat';
import { requireUser, typed } from '../../lib/http';
import { startPeriodic } from '../../lib/periodic';
import { RecurrenceService, RepeatSchedule, type TaskCards } from './recurrence.service';

/** The 'On schedule' job runs this often on every instance (and once at start-up: missed dates are caught up). */
export const REPEAT_SCHEDULE_EVERY_MS = 60_000;

/**
 * Recurring tasks (issue 39, decision 0027). `repeat` itself is written through the tasks routes (POST and PATCH
 * /api/tasks); here: the calendar's future dates of repeating tasks, and the schedule that makes 'On schedule' tasks
 * (`cards`: the tasks module's answers, for the changes the schedule records).
 */
export function registerRecurrence(app: FastifyInstance, cards: TaskCards): void {
  const r = typed(app);
  const service = new RecurrenceService(app.deps.database.db);

  r.get('/api/tasks/occurrences', {
    config: { auth: 'user' },
    schema: {
      tags: ['tasks'],
      description:
        "The future dates (after today in each series' time zone, not created yet) of the repeating tasks the caller sees, " +
        `from \`from\` to \`to\` (at most 400 days), of one team or project or of all; at most 500, earliest first.`,
      querystring: occurrencesQuery,
      response: { 200: occurrenceListDto, 400: errorResponse, 401: errorResponse, 404: errorResponse },
    },
    handler: async (req) => service.occurrences(requireUser(req).userId, req.query),
  });

  const schedule = new RepeatSchedule(app.deps.database.db, app.deps.changes, {
    cards,
    onError: (err, seriesId) => app.log.warn({ err, seriesId }, 'recurrence: a series could not be caught up'),
  });
  startPeriodic(app, {
    everyMs: REPEAT_SCHEDULE_EVERY_MS,
    run: async (stopped) => {
      const made = await schedule.run(stopped);
      if (made) app.log.info({ made }, 'recurrence: made the tasks due on schedule');
    },
    failed: 'recurrence: the schedule failed',
  });
}
