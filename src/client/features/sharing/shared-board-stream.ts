import { backoffDelay, readEvents, sleep, streamAttempt } from '../../lib/sse';

/** The server writes a comment every 25 s; silence for longer means a dead connection. */
const SILENCE_MS = 60_000;

/**
 * The shared board's live updates: `GET /api/share/:token/events`, read with fetch as the app's own stream is (no
 * session here, nothing to authenticate). Every `changed` calls `onChanged`; the stream is opened again after a
 * break (or a 429: too many streams from this address) with a growing, jittered wait, and `onChanged` is called then
 * too (changes may have been missed). A 404 (the link was turned off or reset) ends it: `onGone`. Runs until `signal`
 * aborts or the link is gone.
 */
export async function followSharedBoard(
  token: string,
  handlers: { onChanged: () => void; onGone: () => void },
  signal: AbortSignal,
): Promise<void> {
  let attempt = 0;
  let connectedBefore = false;
  while (!signal.aborted) {
    const connection = streamAttempt(signal, SILENCE_MS);
    const { alive } = connection;
    try {
      const res = await fetch(`/api/share/${encodeURIComponent(token)}/events`, {
        headers: { accept: 'text/event-stream' },
        cache: 'no-store',
        signal: connection.signal,
      });
      // 404: turned off or reset; 400: no token could look like that.
      if (res.status === 404 || res.status === 400) {
        handlers.onGone();
        return;
      }
      if (res.ok && res.body) {
        alive();
        if (connectedBefore) handlers.onChanged();
        connectedBefore = true;
        attempt = 0;
        await readEvents(res.body, alive, (m) => {
          if (m.event === 'changed') handlers.onChanged();
        });
        // The server ended the stream: the link may be gone (the board's read and the next attempt say so).
        handlers.onChanged();
      }
    } catch {
      // A network failure or an abort: retried below.
    } finally {
      connection.close();
    }
    if (signal.aborted) return;
    await sleep(backoffDelay(attempt++), signal);
  }
}
