import type { ImapFlow } from 'imapflow';
import { OUTSIDE_LIMITS } from '../../../domain/constants';
import type { ReceiveResult } from './inbound-mail.service';

interface Logger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/** After a failure, the next connection waits 1 s, then twice as long each time, at most this long. */
const MAX_BACKOFF_MS = 5 * 60_000;

/** IMAP_URL's parts: `imap://user:password@host:port/mailbox` (STARTTLS when offered) or `imaps://…`. */
export function imapOptions(url: string) {
  const parsed = new URL(url);
  const secure = parsed.protocol === 'imaps:';
  return {
    host: parsed.hostname,
    port: parsed.port ? Number(parsed.port) : secure ? 993 : 143,
    secure,
    auth: { user: decodeURIComponent(parsed.username), pass: decodeURIComponent(parsed.password) },
    mailbox: decodeURIComponent(parsed.pathname.replace(/^\//, '')) || 'INBOX',
  };
}

/**
 * Polls an IMAP mailbox (IMAP_URL, issue 40), for hosts that cannot receive on port 25: every `pollMs`, each unseen
 * message is handed to `receive` and then marked \Seen (left in the mailbox: its owner decides what to keep). A message
 * deferred (the rate limit) stays unseen for the next poll; one too large is marked seen unread. A lost connection is
 * made again with backoff. Stops when the app closes.
 */
export class ImapPoller {
  private stopping = false;
  private client: ImapFlow | null = null;
  private wake: (() => void) | null = null;
  private running: Promise<void> | null = null;
  /** Completed polls (a test waits for one). */
  polls = 0;

  constructor(
    private readonly url: string,
    private readonly pollMs: number,
    private readonly receive: (raw: Buffer) => Promise<ReceiveResult>,
    private readonly log: Logger,
  ) {}

  start(): void {
    this.running ??= this.loop();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.wake?.();
    this.client?.close();
    await this.running;
  }

  private async loop(): Promise<void> {
    let failures = 0;
    while (!this.stopping) {
      try {
        await this.connect();
        while (!this.stopping) {
          await this.poll();
          // Only a poll that went through ends the backoff (a server that lets us in but fails each poll is waited for).
          failures = 0;
          this.polls += 1;
          await this.sleep(this.pollMs);
        }
      } catch (error) {
        if (this.stopping) break;
        failures += 1;
        const wait = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** (failures - 1));
        this.log.warn({ err: error, retryInMs: wait }, 'inbound mail: IMAP polling failed');
        await this.sleep(wait);
      } finally {
        await this.disconnect();
      }
    }
  }

  private async connect(): Promise<void> {
    const { mailbox: _mailbox, ...options } = imapOptions(this.url);
    // Loaded here, not with the server: a server without IMAP_URL never loads it (issue 42, memory).
    const { ImapFlow } = await import('imapflow');
    const client = new ImapFlow({ ...options, logger: false, disableAutoIdle: true, emitLogs: false });
    // A dropped connection surfaces as the next command's failure; the event itself is only noted.
    client.on('error', (error: Error) => this.log.warn({ err: error }, 'inbound mail: IMAP connection error'));
    this.client = client;
    await client.connect();
  }

  private async disconnect(): Promise<void> {
    const client = this.client;
    this.client = null;
    if (!client) return;
    await client.logout().catch(() => client.close());
  }

  private async poll(): Promise<void> {
    const client = this.client!;
    const lock = await client.getMailboxLock(imapOptions(this.url).mailbox);
    let failed: unknown = null;
    try {
      const uids = (await client.search({ seen: false }, { uid: true })) || [];
      for (const uid of uids) {
        if (this.stopping) return;
        // Its size first: a message over the limit is never downloaded.
        const head = await client.fetchOne(String(uid), { size: true }, { uid: true });
        if (!head) continue;
        const source =
          (head.size ?? 0) > OUTSIDE_LIMITS.inboundMessageBytes
            ? undefined
            : ((await client.fetchOne(String(uid), { source: true }, { uid: true })) || undefined)?.source;
        if (source) {
          // A message that cannot be taken now (the database away) stays unseen; the others are still tried, and the
          // poll then counts as failed (backoff). `receive` drops what no retry would fix (unreadable, refused).
          const result = await this.receive(source).catch((error: unknown) => {
            failed = error;
            this.log.warn({ err: error, uid }, 'inbound mail: a polled message could not be taken; tried again later');
            return null;
          });
          if (!result || result.outcome === 'deferred') continue;
        } else {
          this.log.warn({ uid, size: head.size }, 'inbound mail: dropped, too large');
        }
        await client.messageFlagsAdd(String(uid), ['\\Seen'], { uid: true });
      }
    } finally {
      lock.release();
    }
    if (failed) throw failed;
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    });
  }
}
