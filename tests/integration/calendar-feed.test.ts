import { eq } from 'drizzle-orm';
import ICAL from 'ical.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { addDays, localIsoDate } from '../../src/domain/dates';
import type { CalendarFeedCreatedDto, CalendarFeedStatusDto } from '../../src/domain/schemas/calendar';
import type { TaskDto } from '../../src/domain/schemas/task';
import { calendarFeeds, users } from '../../src/server/db/schema';
import { hashToken } from '../../src/server/lib/tokens';
import { createUser, insertOwnerMemberStranger, insertTeam, type TestUser } from '../factories';
import { apiRequests } from '../helpers/api';
import { setupTestApp } from '../helpers/app';

const ctx = setupTestApp();

const { call, ok } = apiRequests(ctx);

/** The path of a feed URL (the app is reached through inject, not through PUBLIC_URL). */
const pathOf = (url: string) => new URL(url).pathname;
const fetchFeed = (url: string) => ctx.app.inject({ method: 'GET', url: pathOf(url) });

/** RFC 5545 §3.1: a line folded with CRLF and one space or tab is joined back. */
const unfold = (text: string) => text.replace(/\r\n[ \t]/g, '');

interface VEvent {
  [property: string]: string;
}

/** The VEVENTs of a feed, each as its property lines (name with parameters → value). */
function events(text: string): VEvent[] {
  const out: VEvent[] = [];
  let current: VEvent | null = null;
  for (const line of unfold(text).split('\r\n')) {
    if (line === 'BEGIN:VEVENT') current = {};
    else if (line === 'END:VEVENT') {
      out.push(current!);
      current = null;
    } else if (current) {
      const at = line.indexOf(':');
      current[line.slice(0, at)] = line.slice(at + 1);
    }
  }
  return out;
}

const summaries = (text: string) => events(text).map((e) => e.SUMMARY);

let owner: TestUser;
let member: TestUser;
let stranger: TestUser;
let teamId: string;
let projectId: string;
let strangerProjectId: string;
const today = localIsoDate();

beforeAll(async () => {
  let team: { id: string };
  ({ owner, member, stranger, team } = await insertOwnerMemberStranger(ctx.app, ctx.database.db));
  teamId = team.id;
  projectId = (await ok<{ id: string }>(owner, 'POST', '/api/projects', { name: 'Launch, v2; beta', teamId }, 201)).id;
  const strangerTeam = await insertTeam(ctx.database.db, stranger);
  strangerProjectId = (
    await ok<{ id: string }>(stranger, 'POST', '/api/projects', { name: 'Secret plans', teamId: strangerTeam.id }, 201)
  ).id;
});

const newTask = (user: TestUser, body: Record<string, unknown>) =>
  ok<TaskDto>(user, 'POST', '/api/tasks', { projectId, ...body }, 201);
const subscribe = (user: TestUser) => ok<CalendarFeedCreatedDto>(user, 'POST', '/api/me/calendar-feed', undefined, 201);

describe('calendar feed: making, resetting and revoking the link', () => {
  it('starts inactive, is made, reset and revoked, each acting on the caller only', async () => {
    expect(await ok<CalendarFeedStatusDto>(member, 'GET', '/api/me/calendar-feed')).toEqual({
      active: false,
      createdAt: null,
      lastUsedAt: null,
    });

    const res = await call(member, 'POST', '/api/me/calendar-feed');
    expect(res.statusCode, res.body).toBe(201);
    expect(res.headers['cache-control']).toBe('no-store');
    const first = res.json() as CalendarFeedCreatedDto;
    expect(first.url).toMatch(/^http:\/\/localhost:3000\/api\/calendar\/feeds\/cal_[A-Za-z0-9_-]{43}\/crewboard\.ics$/);
    expect(first).toMatchObject({ active: true, lastUsedAt: null });

    // Only the hash is stored.
    const token = pathOf(first.url).split('/')[4]!;
    const [row] = await ctx.database.db.select().from(calendarFeeds).where(eq(calendarFeeds.userId, member.id));
    expect(row!.tokenHash).toBe(hashToken(token));
    expect(row!.tokenHash).not.toContain(token);

    expect((await fetchFeed(first.url)).statusCode).toBe(200);
    const used = await ok<CalendarFeedStatusDto>(member, 'GET', '/api/me/calendar-feed');
    expect(used.active).toBe(true);
    expect(used.lastUsedAt).not.toBeNull();
    // The status never shows the URL again.
    expect(used).not.toHaveProperty('url');

    // 'Reset link': a new URL; the old one is gone at once.
    const second = await subscribe(member);
    expect(second.url).not.toBe(first.url);
    expect((await fetchFeed(first.url)).statusCode).toBe(404);
    expect((await fetchFeed(second.url)).statusCode).toBe(200);
    expect((await ok<CalendarFeedStatusDto>(member, 'GET', '/api/me/calendar-feed')).lastUsedAt).not.toBeNull();

    // Revoke: 204, then 404 for the feed; revoking again is still 204.
    await ok(member, 'DELETE', '/api/me/calendar-feed', undefined, 204);
    expect((await fetchFeed(second.url)).statusCode).toBe(404);
    expect((await ok<CalendarFeedStatusDto>(member, 'GET', '/api/me/calendar-feed')).active).toBe(false);
    await ok(member, 'DELETE', '/api/me/calendar-feed', undefined, 204);
  });

  it('writes last_used_at at most once a minute', async () => {
    const feed = await subscribe(owner);
    const past = new Date(Date.now() - 30_000);
    await fetchFeed(feed.url);
    await ctx.database.db.update(calendarFeeds).set({ lastUsedAt: past }).where(eq(calendarFeeds.userId, owner.id));
    await fetchFeed(feed.url);
    const [recent] = await ctx.database.db.select().from(calendarFeeds).where(eq(calendarFeeds.userId, owner.id));
    expect(recent!.lastUsedAt!.getTime()).toBe(past.getTime());

    const older = new Date(Date.now() - 120_000);
    await ctx.database.db.update(calendarFeeds).set({ lastUsedAt: older }).where(eq(calendarFeeds.userId, owner.id));
    await fetchFeed(feed.url);
    const [touched] = await ctx.database.db.select().from(calendarFeeds).where(eq(calendarFeeds.userId, owner.id));
    expect(touched!.lastUsedAt!.getTime()).toBeGreaterThan(older.getTime() + 60_000);
  });

  it('needs a signed-in caller to make, read or revoke a link; a stranger only ever acts on their own', async () => {
    for (const method of ['GET', 'POST', 'DELETE'] as const) {
      expect((await call(null, method, '/api/me/calendar-feed')).statusCode).toBe(401);
    }
    const owners = await subscribe(owner);
    // The stranger's calls change their own feed, never the owner's: the owner's link still works after each.
    expect((await ok<CalendarFeedStatusDto>(stranger, 'GET', '/api/me/calendar-feed')).active).toBe(false);
    const strangers = await subscribe(stranger);
    await ok(stranger, 'DELETE', '/api/me/calendar-feed', undefined, 204);
    expect((await fetchFeed(owners.url)).statusCode).toBe(200);
    expect((await fetchFeed(strangers.url)).statusCode).toBe(404);
    // A bearer token on the feed changes nothing: the link alone decides.
    const viaStranger = await ctx.app.inject({ method: 'GET', url: pathOf(owners.url), headers: stranger.auth });
    expect(viaStranger.statusCode).toBe(200);
    expect(viaStranger.headers['content-type']).toBe('text/calendar; charset=utf-8');
  });

  it('answers 404 (never 500) to malformed, odd or overlong tokens, with one body for all', async () => {
    const feed = await subscribe(owner);
    const token = pathOf(feed.url).split('/')[4]!;
    const bad = [
      'cal_short',
      `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`,
      `cal_${'x'.repeat(43)}`,
      'x'.repeat(100),
      '%00',
      '%E2%9C%93%20%3B%2C',
      "cal_'or'1'='1",
      encodeURIComponent('../../etc/passwd'),
    ];
    const bodies = new Set<string>();
    for (const t of bad) {
      const res = await ctx.app.inject({ method: 'GET', url: `/api/calendar/feeds/${t}/crewboard.ics` });
      expect(res.statusCode, `${t}: ${res.body}`).toBe(404);
      bodies.add(res.body);
    }
    expect(bodies.size).toBe(1);
    // Longer than any token: refused by the route's schema (400, in the API's error shape), never a 500 or Fastify's 414.
    for (const length of [200, 500]) {
      const tooLong = await ctx.app.inject({ method: 'GET', url: `/api/calendar/feeds/${'y'.repeat(length)}/crewboard.ics` });
      expect([400, 404]).toContain(tooLong.statusCode);
      expect(typeof tooLong.json().error.code).toBe('string');
    }
  });
});

describe('calendar feed: content', () => {
  it('is an RFC 5545 calendar with one all-day event per task due in the owner’s teams', async () => {
    const due = addDays(today, 3);
    const plain = await newTask(owner, { title: 'Ship the release', dueDate: due, priority: 'high' });
    const tricky = await newTask(member, {
      title: 'Call Ann, Bob; and Cy\nabout the backslash \\ and a title long enough to be folded over several lines',
      dueDate: today,
    });
    const done = await newTask(owner, { title: 'Write notes', dueDate: addDays(today, -2) });
    await ok(owner, 'PATCH', `/api/tasks/${done.id}/status`, { status: 'completed' });
    const undated = await newTask(owner, { title: 'No date at all' });
    // Issue 35, item 10: every task with a due date, however far back or ahead (before: 90 days back to 730 ahead).
    const farPast = await newTask(owner, { title: 'Long ago', dueDate: addDays(today, -400) });
    const farAhead = await newTask(owner, { title: 'Far ahead', dueDate: addDays(today, 1000) });
    await ok(stranger, 'POST', '/api/tasks', { title: 'Stranger secret', projectId: strangerProjectId, dueDate: today }, 201);

    const feed = await subscribe(member);
    const res = await fetchFeed(feed.url);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(res.headers['cache-control']).toBe('private, max-age=300');
    const text = res.body;

    expect(text.startsWith('BEGIN:VCALENDAR\r\n')).toBe(true);
    // Every content line ends with CRLF, the last one too (RFC 5545 §3.1).
    expect(text.endsWith('\r\nEND:VCALENDAR\r\n')).toBe(true);
    expect(text).toContain('\r\nVERSION:2.0\r\n');
    expect(unfold(text)).toContain('\r\nX-WR-CALNAME:Crewboard\r\n');
    // Every line within 75 octets (folded), and lines end in CRLF only.
    for (const line of text.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);

    const byUid = new Map(events(text).map((e) => [e.UID, e]));
    const ship = byUid.get(`${plain.id}@crewboard`)!;
    expect(ship.SUMMARY).toBe('Ship the release');
    expect(ship['DTSTART;VALUE=DATE']).toBe(due.replaceAll('-', ''));
    expect(ship['DTEND;VALUE=DATE']).toBe(addDays(due, 1).replaceAll('-', ''));
    expect(ship.DESCRIPTION).toBe(
      `Project: Launch\\, v2\\; beta\\nStatus: To Do\\nPriority: High\\nhttp://localhost:3000/tasks/${plain.id}`,
    );
    expect(ship['URL;VALUE=URI']).toBe(`http://localhost:3000/tasks/${plain.id}`);
    expect(ship['LAST-MODIFIED']).toMatch(/^\d{8}T\d{6}Z$/);

    // Commas, semicolons, backslashes and newlines escaped (RFC 5545 §3.3.11); the long line was folded.
    const call = byUid.get(`${tricky.id}@crewboard`)!;
    expect(call.SUMMARY).toBe(
      'Call Ann\\, Bob\\; and Cy\\nabout the backslash \\\\ and a title long enough to be folded over several lines',
    );
    expect(text).toMatch(/\r\nSUMMARY:Call Ann[^\r]*\r\n [^\r]/);
    expect(call['DTSTART;VALUE=DATE']).toBe(today.replaceAll('-', ''));

    expect(byUid.get(`${done.id}@crewboard`)!.SUMMARY).toBe('✓ Write notes');
    expect(byUid.has(`${undated.id}@crewboard`)).toBe(false);
    expect(byUid.get(`${farPast.id}@crewboard`)?.SUMMARY).toBe('Long ago');
    expect(byUid.get(`${farAhead.id}@crewboard`)?.SUMMARY).toBe('Far ahead');

    // An outside parser (ical.js) reads the same calendar: the same events, titles and all-day dates.
    const parsed = new ICAL.Component(ICAL.parse(text));
    expect(parsed.name).toBe('vcalendar');
    const vevents = parsed.getAllSubcomponents('vevent').map((c) => new ICAL.Event(c));
    expect(vevents.map((e) => e.uid).sort()).toEqual([...byUid.keys()].sort());
    const parsedShip = vevents.find((e) => e.uid === `${plain.id}@crewboard`)!;
    expect(parsedShip.summary).toBe('Ship the release');
    expect(parsedShip.startDate.isDate).toBe(true);
    expect(parsedShip.startDate.toString()).toBe(due);
    expect(parsedShip.endDate.toString()).toBe(addDays(due, 1));
    expect(vevents.find((e) => e.uid === `${tricky.id}@crewboard`)!.summary).toBe(
      'Call Ann, Bob; and Cy\nabout the backslash \\ and a title long enough to be folded over several lines',
    );
    expect(vevents.find((e) => e.uid === `${farAhead.id}@crewboard`)!.startDate.toString()).toBe(addDays(today, 1000));
    expect(summaries(text)).not.toContain('Stranger secret');
    // An unchanged feed reads the same twice (DTSTAMP is the task's last change, not the time of the request).
    expect((await fetchFeed(feed.url)).body).toBe(text);
  });

  it("reads a workflow's own status: its name, and ✓ for any completed status (issue 36)", async () => {
    const other = (await ok<{ id: string }>(owner, 'POST', '/api/projects', { name: 'Flow', teamId }, 201)).id;
    await ok(owner, 'POST', `/api/projects/${other}/statuses`, { name: 'Shipped', category: 'completed', color: '#16a34a' }, 201);
    await ok(owner, 'POST', `/api/projects/${other}/statuses`, { name: 'Design', category: 'started', color: '#7c3aed' }, 201);
    const shipped = await newTask(owner, { projectId: other, title: 'Shipped thing', dueDate: today, status: 'shipped' });
    const drawn = await newTask(owner, { projectId: other, title: 'Drawn thing', dueDate: today, status: 'design' });
    const byUid = new Map(events((await fetchFeed((await subscribe(owner)).url)).body).map((e) => [e.UID, e]));
    expect(byUid.get(`${shipped.id}@crewboard`)!.SUMMARY).toBe('✓ Shipped thing');
    expect(byUid.get(`${shipped.id}@crewboard`)!.DESCRIPTION).toContain('\\nStatus: Shipped\\n');
    expect(byUid.get(`${drawn.id}@crewboard`)!.SUMMARY).toBe('Drawn thing');
    expect(byUid.get(`${drawn.id}@crewboard`)!.DESCRIPTION).toContain('\\nStatus: Design\\n');
  });

  it('makes a task with a start date an all-day event from its start to its due day (issue 37)', async () => {
    const start = addDays(today, 10);
    const due = addDays(today, 13);
    const span = await newTask(owner, { title: 'Four-day span', startDate: start, dueDate: due });
    const oneDay = await newTask(owner, { title: 'Same-day span', startDate: due, dueDate: due });
    const startOnly = await newTask(owner, { title: 'Start, no due', startDate: start });
    const text = (await fetchFeed((await subscribe(owner)).url)).body;
    const byUid = new Map(events(text).map((e) => [e.UID, e]));
    const event = byUid.get(`${span.id}@crewboard`)!;
    expect(event['DTSTART;VALUE=DATE']).toBe(start.replaceAll('-', ''));
    // DTEND is exclusive: the day after the due day.
    expect(event['DTEND;VALUE=DATE']).toBe(addDays(due, 1).replaceAll('-', ''));
    expect(byUid.get(`${oneDay.id}@crewboard`)!['DTSTART;VALUE=DATE']).toBe(due.replaceAll('-', ''));
    expect(byUid.has(`${startOnly.id}@crewboard`)).toBe(false);
    // The outside parser reads the same days: an all-day event lasting four days.
    const parsed = new ICAL.Component(ICAL.parse(text))
      .getAllSubcomponents('vevent')
      .map((c) => new ICAL.Event(c))
      .find((e) => e.uid === `${span.id}@crewboard`)!;
    expect(parsed.startDate.isDate).toBe(true);
    expect(parsed.startDate.toString()).toBe(start);
    expect(parsed.endDate.toString()).toBe(addDays(due, 1));
    expect(parsed.duration.toString()).toBe('P4D');
  });

  it('never lists a stranger’s tasks; after leaving a team its tasks disappear', async () => {
    const mine = await newTask(owner, { title: 'Team task for the member', dueDate: addDays(today, 1) });
    const feed = await subscribe(member);
    const strangerFeed = await subscribe(stranger);
    expect(summaries((await fetchFeed(feed.url)).body)).toContain(mine.title);
    const strangerText = (await fetchFeed(strangerFeed.url)).body;
    expect(strangerText).toContain('Stranger secret');
    expect(strangerText).not.toContain(mine.id);
    expect(strangerText).not.toContain('Ship the release');

    await ok(member, 'POST', `/api/teams/${teamId}/leave`, undefined, 204);
    const after = await fetchFeed(feed.url);
    expect(after.statusCode).toBe(200);
    expect(events(after.body)).toEqual([]);
    expect(after.body).toContain('BEGIN:VCALENDAR');
  });

  it('stops answering for a deactivated account', async () => {
    const feed = await subscribe(owner);
    expect((await fetchFeed(feed.url)).statusCode).toBe(200);
    await ctx.database.db.update(users).set({ isActive: false }).where(eq(users.id, owner.id));
    try {
      expect((await fetchFeed(feed.url)).statusCode).toBe(404);
    } finally {
      await ctx.database.db.update(users).set({ isActive: true }).where(eq(users.id, owner.id));
    }
  });
});

describe('calendar feed: guessing links', () => {
  const limited = setupTestApp({ rateLimitEnabled: true, rateLimits: { calendarFeed: { capacity: 4, windowSeconds: 3600 } } });

  it('spends the IP’s feed bucket on wrong links only: then 429, while a right link still answers', async () => {
    const user = await createUser(limited.app);
    const created = await limited.app.inject({ method: 'POST', url: '/api/me/calendar-feed', headers: user.auth });
    expect(created.statusCode).toBe(201);
    const good = pathOf((created.json() as CalendarFeedCreatedDto).url);
    const guess = () => limited.app.inject({ method: 'GET', url: `/api/calendar/feeds/cal_${'g'.repeat(43)}/crewboard.ics` });
    // A right link spends nothing, however often.
    for (let i = 0; i < 4; i++) expect((await limited.app.inject({ method: 'GET', url: good })).statusCode).toBe(200);
    // Four guesses answer 404, the fifth 429.
    const statuses: number[] = [];
    let refused: Awaited<ReturnType<typeof guess>> | undefined;
    for (let i = 0; i < 6 && !refused; i++) {
      const res = await guess();
      statuses.push(res.statusCode);
      if (res.statusCode === 429) refused = res;
    }
    expect(statuses).toEqual([404, 404, 404, 404, 429]);
    expect(refused?.statusCode).toBe(429);
    expect(Number(refused!.headers['retry-after'])).toBeGreaterThan(0);
    expect((await limited.app.inject({ method: 'GET', url: good })).statusCode).toBe(200);
  });
});
