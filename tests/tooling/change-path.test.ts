// Issue 34: outside the subscribers and the change recorder, no service calls the audit, webhook, mail or realtime code
// directly. A service states its change with `record(change)` (src/server/lib/changes.ts); src/server/subscribers/ turn it
// into audit rows, webhook deliveries, mail and realtime events. This reads every file of the server's modules.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..', '..');
const MODULES = join(ROOT, 'src', 'server', 'modules');

/**
 * What only the change path may do: append an audit row, queue a webhook event, queue a mail, publish on the event bus.
 * (Definitions are not calls: `function enqueueMail(` is the outbox itself.)
 */
const DIRECT: { what: string; pattern: RegExp }[] = [
  { what: 'writes an audit row', pattern: /(?<!function\s)\brecordAudit\s*\(/ },
  {
    what: 'queues a webhook event',
    pattern: /(?<!function\s)\b(?:enqueueWebhookEvent|memberWebhookEvent|projectWebhookEvent)\s*\(/,
  },
  { what: 'queues a mail', pattern: /(?<!function\s)\benqueueMails?\s*\(/ },
  { what: 'publishes a realtime event', pattern: /\bevents\.publish\s*\(/ },
];

/**
 * The delivery machinery itself, which the subscribers call: the audit log, the mail outbox and its worker, the webhook
 * outbox and its sender (which mails a hook's owners when it keeps failing), the realtime stream, the notification
 * writer (a listener of the event bus), and the daily digest (a scheduled mail that no change causes).
 */
const MACHINERY = [
  'audit/',
  'mail/',
  'realtime/',
  'digest/',
  'notifications/notifications.service.ts',
  'webhooks/webhooks.outbox.ts',
  'webhooks/webhooks.worker.ts',
  'webhooks/webhook-failing.ts',
];

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return files(path);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [path] : [];
  });
}

/** Each direct call in `text`, as `what` and its line. */
function directCalls(text: string): { what: string; line: number }[] {
  const found: { what: string; line: number }[] = [];
  text.split('\n').forEach((line, i) => {
    if (/^\s*(\/\/|\*|\/\*)/.test(line)) return;
    for (const { what, pattern } of DIRECT) if (pattern.test(line)) found.push({ what, line: i + 1 });
  });
  return found;
}

describe('the one path for every change', () => {
  it('no module outside the delivery machinery writes audit rows, webhook events, mail or realtime events itself', () => {
    const offenders = files(MODULES)
      .map((path) => relative(MODULES, path).split('\\').join('/'))
      .filter((rel) => !MACHINERY.some((m) => (m.endsWith('/') ? rel.startsWith(m) : rel === m)))
      .flatMap((rel) => directCalls(readFileSync(join(MODULES, rel), 'utf8')).map((c) => `${rel}:${c.line} ${c.what}`));
    expect(offenders).toEqual([]);
  });

  it('the check finds each kind of direct call (it can fail)', () => {
    const probe = [
      'await recordAudit(tx, { action: "team.deleted" });',
      "await enqueueWebhookEvent(tx, { type: 'task.created' });",
      'await memberWebhookEvent(tx, event);',
      'await enqueueMail(tx, mail);',
      'await enqueueMails(tx, mails);',
      "this.events.publish({ type: 'task.updated' });",
      "this.deps.events.publish({ type: 'note.created' });",
    ].join('\n');
    expect(directCalls(probe).map((c) => c.what)).toEqual([
      'writes an audit row',
      'queues a webhook event',
      'queues a webhook event',
      'queues a mail',
      'queues a mail',
      'publishes a realtime event',
      'publishes a realtime event',
    ]);
    // Definitions, comments and the change path itself are not direct calls.
    expect(
      directCalls(
        [
          'export async function enqueueMail(db: DbOrTx, mail: OutgoingMail) {',
          '// recordAudit(tx, …) is the subscriber’s',
          "await record({ kind: 'team.deleted', teamId, teamName });",
        ].join('\n'),
      ),
    ).toEqual([]);
  });
});
