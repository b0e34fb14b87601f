import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { ImapFlow } from 'imapflow';
import nodemailer, { type SendMailOptions } from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OUTSIDE_TEXTS, SUBMITTED_BY_EMAIL } from '../../src/domain/outside-texts';
import type { IntakeDto } from '../../src/domain/schemas/outside';
import type { TaskDto, TaskListDto } from '../../src/domain/schemas/task';
import { expandTaskList } from '../../src/domain/task-list';
import type { ActivityListDto, AttachmentListDto, CommentListDto } from '../../src/domain/schemas/task-detail';
import { buildApp } from '../../src/server/app';
import type { Config } from '../../src/server/config';
import type { Database } from '../../src/server/db/client';
import { inboundMessages, mailReplyTokens, users } from '../../src/server/db/schema';
import { inboundMailOf } from '../../src/server/modules/inbound-mail';
import { openTestDatabase, testConfig } from '../helpers/app';
import { hasDovecot, startDovecot } from '../helpers/dovecot';
import { type ReceivedMail, startSmtpServer, type TestSmtpServer, until } from '../helpers/smtp';
import { apiRequests } from '../helpers/api';
import { teamScenario, type TeamScenario } from './teams-helpers';

/**
 * Tasks by email and replies by email (issue 40), with real parts on 127.0.0.1: nodemailer sends to the app's own SMTP
 * listener; Debian's dovecot is the IMAP mailbox the app polls; the notification mails go out through a real SMTP
 * server (tests/helpers/smtp.ts), and their Reply-To is answered through the listener.
 */

const DOMAIN = 'in.crew.test';
/** One secret for every app of the file: a restarted app keeps the sessions (and the sealed addresses). */
const SECRET = randomBytes(32).toString('hex');
const ctx = {} as { app: FastifyInstance; database: Database; config: Config };
let drop: () => Promise<void>;
let outgoing: TestSmtpServer;
let team: TeamScenario;
let projectId: string;
let address: string;
const { call, ok, fails } = apiRequests(() => ctx.app);

function config(over: Partial<Config['inbound']> = {}): Config {
  return testConfig({
    authSecret: SECRET,
    publicUrl: 'https://crew.example',
    mail: { smtpUrl: outgoing.url, from: 'Crewboard <crew@crew.example>', pollIntervalMs: 50 },
    inbound: { domain: DOMAIN, smtpPort: 0, imapUrl: null, imapPollMs: 100, ...over },
  });
}

const listenerPort = () => inboundMailOf(ctx.app)!.smtpPort!;

/** A real SMTP client to the app's listener (no TLS: the listener offers none). */
const send = (message: SendMailOptions) =>
  nodemailer.createTransport({ host: '127.0.0.1', port: listenerPort(), secure: false, ignoreTLS: true }).sendMail(message);

const tasksOf = async (id = projectId) =>
  expandTaskList(await ok<TaskListDto>(team.owner, 'GET', `/api/tasks?projectId=${id}&limit=100`)).tasks;
const taskTitled = async (title: string) => (await tasksOf()).find((t) => t.title === title);
const messageId = () => `<${randomBytes(8).toString('hex')}@outside.test>`;
const to = (email: string) => (m: ReceivedMail) => m.to.includes(email);

/** Stops the app and starts another on the same database (PGlite has one connection: never two apps at once). */
async function restart(next: Config): Promise<void> {
  await ctx.app.close();
  ctx.config = next;
  ctx.app = await buildApp({ config: next, database: ctx.database });
  await ctx.app.ready();
}

beforeAll(async () => {
  outgoing = await startSmtpServer();
  const opened = await openTestDatabase();
  drop = opened.drop;
  ctx.database = opened.database;
  ctx.config = config();
  ctx.app = await buildApp({ config: ctx.config, database: ctx.database });
  await ctx.app.ready();
  team = await teamScenario(ctx as never, 'Mail Crew');
  projectId = (await ok<{ id: string }>(team.owner, 'POST', '/api/projects', { name: 'Help Desk!', teamId: team.team.id }, 201))
    .id;
}, 60_000);

afterAll(async () => {
  await ctx.app?.close();
  await drop?.();
  await outgoing?.stop();
});

describe('the intake address routes', () => {
  it('are for project owners and team admins: members 403, strangers 404, signed-out 401', async () => {
    await fails(team.member, 'GET', `/api/projects/${projectId}/intake`, undefined, 403, 'intake_manage_denied');
    await fails(team.member, 'POST', `/api/projects/${projectId}/intake`, { enabled: true }, 403, 'intake_manage_denied');
    await fails(team.member, 'POST', `/api/projects/${projectId}/intake/reset`, undefined, 403);
    await fails(team.stranger, 'GET', `/api/projects/${projectId}/intake`, undefined, 404, 'project_not_found');
    await fails(team.stranger, 'POST', `/api/projects/${projectId}/intake`, { enabled: true }, 404);
    await fails(team.stranger, 'POST', `/api/projects/${projectId}/intake/reset`, undefined, 404);
    await fails(null, 'GET', `/api/projects/${projectId}/intake`, undefined, 401);
    await fails(team.owner, 'POST', `/api/projects/${projectId}/intake`, { enabled: 'yes' }, 400);
    await fails(team.owner, 'POST', `/api/projects/${projectId}/intake`, { enabled: true, extra: 1 }, 400);
    await fails(team.owner, 'POST', `/api/projects/${projectId}/intake/reset`, undefined, 409, 'intake_off');
  });

  it('turn the address on (owner or admin), show it again, and record it in the audit log', async () => {
    expect(await ok<IntakeDto>(team.owner, 'GET', `/api/projects/${projectId}/intake`)).toEqual({
      enabled: false,
      address: null,
      configured: true,
    });
    const on = await ok<IntakeDto>(team.admin, 'POST', `/api/projects/${projectId}/intake`, { enabled: true });
    expect(on.enabled).toBe(true);
    expect(on.address).toMatch(/^help-desk\+[a-z2-7]{32}@in\.crew\.test$/);
    address = on.address!;
    expect(await ok<IntakeDto>(team.owner, 'GET', `/api/projects/${projectId}/intake`)).toEqual(on);
    // Turning on again changes nothing.
    expect(await ok<IntakeDto>(team.owner, 'POST', `/api/projects/${projectId}/intake`, { enabled: true })).toEqual(on);
    const audit = await ok<{ entries: { action: string }[] }>(team.owner, 'GET', `/api/teams/${team.team.id}/audit`);
    expect(audit.entries.map((e) => e.action)).toContain('project.intake_enabled');
  });
});

describe('a mail to the intake address', () => {
  it('becomes a task: subject, text, attachment, and the requester in its history', async () => {
    await send({
      from: 'Rita Requester <Rita@Outside.test>',
      to: address,
      subject: '  Printer on floor 3 is jammed  ',
      text: 'It blinks red.\n\nThanks, Rita',
      messageId: messageId(),
      attachments: [{ filename: 'photo-notes.txt', content: 'paper tray 2' }],
    });
    const task = await taskTitled('Printer on floor 3 is jammed');
    expect(task?.description).toBe('It blinks red.\n\nThanks, Rita');
    expect(task?.creatorId).toBe(team.admin.id);
    const { activity } = await ok<ActivityListDto>(team.member, 'GET', `/api/tasks/${task!.id}/activity`);
    expect(activity[0]).toMatchObject({ field: 'submitted', newLabel: SUBMITTED_BY_EMAIL, newValue: 'rita@outside.test' });
    const { attachments } = await ok<AttachmentListDto>(team.owner, 'GET', `/api/tasks/${task!.id}/attachments`);
    expect(attachments.map((a) => [a.fileName, a.size])).toEqual([['photo-notes.txt', 12]]);
  });

  it('from a member with that verified address is that member’s task', async () => {
    await ctx.database.db.update(users).set({ emailVerified: true }).where(eq(users.id, team.member.id));
    await send({
      from: team.member.email.toUpperCase(),
      to: address,
      subject: 'From a member',
      text: 'x',
      messageId: messageId(),
    });
    expect((await taskTitled('From a member'))?.creatorId).toBe(team.member.id);
  });

  it('without a subject gets one, and HTML alone becomes Markdown without its script', async () => {
    await send({
      from: 'html@outside.test',
      to: address,
      html: '<style>p{color:red}</style><p>Hello <b>world</b></p><script>alert(1)</script><ul><li>one</li><li>two</li></ul><p><img src="cid:logo"><a href="https://example.org/x">link</a></p>',
      messageId: messageId(),
    });
    const task = await taskTitled('(no subject)');
    expect(task?.description).toContain('Hello **world**');
    expect(task?.description).toContain('-   one');
    expect(task?.description).toContain('[link](https://example.org/x)');
    expect(task?.description).not.toMatch(/alert|<script|color:red|cid:/);
  });

  it('keeps no control characters of a subject (a NUL would fail the insert) and no javascript: link of its HTML', async () => {
    await send({
      from: 'ctrl@outside.test',
      to: address,
      subject: '=?utf-8?q?Broken=00_printer=1B=0D=0AX-Injected:_yes?=',
      html: '<p>See <a href="javascript:alert(document.domain)" onclick="steal()">this</a> and <a href="https://example.org/ok">that</a>.</p>',
      messageId: messageId(),
    });
    const task = await taskTitled('Broken printer X-Injected: yes');
    expect(task?.description).toBe('See this and [that](https://example.org/ok).');
  });

  it('a mail bomb of MIME parts is taken (250) and dropped, without hanging the listener', async () => {
    const part =
      '--B\r\nContent-Type: application/octet-stream\r\nContent-Disposition: attachment; filename="x.bin"\r\n\r\nx\r\n';
    const raw = `From: bomb@outside.test\r\nTo: ${address}\r\nSubject: Bomb\r\nMessage-ID: ${messageId()}\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary="B"\r\n\r\n${part.repeat(1500)}--B--\r\n`;
    await send({ envelope: { from: 'bomb@outside.test', to: [address] }, raw });
    const [row] = await ctx.database.db.select().from(inboundMessages).where(eq(inboundMessages.reason, 'too_many_parts'));
    expect(row).toBeDefined();
    expect(await taskTitled('Bomb')).toBeUndefined();
  });

  it('delivered twice (the same Message-ID) makes one task', async () => {
    const id = messageId();
    const message = { from: 'twice@outside.test', to: address, subject: 'Sent twice', text: 'once please', messageId: id };
    await send(message);
    await send(message);
    // …and a third time straight through the one path, as the IMAP poller would hand it in.
    const raw = `From: twice@outside.test\r\nTo: ${address}\r\nSubject: Sent twice\r\nMessage-ID: ${id}\r\n\r\nonce please\r\n`;
    expect(await inboundMailOf(ctx.app)!.inbound.receive(Buffer.from(raw))).toEqual({ outcome: 'duplicate' });
    expect((await tasksOf()).filter((t) => t.title === 'Sent twice')).toHaveLength(1);
  });

  it('is refused at RCPT for another domain and for an unknown token', async () => {
    await expect(
      send({ from: 'a@outside.test', to: 'someone@other.test', subject: 'Relay?', text: 'x', messageId: messageId() }),
    ).rejects.toMatchObject({ responseCode: 550 });
    const unknown = `help-desk+${'a'.repeat(32)}@${DOMAIN}`;
    await expect(send({ from: 'a@outside.test', to: unknown, subject: 'Guess', text: 'x' })).rejects.toMatchObject({
      responseCode: 550,
    });
    expect(await taskTitled('Relay?')).toBeUndefined();
  });

  it('an automatic answer (out of office) makes nothing', async () => {
    await send({
      from: 'away@outside.test',
      to: address,
      subject: 'Out of office',
      text: 'back Monday',
      headers: { 'Auto-Submitted': 'auto-replied' },
      messageId: messageId(),
    });
    expect(await taskTitled('Out of office')).toBeUndefined();
  });

  it('after a reset, the old address is refused and the new one works', async () => {
    const old = address;
    const reset = await ok<IntakeDto>(team.owner, 'POST', `/api/projects/${projectId}/intake/reset`);
    expect(reset.address).not.toBe(old);
    address = reset.address!;
    await expect(send({ from: 'late@outside.test', to: old, subject: 'To the old address', text: 'x' })).rejects.toMatchObject({
      responseCode: 550,
    });
    // Handed in another way (an IMAP mailbox): dropped.
    const raw = `From: late@outside.test\r\nTo: ${old}\r\nSubject: To the old address\r\nMessage-ID: ${messageId()}\r\n\r\nx\r\n`;
    expect(await inboundMailOf(ctx.app)!.inbound.receive(Buffer.from(raw))).toEqual({
      outcome: 'dropped',
      reason: 'unknown_address',
    });
    await send({ from: 'late@outside.test', to: address, subject: 'To the new address', text: 'x', messageId: messageId() });
    expect(await taskTitled('To the old address')).toBeUndefined();
    expect(await taskTitled('To the new address')).toBeDefined();
  });
});

describe('reply by email', () => {
  let task: TaskDto;
  let replyTo: string;

  it('the assignment mail carries a reply address for the task and the assignee, and the footer', async () => {
    task = await ok<TaskDto>(
      team.owner,
      'POST',
      '/api/tasks',
      { title: 'Replace the toner', projectId, assigneeId: team.member.id },
      201,
    );
    const mail = await outgoing.waitFor((m) => to(team.member.email)(m) && m.subject.includes('Replace the toner'));
    replyTo = mail.parsed.replyTo!.value[0]!.address!;
    expect(replyTo).toMatch(/^reply\+[a-z2-7]{32}@in\.crew\.test$/);
    expect(mail.text).toContain(OUTSIDE_TEXTS.replyFooter);
    expect(mail.html).toContain(OUTSIDE_TEXTS.replyFooter);
    const [row] = await ctx.database.db.select().from(mailReplyTokens).where(eq(mailReplyTokens.userId, team.member.id));
    expect(row).toMatchObject({ taskId: task.id });
    // Only the hash is kept.
    expect(row!.tokenHash).not.toContain(replyTo.slice(6, 38));
  });

  it('a reply from the assignee’s address becomes their comment, without the quote and the signature', async () => {
    await send({
      from: `Mia <${team.member.email}>`,
      to: replyTo,
      subject: 'Re: Assigned to you: Replace the toner',
      text: `On it, will order a cartridge.\n\n-- \nMia Member\nFacilities\n\nOn Sun, Nov 29, 2026 at 9:00 AM Crewboard <crew@crew.example> wrote:\n> A task was assigned to you\n> Olive Owner assigned you “Replace the toner”\n`,
      messageId: messageId(),
    });
    const { comments } = await ok<CommentListDto>(team.owner, 'GET', `/api/tasks/${task.id}/comments`);
    expect(comments).toHaveLength(1);
    expect(comments[0]).toMatchObject({ body: 'On it, will order a cartridge.', author: { id: team.member.id } });
  });

  it('the comment’s notification mail to a watcher carries its own reply address', async () => {
    const mail = await outgoing.waitFor((m) => to(team.owner.email)(m) && m.subject.includes('Replace the toner'));
    const ownerReply = mail.parsed.replyTo!.value[0]!.address!;
    expect(ownerReply).toMatch(/^reply\+[a-z2-7]{32}@in\.crew\.test$/);
    expect(ownerReply).not.toBe(replyTo);
    expect(mail.text).toContain(OUTSIDE_TEXTS.replyFooter);
  });

  it('a reply from another address makes nothing (dropped, with why)', async () => {
    const id = messageId();
    await send({ from: 'impostor@outside.test', to: replyTo, subject: 'Re: toner', text: 'Delete everything', messageId: id });
    await send({ from: team.owner.email, to: replyTo, subject: 'Re: toner', text: 'Not mine either', messageId: messageId() });
    const { comments } = await ok<CommentListDto>(team.owner, 'GET', `/api/tasks/${task.id}/comments`);
    expect(comments.map((c) => c.body)).toEqual(['On it, will order a cartridge.']);
    const rows = await ctx.database.db.select().from(inboundMessages).where(eq(inboundMessages.reason, 'wrong_sender'));
    expect(rows).toHaveLength(2);
  });

  it('the same reply delivered twice is one comment', async () => {
    const message = { from: team.member.email, to: replyTo, subject: 'Re: toner', text: 'Ordered.', messageId: messageId() };
    await send(message);
    await send(message);
    const { comments } = await ok<CommentListDto>(team.owner, 'GET', `/api/tasks/${task.id}/comments`);
    expect(comments.filter((c) => c.body === 'Ordered.')).toHaveLength(1);
  });

  it('from someone who left the team makes nothing', async () => {
    const res = await call(team.owner, 'DELETE', `/api/teams/${team.team.id}/members/${team.memberMemberId}`);
    expect(res.statusCode, res.body).toBe(204);
    await send({ from: team.member.email, to: replyTo, subject: 'Re: toner', text: 'Still here?', messageId: messageId() });
    const { comments } = await ok<CommentListDto>(team.owner, 'GET', `/api/tasks/${task.id}/comments`);
    expect(comments.map((c) => c.body)).not.toContain('Still here?');
  });
});

describe('the rate limit', () => {
  it('defers (451) a sender over `inboundMail`, so that their server tries again later', async () => {
    await restart({ ...config(), rateLimitEnabled: true, rateLimits: { inboundMail: { capacity: 1, windowSeconds: 3600 } } });
    try {
      await send({ from: 'busy@outside.test', to: address, subject: 'First of many', text: 'x', messageId: messageId() });
      await expect(
        send({ from: 'busy@outside.test', to: address, subject: 'Second of many', text: 'x', messageId: messageId() }),
      ).rejects.toMatchObject({ responseCode: 451 });
      expect(await taskTitled('First of many')).toBeDefined();
      expect(await taskTitled('Second of many')).toBeUndefined();
    } finally {
      await restart(config());
    }
  });
});

describe('turning the intake off', () => {
  it('kills the address at once', async () => {
    expect(await ok<IntakeDto>(team.owner, 'POST', `/api/projects/${projectId}/intake`, { enabled: false })).toEqual({
      enabled: false,
      address: null,
      configured: true,
    });
    await expect(send({ from: 'x@outside.test', to: address, subject: 'After off', text: 'x' })).rejects.toMatchObject({
      responseCode: 550,
    });
  });
});

describe('without INBOUND_MAIL_DOMAIN', () => {
  it('the section says it is not set up, and turning on is refused', async () => {
    await restart(testConfig({ authSecret: SECRET }));
    expect(await ok<IntakeDto>(team.owner, 'GET', `/api/projects/${projectId}/intake`)).toEqual({
      enabled: false,
      address: null,
      configured: false,
    });
    await fails(team.owner, 'POST', `/api/projects/${projectId}/intake`, { enabled: true }, 409, 'intake_not_configured');
    expect(inboundMailOf(ctx.app)).toBeUndefined();
    await restart(config());
  });
});

describe('an IMAP mailbox (Debian dovecot)', () => {
  it.skipIf(!hasDovecot())(
    'is polled: an unseen message to the intake address becomes a task and is marked seen (skipped without /usr/sbin/dovecot)',
    async () => {
      const imap = await startDovecot();
      const on = await ok<IntakeDto>(team.owner, 'POST', `/api/projects/${projectId}/intake`, { enabled: true });
      const client = new ImapFlow({
        host: '127.0.0.1',
        port: imap.port,
        secure: false,
        auth: { user: imap.user, pass: imap.password },
        logger: false,
      });
      try {
        await client.connect();
        const raw = [
          'From: Ian <ian@outside.test>',
          `To: help <${on.address}>`,
          'Subject: Polled from IMAP',
          `Message-ID: ${messageId()}`,
          'Content-Type: text/plain; charset=utf-8',
          '',
          'The coffee machine is leaking.',
          '',
        ].join('\r\n');
        // A message that can never be read comes first: it is dropped and marked seen, and does not stop the next.
        const part = '--B\r\nContent-Type: text/plain\r\n\r\nx\r\n';
        const bomb = await client.append(
          'INBOX',
          `From: bomb@outside.test\r\nTo: ${on.address}\r\nSubject: Polled bomb\r\nMessage-ID: ${messageId()}\r\nContent-Type: multipart/mixed; boundary="B"\r\n\r\n${part.repeat(1500)}--B--\r\n`,
        );
        const appended = await client.append('INBOX', raw);
        if (!appended || !bomb) throw new Error('the message was not appended');
        await restart(config({ smtpPort: null, imapUrl: imap.url }));
        await until(async () => (await taskTitled('Polled from IMAP')) !== undefined, 15_000, 'the polled task');
        const task = await taskTitled('Polled from IMAP');
        expect(task?.description).toBe('The coffee machine is leaking.');
        await until(
          async () => {
            const lock = await client.getMailboxLock('INBOX');
            try {
              const seen = async (uid: number) =>
                !!((await client.fetchOne(String(uid), { flags: true }, { uid: true })) || undefined)?.flags?.has('\\Seen');
              return (await seen(appended.uid!)) && (await seen(bomb.uid!));
            } finally {
              lock.release();
            }
          },
          15_000,
          'the message to be marked seen',
        );
        // Polled again meanwhile: still one task.
        const poller = inboundMailOf(ctx.app)!.poller!;
        const polls = poller.polls;
        await until(() => poller.polls > polls + 1, 15_000, 'two more polls');
        expect((await tasksOf()).filter((t) => t.title === 'Polled from IMAP')).toHaveLength(1);
        expect(await taskTitled('Polled bomb')).toBeUndefined();
      } finally {
        if (client.usable) await client.logout().catch(() => {});
        // The poller meets a closed port until the app closes (afterAll): it waits and tries again.
        await imap.stop();
      }
    },
    60_000,
  );
});
