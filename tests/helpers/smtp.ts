import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** A message the test server accepted (replied 250 to, on a connection still open). */
export interface ReceivedMail {
  /** The envelope's recipients (RCPT TO). */
  to: string[];
  parsed: ParsedMail;
  text: string;
  html: string;
  subject: string;
}

export interface TestSmtpServer {
  /** `smtp://user:password@127.0.0.1:<port>`: what SMTP_URL would say. */
  url: string;
  port: number;
  /** Every accepted message, in order. */
  received: ReceivedMail[];
  /** Messages whose data arrived, accepted or not (for waiting until a delivery is under way). */
  dataStarted: number;
  /** The sign-ins the server saw (user names). */
  logins: string[];
  /** Before answering a message's data, wait this long (a slow server); Infinity never answers. */
  replyDelayMs: number;
  /** Resolves with the first accepted message that matches, waiting for it if need be. */
  waitFor(match: (mail: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  /** Resolves once `count` messages have started their data. */
  waitForData(count: number, timeoutMs?: number): Promise<void>;
  /** Closes the port (connections are refused) until `start()` opens the same one again. */
  stop(): Promise<void>;
  start(): Promise<void>;
}

export const SMTP_USER = 'crewboard';
export const SMTP_PASSWORD = 'smtp-secret-1';

/** Polls `check` until it holds (a condition to wait for, not a sleep). */
export async function until(check: () => boolean | Promise<boolean>, timeoutMs = 15_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * A real SMTP server on 127.0.0.1 (the smtp-server package) that requires a sign-in, takes every message and keeps
 * it parsed (mailparser). A message counts as delivered when the server replies 250 to it on a live connection, as
 * a mail server takes responsibility for a message only then.
 */
export async function startSmtpServer(): Promise<TestSmtpServer> {
  let server: SMTPServer | null = null;
  const closed = new Set<string>();
  const state: TestSmtpServer = {
    url: '',
    port: 0,
    received: [],
    dataStarted: 0,
    logins: [],
    replyDelayMs: 0,
    async waitFor(match, timeoutMs = 15_000) {
      await until(() => state.received.some(match), timeoutMs, 'a mail');
      return state.received.find(match)!;
    },
    async waitForData(count, timeoutMs = 15_000) {
      await until(() => state.dataStarted >= count, timeoutMs, `${count} messages' data`);
    },
    async stop() {
      const s = server;
      server = null;
      if (!s) return;
      await new Promise<void>((resolve) => s.close(() => resolve()));
    },
    async start() {
      server = create();
      await new Promise<void>((resolve, reject) => {
        server!.once('error', reject);
        server!.listen(state.port, '127.0.0.1', () => resolve());
      });
      state.port = (server.server.address() as AddressInfo).port;
      state.url = `smtp://${SMTP_USER}:${SMTP_PASSWORD}@127.0.0.1:${state.port}`;
    },
  };

  const create = () =>
    new SMTPServer({
      secure: false,
      disabledCommands: ['STARTTLS'],
      allowInsecureAuth: true,
      logger: false,
      // close() ends open connections at once, like a server going down.
      closeTimeout: 100,
      onAuth(auth, _session, callback) {
        if (auth.username !== SMTP_USER || auth.password !== SMTP_PASSWORD)
          return callback(new Error('Invalid username or password'));
        state.logins.push(auth.username);
        callback(null, { user: auth.username });
      },
      onClose(session) {
        closed.add(session.id);
      },
      onData(stream, session, callback) {
        // The delay in force when the data starts holds for this message.
        const delay = state.replyDelayMs;
        state.dataStarted += 1;
        simpleParser(stream)
          .then(async (parsed) => {
            if (delay === Number.POSITIVE_INFINITY) await until(() => closed.has(session.id), 120_000, 'the client to leave');
            else if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
            if (closed.has(session.id)) return;
            state.received.push({
              to: session.envelope.rcptTo.map((r) => r.address),
              parsed,
              text: parsed.text ?? '',
              html: typeof parsed.html === 'string' ? parsed.html : '',
              subject: parsed.subject ?? '',
            });
            callback(null);
          })
          .catch((err: Error) => callback(err));
      },
    });

  await state.start();
  return state;
}
