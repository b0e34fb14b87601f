/**
 * Server-Sent Events read with fetch (the signed-in app's stream and the shared board's), and the wait between
 * attempts to open one: no library, nothing of the app, so a public page can use it without the app's weight.
 */

const BACKOFF_BASE_MS = 500;
const BACKOFF_MAX_MS = 15_000;

/** The wait before attempt `n` (from 0): half its ceiling (doubling, at most 15 s), plus up to as much again. */
export function backoffDelay(attempt: number): number {
  const ceiling = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** attempt);
  return ceiling / 2 + Math.random() * (ceiling / 2);
}

export interface SseMessage {
  event: string;
  data: string;
}

/** Splits an SSE byte stream into messages (comments, i.e. heartbeats, yield nothing but count as life). */
export async function readEvents(
  body: ReadableStream<Uint8Array>,
  onAlive: () => void,
  onMessage: (m: SseMessage) => void,
): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    onAlive();
    buffer += decoder.decode(value, { stream: true }).replace(/\r\n?/g, '\n');
    let cut = buffer.indexOf('\n\n');
    while (cut >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      let event = 'message';
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event:')) event = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
      }
      if (data.length) onMessage({ event, data: data.join('\n') });
      cut = buffer.indexOf('\n\n');
    }
  }
}

/** Waits `ms`, or less when `signal` aborts meanwhile. */
export const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const abort = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', abort);
      resolve();
    }, ms);
    signal.addEventListener('abort', abort, { once: true });
  });

/**
 * One attempt at opening a stream: the signal for its fetch, aborted when `signal` is or when `alive()` has not been
 * called for `silenceMs` (a dead connection); `close()` once the attempt is over.
 */
export function streamAttempt(signal: AbortSignal, silenceMs: number) {
  const connection = new AbortController();
  const stop = () => connection.abort();
  signal.addEventListener('abort', stop);
  let watchdog: ReturnType<typeof setTimeout> | undefined;
  return {
    signal: connection.signal,
    alive: () => {
      clearTimeout(watchdog);
      watchdog = setTimeout(stop, silenceMs);
    },
    close: () => {
      clearTimeout(watchdog);
      signal.removeEventListener('abort', stop);
    },
  };
}
