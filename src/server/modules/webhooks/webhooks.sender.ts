import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { type ResolvedAddress, resolveWebhookHost } from './webhook-address';

export const WEBHOOK_USER_AGENT = 'Crewboard-Webhooks/1';

export interface OutgoingWebhook {
  url: string;
  /** `whsec_…` */
  secret: string;
  messageId: string;
  body: string;
}

export interface SendResult {
  /** The answer's status; null when none came (refused, unreachable, timed out). */
  statusCode: number | null;
  durationMs: number;
  /** Why it did not count as delivered (null when it did: a 2xx). */
  error: string | null;
  delivered: boolean;
}

export interface SendOptions {
  timeoutMs: number;
  allowPrivate: boolean;
  signal?: AbortSignal;
}

/** The Standard Webhooks headers of one attempt: its id, its time, and `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`. */
export function signedHeaders(message: OutgoingWebhook, at: Date): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': WEBHOOK_USER_AGENT,
    'webhook-id': message.messageId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(message.secret).sign(message.messageId, at, message.body),
  };
}

/**
 * One attempt: the host is resolved and vetted (SSRF, unless `allowPrivate`), then the body is POSTed to the vetted
 * address itself (the socket's lookup is pinned to it: no second DNS answer can swap it; TLS still checks the name).
 * Redirects are not followed: a 3xx is a failure. The whole exchange is bounded by `timeoutMs`.
 */
export async function sendWebhook(message: OutgoingWebhook, options: SendOptions): Promise<SendResult> {
  const started = performance.now();
  const took = () => Math.round(performance.now() - started);
  const url = new URL(message.url);
  const resolved = await resolveWebhookHost(url, options.allowPrivate);
  if (!resolved.ok) return { statusCode: null, durationMs: took(), error: resolved.detail, delivered: false };
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  try {
    const statusCode = await post(url, resolved.address, signedHeaders(message, new Date()), message.body, signal);
    const delivered = statusCode >= 200 && statusCode < 300;
    const error = delivered
      ? null
      : statusCode >= 300 && statusCode < 400
        ? `answered ${statusCode} (redirects are not followed)`
        : `answered ${statusCode}`;
    return { statusCode, durationMs: took(), error, delivered };
  } catch (err) {
    const error = timeout.aborted
      ? `timed out after ${options.timeoutMs} ms`
      : signal.aborted
        ? 'abandoned: the server is stopping'
        : errorText(err);
    return { statusCode: null, durationMs: took(), error, delivered: false };
  }
}

function post(url: URL, address: ResolvedAddress, headers: Record<string, string>, body: string, signal: AbortSignal) {
  const pinned: LookupFunction = (_host, options, callback) => {
    if ((options as { all?: boolean }).all) {
      (callback as unknown as (err: null, list: { address: string; family: number }[]) => void)(null, [address]);
    } else {
      callback(null, address.address, address.family);
    }
  };
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<number>((resolve, reject) => {
    const req = client.request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        lookup: pinned,
        signal,
        // One connection per attempt: a kept socket would skip the vetting of the next one.
        agent: false,
      },
      (res) => {
        // The answer's body is not read: only its status counts.
        res.resume();
        res.on('error', () => {});
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

function errorText(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  const text = e?.code ? `${e.code}: ${e.message}` : err instanceof Error ? err.message : String(err);
  return text.slice(0, 500);
}
