import { randomBytes } from 'node:crypto';
import ical, { type ICalCalendar } from 'ical-generator';
import { TASK_PRIORITY_LABELS } from '../../../domain/constants';
import { addDays, parseIsoDate } from '../../../domain/dates';
import type { CalendarFeedCreatedDto, CalendarFeedStatusDto } from '../../../domain/schemas/calendar';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/errors';
import { hashToken } from '../../lib/tokens';
import * as repo from './calendar.repo';

/**
 * What a feed lists: every task with a due date in the owner's teams, whenever it is due (issue 35, item 10). Only
 * the size is bounded: past `maxEvents` tasks, the ones due latest are kept (Settings and the API description say so).
 */
export const FEED_LIMITS = { maxEvents: 5000 } as const;
/** last_used_at is written at most this often (a calendar app may poll every few minutes). */
const TOUCH_EVERY_SECONDS = 60;
/** How often a calendar app is asked to fetch again (REFRESH-INTERVAL, X-PUBLISHED-TTL). */
const REFRESH_SECONDS = 15 * 60;

const TOKEN_PREFIX = 'cal_';
/** 'cal_' and 32 random bytes in base64url: anything else is unknown without asking the database. */
const TOKEN_SHAPE = /^cal_[A-Za-z0-9_-]{43}$/;

export const feedPath = (token: string) => `/api/calendar/feeds/${token}/crewboard.ics`;

function toStatus(row: repo.CalendarFeedRow | undefined): CalendarFeedStatusDto {
  return {
    active: Boolean(row),
    createdAt: row?.createdAt.toISOString() ?? null,
    lastUsedAt: row?.lastUsedAt?.toISOString() ?? null,
  };
}

/**
 * The caller's personal iCalendar feed (issue 23): a secret URL that a calendar app polls without signing in. Only
 * the token's SHA-256 is stored; the URL is shown once, when made. The token is the whole authorization of the feed:
 * it reads the owner's teams as they are at each request, and nothing else.
 */
export class CalendarService {
  constructor(
    private readonly db: Db,
    private readonly publicUrl: string,
  ) {}

  async status(userId: string): Promise<CalendarFeedStatusDto> {
    return toStatus(await repo.getOneByUserId(this.db, userId));
  }

  /** Makes the caller's feed, or replaces its token ('Reset link': the old URL stops working at once). */
  async create(userId: string): Promise<CalendarFeedCreatedDto> {
    const token = TOKEN_PREFIX + randomBytes(32).toString('base64url');
    const row = await repo.upsertOne(this.db, userId, hashToken(token));
    return { ...toStatus(row), url: `${this.publicUrl}${feedPath(token)}` };
  }

  /** Revokes the caller's feed; revoking none is not an error (the outcome is the same). */
  async revoke(userId: string): Promise<void> {
    await repo.deleteOne(this.db, userId);
  }

  /** The feed of `token` as iCalendar text; 404 for a token that is malformed, unknown or revoked alike. */
  async render(token: string, now = new Date()): Promise<string> {
    const feed = TOKEN_SHAPE.test(token) ? await repo.getOneByTokenHash(this.db, hashToken(token)) : undefined;
    if (!feed) throw new AppError('not_found');
    const [rows] = await Promise.all([
      repo.listFeedTasks(this.db, feed.userId, FEED_LIMITS.maxEvents),
      feed.lastUsedAt && now.getTime() - feed.lastUsedAt.getTime() < TOUCH_EVERY_SECONDS * 1000
        ? undefined
        : repo.touchLastUsed(this.db, feed.userId, TOUCH_EVERY_SECONDS),
    ]);
    return feedText(buildCalendar(rows, this.publicUrl));
  }
}

/**
 * The calendar as an iCalendar file: every content line ends with CRLF, the last one too (RFC 5545 §3.1;
 * ical-generator leaves the final END:VCALENDAR without it).
 */
export function feedText(calendar: ICalCalendar): string {
  const text = calendar.toString();
  return text.endsWith('\r\n') ? text : `${text}\r\n`;
}

/**
 * The RRULE of a carrying task's event: the series' rule counted from this task, so COUNT is what is left of it (the
 * series counts every task it made, this one included).
 */
export function eventRule(rule: string, created: number): string {
  return rule.replace(/COUNT=(\d+)/, (_, count: string) => `COUNT=${Math.max(1, Number(count) - created + 1)}`);
}

/**
 * One all-day event per task (RFC 5545; ical-generator escapes text and folds long lines): from its start date (else
 * its due day) to its due day, DTEND being the day after (exclusive).
 */
export function buildCalendar(rows: readonly repo.FeedTaskRow[], publicUrl: string): ICalCalendar {
  const calendar = ical({
    name: 'Crewboard',
    prodId: { company: 'Crewboard', product: 'Crewboard', language: 'EN' },
    ttl: REFRESH_SECONDS,
  });
  for (const task of rows) {
    const url = `${publicUrl}/tasks/${task.id}`;
    const start = parseIsoDate(task.startDate ?? task.dueDate);
    calendar.createEvent({
      id: `${task.id}@crewboard`,
      allDay: true,
      start,
      end: parseIsoDate(addDays(task.dueDate, 1)),
      summary: task.statusCategory === 'completed' ? `✓ ${task.title}` : task.title,
      description: [
        `Project: ${task.projectName}`,
        `Status: ${task.statusName}`,
        `Priority: ${TASK_PRIORITY_LABELS[task.priority]}`,
        url,
      ].join('\n'),
      url,
      // No METHOD: DTSTAMP is then the last change, like LAST-MODIFIED (RFC 5545 §3.8.7.2), so an unchanged task
      // reads the same on every fetch.
      stamp: task.updatedAt,
      lastModified: task.updatedAt,
      sequence: task.version,
      // A repeating task (issue 39): its series' RRULE from this event on.
      repeating: task.repeatRule === null ? null : eventRule(task.repeatRule, task.seriesCreated ?? 1),
    });
  }
  return calendar;
}
