import { randomBytes } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AdminOverviewDto } from '../../src/domain/schemas/admin';
import type { InvitationDto } from '../../src/domain/schemas/team';
import { buildApp } from '../../src/server/app';
import type { Config, MailConfig } from '../../src/server/config';
import { type Database, openDatabase } from '../../src/server/db/client';
import { insertDefaultStatuses } from '../../src/server/db/project-statuses';
import { mailOutbox, projects, tasks, users } from '../../src/server/db/schema';
import { enqueueMails } from '../../src/server/modules/mail/mail.repo';
import { upsertMany } from '../../src/server/modules/notifications/preferences.repo';
import { verifyInvitationProof } from '../../src/server/modules/teams/invitation-mail';
import { createUser, insertTeam, uniqueEmail, type TestUser } from '../factories';
import { openTestDatabase, type TestContext, testConfig } from '../helpers/app';
import { type ReceivedMail, startSmtpServer, type TestSmtpServer, until } from '../helpers/smtp';
import { call, teamScenario } from './teams-helpers';

/**
 * Email delivery through a real SMTP server on 127.0.0.1: the mails of invitations, assignments and the daily
 * digest arrive with their links; the outbox survives a stop mid-delivery and an SMTP outage without losing or
 * doubling a message, and two instances on one PostgreSQL deliver each message once.
 */

const PUBLIC_URL = 'https://crew.example';
const SECRET = randomBytes(32).toString('hex');
const FROM = 'Crewboard Test <crew@example.test>';

let smtp: TestSmtpServer;
let database: Database;
const db = () => database.db;
let databaseUrl: string | undefined;
let drop: () => Promise<void>;
const ctx = {} as TestContext;

function mailConfig(over: Partial<MailConfig> = {}): MailConfig {
  return {
    smtpUrl: smtp.url,
    from: FROM,
    pollIntervalMs: 50,
    // The tests tick the digest themselves, at moments of their choosing.
    digestIntervalMs: 3_600_000,
    retry: { firstDelayMs: 100, maxDelayMs: 400, maxAttempts: 1000 },
    ...over,
  };
}

function appConfig(mail: Partial<MailConfig> = {}): Config {
  return testConfig({ publicUrl: PUBLIC_URL, authSecret: SECRET, mail: mailConfig(mail) });
}

async function startApp(config = appConfig(), on = database): Promise<FastifyInstance> {
  const app = await buildApp({ config, database: on });
  await app.ready();
  return app;
}

/** Stops the running app and starts another on the same database: a restart of the server. */
async function restart(config = appConfig()): Promise<void> {
  await ctx.app.close();
  ctx.app = await startApp(config);
}

beforeAll(async () => {
  smtp = await startSmtpServer();
  ({ database, databaseUrl, drop } = await openTestDatabase());
  ctx.database = database;
  ctx.databaseUrl = databaseUrl;
  ctx.config = appConfig();
  ctx.app = await startApp(ctx.config);
}, 60_000);

afterAll(async () => {
  await ctx.app?.close();
  await drop?.();
  await smtp?.stop();
});

const to = (address: string) => (m: ReceivedMail) => m.to.includes(address);
const countTo = (address: string, subject?: string) =>
  smtp.received.filter((m) => m.to.includes(address) && (subject === undefined || m.subject === subject)).length;

async function inviteEmail(app: FastifyInstance, by: TestUser, teamId: string, email = uniqueEmail('invitee')) {
  const res = await call(app, by, 'POST', `/api/teams/${teamId}/invitations`, { email, role: 'member' });
  expect(res.statusCode).toBe(201);
  return { email, invitation: res.json() as InvitationDto };
}

/**
 * A mail queued after everything before it and waited for: once it has arrived, the worker has been past every
 * earlier message, so a second copy of one of them would have been seen.
 */
async function sentinel(app: FastifyInstance, by: TestUser, teamId: string): Promise<void> {
  const { email } = await inviteEmail(app, by, teamId, uniqueEmail('sentinel'));
  await smtp.waitFor(to(email));
}

async function outboxRowsTo(email: string) {
  return db().select().from(mailOutbox).where(eq(mailOutbox.toEmail, email));
}

async function makeSuperAdmin(user: TestUser) {
  await db().update(users).set({ role: 'super_admin' }).where(eq(users.id, user.id));
}

describe('the invitation mail', () => {
  it('arrives through SMTP (signed in with the URL’s credentials) with a link that opens the invitation and proves the address', async () => {
    const w = await teamScenario(ctx, 'Mail Crew');
    const { email, invitation } = await inviteEmail(ctx.app, w.owner, w.team.id);

    const mail = await smtp.waitFor(to(email));
    expect(smtp.logins).toContain('crewboard');
    expect(mail.parsed.from?.value).toEqual([{ name: 'Crewboard Test', address: 'crew@example.test' }]);
    expect(mail.subject).toBe('Olive Owner invited you to Mail Crew on Crewboard');
    expect(mail.text).toContain(`Olive Owner (${w.owner.email}) invited you to the team Mail Crew as a member.`);

    const link = mail.text.match(/https:\/\/crew\.example\/dashboard\?invitation=([0-9a-f-]+)&proof=([\w-]+)/);
    expect(link?.[1]).toBe(invitation.id);
    expect(verifyInvitationProof(SECRET, invitation.id, link![2]!)).toBe(true);
    expect(verifyInvitationProof(SECRET, w.team.id, link![2]!)).toBe(false);
    expect(verifyInvitationProof(randomBytes(32).toString('hex'), invitation.id, link![2]!)).toBe(false);
    expect(verifyInvitationProof(SECRET, invitation.id, `${link![2]!}x`)).toBe(false);
    // The HTML part carries the same link, escaped, and nothing that reports the mail's opening.
    expect(mail.html).toContain(`href="${link![0].replace('&', '&amp;')}"`);
    expect(mail.html).not.toMatch(/<img/i);

    // The worker marks the row sent once the SMTP server has answered, which can be a moment after the mail arrived.
    await vi.waitFor(async () => {
      const [row] = await outboxRowsTo(email);
      expect(row).toMatchObject({ kind: 'invitation', attempts: 1, lastError: null, failedAt: null });
      expect(row!.sentAt).toBeInstanceOf(Date);
    });
  });

  it('is not sent to someone with an account who turned invitation mail off', async () => {
    const w = await teamScenario(ctx, 'Quiet Crew');
    await upsertMany(db(), w.stranger.id, [{ kind: 'team_invite', inApp: true, email: false }]);
    await inviteEmail(ctx.app, w.owner, w.team.id, w.stranger.email);
    await sentinel(ctx.app, w.owner, w.team.id);
    expect(countTo(w.stranger.email)).toBe(0);
    expect(await outboxRowsTo(w.stranger.email)).toEqual([]);
  });
});

describe('the task-assigned mail', () => {
  it('goes to someone else assigned a task (created or changed), not to oneself, nor to who turned it off', async () => {
    const w = await teamScenario(ctx, 'Assign Crew');
    const project = await call(ctx.app, w.owner, 'POST', '/api/projects', { name: 'Launch', teamId: w.team.id });
    expect(project.statusCode).toBe(201);
    const projectId = (project.json() as { id: string }).id;
    const createTask = async (title: string, assigneeId: string | null, by = w.owner) => {
      const res = await call(ctx.app, by, 'POST', '/api/tasks', {
        title,
        projectId,
        assigneeId,
        priority: 'high',
        dueDate: '2031-03-05',
      });
      expect(res.statusCode).toBe(201);
      return res.json() as { id: string };
    };

    await createTask('Write the launch post', w.member.id);
    const mail = await smtp.waitFor(
      (m) => m.to.includes(w.member.email) && m.subject === 'Assigned to you: Write the launch post',
    );
    expect(mail.text).toContain('Olive Owner assigned you “Write the launch post” in the project Launch.');
    expect(mail.text).toContain('Priority: High. Due Mar 05, 2031.');
    expect(mail.text).toContain(`${PUBLIC_URL}/tasks?project=${projectId}`);

    // To oneself: no mail. Turned off in Settings → Notifications: no mail.
    await createTask('A note to self', w.owner.id);
    await upsertMany(db(), w.member.id, [{ kind: 'task_assigned', inApp: true, email: false }]);
    const muted = await createTask('Muted assignment', null);
    expect((await call(ctx.app, w.owner, 'PATCH', `/api/tasks/${muted.id}`, { assigneeId: w.member.id })).statusCode).toBe(200);

    // Changing the assignee mails the new one (and, queued after the others, shows they were not sent).
    expect((await call(ctx.app, w.owner, 'PATCH', `/api/tasks/${muted.id}`, { assigneeId: w.admin.id })).statusCode).toBe(200);
    await smtp.waitFor((m) => m.to.includes(w.admin.email) && m.subject === 'Assigned to you: Muted assignment');
    expect(countTo(w.owner.email)).toBe(0);
    expect(countTo(w.member.email, 'Assigned to you: Muted assignment')).toBe(0);
    expect(countTo(w.member.email)).toBe(1);
  });
});

describe('with EMAIL_VERIFICATION required', () => {
  it('mails assignments and digests only to proven addresses', async () => {
    await restart(testConfig({ publicUrl: PUBLIC_URL, authSecret: SECRET, emailVerification: 'required', mail: mailConfig() }));
    try {
      const w = await teamScenario(ctx, 'Proven Crew');
      const project = await call(ctx.app, w.owner, 'POST', '/api/projects', { name: 'Proof', teamId: w.team.id });
      const projectId = (project.json() as { id: string }).id;
      const assign = async (title: string, assignee: TestUser) => {
        const res = await call(ctx.app, w.owner, 'POST', '/api/tasks', {
          title,
          projectId,
          assigneeId: assignee.id,
          dueDate: '2025-03-03',
        });
        expect(res.statusCode).toBe(201);
      };
      await db().update(users).set({ emailVerified: true }).where(eq(users.id, w.admin.id));
      await assign('For the unproven member', w.member);
      await assign('For the proven admin', w.admin);
      await smtp.waitFor((m) => m.to.includes(w.admin.email) && m.subject === 'Assigned to you: For the proven admin');

      await ctx.app.mail.digest.tick(new Date('2025-03-03T09:00:00Z'));
      await smtp.waitFor((m) => m.to.includes(w.admin.email) && m.subject.includes('Mar 03, 2025'));
      await sentinel(ctx.app, w.owner, w.team.id);
      // (The member did get the sign-up's verification link: that mail is how an address gets proven.)
      const unprompted = smtp.received.filter(
        (m) => m.to.includes(w.member.email) && /^(Assigned to you|Your Crewboard tasks)/.test(m.subject),
      );
      expect(unprompted).toEqual([]);
      await db().update(users).set({ digestEnabled: false }).where(sql`${users.id} in (${w.admin.id}, ${w.member.id})`);
    } finally {
      await restart();
    }
  });
});

describe('the daily digest', () => {
  it('goes out at 08:00 in the person’s own time zone, lists what is due that day and overdue, once a day', async () => {
    const tokyo = await createUser(ctx.app, { fullName: 'Tomo Tokyo' });
    const quiet = await createUser(ctx.app, { fullName: 'Quinn Quiet' });
    const idle = await createUser(ctx.app, { fullName: 'Ida Idle' });
    await db().update(users).set({ timeZone: 'Asia/Tokyo' }).where(eq(users.id, tokyo.id));
    await db().update(users).set({ digestEnabled: false }).where(eq(users.id, quiet.id));
    const team = await insertTeam(db(), tokyo);
    const [project] = await db().insert(projects).values({ name: 'Ops', teamId: team.id, ownerId: tokyo.id }).returning();
    await insertDefaultStatuses(db(), [project!.id]);
    const task = (title: string, dueDate: string | null, extra: Partial<typeof tasks.$inferInsert> = {}) => ({
      title,
      dueDate,
      projectId: project!.id,
      creatorId: tokyo.id,
      assigneeId: tokyo.id,
      ...extra,
    });
    await db()
      .insert(tasks)
      .values([
        task('Due on the 15th', '2025-01-15'),
        task('Overdue since the 10th', '2025-01-10', { priority: 'urgent' }),
        task('Due on the 16th', '2025-01-16'),
        task('Done already', '2025-01-14', { status: 'completed' }),
        task('Someone else’s', '2025-01-14', { assigneeId: null }),
        // Quinn turned the digest off; Ida has nothing due.
        task('Quinn’s overdue task', '2025-01-01', { assigneeId: quiet.id }),
      ]);
    const digests = async (email: string) =>
      (await outboxRowsTo(email)).filter((r) => r.kind === 'digest').sort((a, b) => a.id - b.id);

    // 07:59 in Tokyo on the 15th (22:59 UTC on the 14th): not yet.
    await ctx.app.mail.digest.tick(new Date('2025-01-14T22:59:00Z'));
    expect(await digests(tokyo.email)).toHaveLength(0);

    // 08:00 in Tokyo.
    await ctx.app.mail.digest.tick(new Date('2025-01-14T23:00:00Z'));
    const first = await smtp.waitFor((m) => m.to.includes(tokyo.email) && m.subject.includes('Jan 15, 2025'));
    expect(first.subject).toBe('Your Crewboard tasks for Jan 15, 2025: 2 due or overdue');
    expect(first.text).toContain('Good morning, Tomo Tokyo');
    expect(first.text).toContain('Due today (Jan 15, 2025):\n\nDue on the 15th — Ops (Medium)');
    expect(first.text).toContain('Overdue:\n\nOverdue since the 10th — Ops (Urgent), due Jan 10');
    expect(first.text).toContain(`Open your tasks: ${PUBLIC_URL}/tasks`);
    expect(first.text).toContain('08:00 (Asia/Tokyo)');
    for (const absent of ['Due on the 16th', 'Done already', 'Someone else’s']) expect(first.text).not.toContain(absent);

    // Later that day: nothing more.
    await ctx.app.mail.digest.tick(new Date('2025-01-15T02:00:00Z'));
    await ctx.app.mail.digest.tick(new Date('2025-01-15T14:59:00Z'));
    expect(await digests(tokyo.email)).toHaveLength(1);

    // The next morning: the 16th's task joins.
    await ctx.app.mail.digest.tick(new Date('2025-01-15T23:00:00Z'));
    const second = await smtp.waitFor((m) => m.to.includes(tokyo.email) && m.subject.includes('Jan 16, 2025'));
    expect(second.subject).toBe('Your Crewboard tasks for Jan 16, 2025: 3 due or overdue');
    expect(await digests(tokyo.email)).toHaveLength(2);
    expect(await digests(quiet.email)).toHaveLength(0);
    expect(await digests(idle.email)).toHaveLength(0);

    // These tasks stay overdue by the real clock: no digest of the real date for the tests below.
    await db().update(users).set({ digestEnabled: false }).where(eq(users.id, tokyo.id));
  });
});

describe('the outbox', () => {
  it('lets a delivery under way finish when the server stops, and does not send it again after the restart', async () => {
    const w = await teamScenario(ctx, 'Slow Crew');
    smtp.replyDelayMs = 1_000;
    const before = smtp.dataStarted;
    const { email } = await inviteEmail(ctx.app, w.owner, w.team.id);
    await smtp.waitForData(before + 1);
    smtp.replyDelayMs = 0;
    // Stopping waits for the server's answer, then records it.
    await restart();
    expect(countTo(email)).toBe(1);
    expect((await outboxRowsTo(email))[0]!.sentAt).toBeInstanceOf(Date);

    await sentinel(ctx.app, w.owner, w.team.id);
    expect(countTo(email)).toBe(1);
  });

  it('hands back a delivery the server never answered when it stops, and sends it once after the restart', async () => {
    const w = await teamScenario(ctx, 'Silent Crew');
    smtp.replyDelayMs = Number.POSITIVE_INFINITY;
    const before = smtp.dataStarted;
    const { email } = await inviteEmail(ctx.app, w.owner, w.team.id);
    await smtp.waitForData(before + 1);
    // The stop waits a while (5 s), then abandons the conversation: the server never said 250, so nothing arrived.
    await ctx.app.close();
    expect(countTo(email)).toBe(0);
    const [row] = await outboxRowsTo(email);
    expect(row).toMatchObject({ sentAt: null, failedAt: null, attempts: 0 });
    expect(row!.nextAttemptAt.getTime()).toBeLessThanOrEqual(Date.now());

    smtp.replyDelayMs = 0;
    ctx.app = await startApp();
    await smtp.waitFor(to(email));
    await sentinel(ctx.app, w.owner, w.team.id);
    expect(countTo(email)).toBe(1);
  }, 30_000);

  it('keeps mail through an SMTP outage, retrying with backoff, and delivers every message once when it is back', async () => {
    const w = await teamScenario(ctx, 'Outage Crew');
    await makeSuperAdmin(w.owner);
    await smtp.stop();
    const emails: string[] = [];
    for (let i = 0; i < 5; i++) emails.push((await inviteEmail(ctx.app, w.owner, w.team.id)).email);

    // Each message has failed at least twice, and waits for its next attempt.
    await until(
      async () => {
        const rows = await Promise.all(emails.map(async (e) => (await outboxRowsTo(e))[0]!));
        return rows.every((r) => r.attempts >= 2 && r.lastError !== null && r.sentAt === null && r.failedAt === null);
      },
      15_000,
      'failed attempts',
    );
    const overview = (await call(ctx.app, w.owner, 'GET', '/api/admin/overview')).json() as AdminOverviewDto;
    expect(overview.mail).toMatchObject({ transport: 'smtp', lastError: expect.stringMatching(/ECONNREFUSED/) });
    expect(overview.mail.queued).toBeGreaterThanOrEqual(5);

    await smtp.start();
    for (const email of emails) await smtp.waitFor(to(email));
    await sentinel(ctx.app, w.owner, w.team.id);
    for (const email of emails) expect(countTo(email)).toBe(1);
    for (const email of emails) expect((await outboxRowsTo(email))[0]!.sentAt).toBeInstanceOf(Date);
    const after = (await call(ctx.app, w.owner, 'GET', '/api/admin/overview')).json() as AdminOverviewDto;
    expect(after.mail.sent).toBeGreaterThanOrEqual(overview.mail.sent + 6);
  });

  it('gives a message up after its last attempt, and the admin panel shows it', async () => {
    const w = await teamScenario(ctx, 'Bounce Crew');
    await makeSuperAdmin(w.owner);
    await restart(appConfig({ retry: { firstDelayMs: 50, maxDelayMs: 50, maxAttempts: 2 } }));
    const before = ((await call(ctx.app, w.owner, 'GET', '/api/admin/overview')).json() as AdminOverviewDto).mail;
    await smtp.stop();
    const { email } = await inviteEmail(ctx.app, w.owner, w.team.id);
    await until(async () => (await outboxRowsTo(email))[0]!.failedAt !== null, 15_000, 'the message to be given up');
    const [row] = await outboxRowsTo(email);
    expect(row).toMatchObject({ attempts: 2, sentAt: null, lastError: expect.stringMatching(/ECONNREFUSED/) });
    const after = ((await call(ctx.app, w.owner, 'GET', '/api/admin/overview')).json() as AdminOverviewDto).mail;
    expect(after.failed).toBe(before.failed + 1);
    expect(after.lastError).toMatch(/ECONNREFUSED/);

    await smtp.start();
    await restart();
    await sentinel(ctx.app, w.owner, w.team.id);
    expect(countTo(email)).toBe(0);
  });

  describe.skipIf(!process.env.DATABASE_URL)('with two instances on one PostgreSQL', () => {
    it('delivers every message once, each instance taking its share, and queues one digest per person', async () => {
      const second = await openDatabase({ databaseUrl: ctx.databaseUrl });
      const other = await startApp(appConfig({ from: 'Crewboard B <b@example.test>' }), second);
      try {
        const batch = randomBytes(4).toString('hex');
        const mails = Array.from({ length: 60 }, (_, i) => ({
          kind: 'invitation' as const,
          to: `pair.${batch}.${i}@example.com`,
          subject: `pair ${batch} ${i}`,
          text: 'one of many',
          html: '<p>one of many</p>',
        }));
        smtp.replyDelayMs = 10;
        await enqueueMails(db(), mails);
        await until(() => mails.every((m) => countTo(m.to) >= 1), 30_000, 'every message');
        const w = await teamScenario(ctx, 'Pair Crew');
        await sentinel(ctx.app, w.owner, w.team.id);
        await sentinel(other, w.owner, w.team.id);
        for (const m of mails) expect(countTo(m.to)).toBe(1);
        const senders = new Set(
          smtp.received.filter((r) => r.subject.startsWith(`pair ${batch}`)).map((r) => r.parsed.from?.value[0]?.address),
        );
        expect(senders).toEqual(new Set(['crew@example.test', 'b@example.test']));
        const sent = await db()
          .select({ n: sql<number>`count(*)::int` })
          .from(mailOutbox)
          .where(and(sql`${mailOutbox.subject} like ${`pair ${batch} %`}`, sql`${mailOutbox.sentAt} is not null`));
        expect(sent[0]!.n).toBe(60);

        // Both instances' digest schedulers tick at the same moment: the lock lets one queue the digest.
        const owner = await createUser(ctx.app);
        const team = await insertTeam(db(), owner);
        const [project] = await db().insert(projects).values({ name: 'Twin', teamId: team.id, ownerId: owner.id }).returning();
        await insertDefaultStatuses(db(), [project!.id]);
        await db()
          .insert(tasks)
          .values({ title: 'Due', dueDate: '2025-02-03', projectId: project!.id, creatorId: owner.id, assigneeId: owner.id });
        const at = new Date('2025-02-03T09:00:00Z');
        await Promise.all([ctx.app.mail.digest.tick(at), other.mail.digest.tick(at)]);
        expect((await outboxRowsTo(owner.email)).filter((r) => r.kind === 'digest')).toHaveLength(1);
        await db().update(users).set({ digestEnabled: false }).where(eq(users.id, owner.id));
      } finally {
        smtp.replyDelayMs = 0;
        await other.close();
        await second.close();
      }
    }, 60_000);
  });
});

describe('the admin panel’s Email card', () => {
  it('is for super admins only; it shows the transport, the counts and the warning that addresses are unproven', async () => {
    const member = await createUser(ctx.app);
    const denied = await call(ctx.app, member, 'GET', '/api/admin/overview');
    expect(denied.statusCode).toBe(403);
    expect(denied.body).not.toContain('queued');
    expect((await call(ctx.app, null, 'GET', '/api/admin/overview')).statusCode).toBe(401);

    await makeSuperAdmin(member);
    const overview = (await call(ctx.app, member, 'GET', '/api/admin/overview')).json() as AdminOverviewDto;
    expect(overview.mail).toMatchObject({ transport: 'smtp', queued: expect.any(Number), sent: expect.any(Number) });
    expect(Object.keys(overview.mail).sort()).toEqual(['failed', 'lastError', 'queued', 'sent', 'transport']);
    const byId = Object.fromEntries(overview.alerts.map((a) => [a.id, a]));
    expect(byId.email_verification).toMatchObject({
      type: 'warning',
      message: expect.stringContaining('Addresses are unproven'),
    });
    expect(byId.mail).toBeUndefined();
  });

  it('says when mail only goes to the log', async () => {
    const own = await openTestDatabase();
    const app = await startApp(testConfig({ emailVerification: 'required' }), own.database);
    try {
      const admin = await createUser(app);
      await own.database.db.update(users).set({ role: 'super_admin' }).where(eq(users.id, admin.id));
      const overview = (await call(app, admin, 'GET', '/api/admin/overview')).json() as AdminOverviewDto;
      expect(overview.mail.transport).toBe('log');
      const byId = Object.fromEntries(overview.alerts.map((a) => [a.id, a]));
      expect(byId.mail).toMatchObject({ type: 'warning', title: 'Email is not sent' });
      expect(byId.email_verification).toMatchObject({ type: 'info' });
    } finally {
      await app.close();
      await own.drop();
    }
  });
});
