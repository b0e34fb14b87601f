import type { TestUser } from '../factories';

export interface Message {
  event: string;
  data: Record<string, unknown>;
}

/** A minimal SSE reader over fetch, like the browser client's. */
export class Stream {
  readonly messages: Message[] = [];
  private waiters: (() => void)[] = [];
  private readonly abort = new AbortController();
  status = 0;
  ended = false;

  static async open(url: string, user: TestUser | null): Promise<Stream> {
    const stream = new Stream();
    const res = await fetch(`${url}/api/events`, {
      headers: user ? { authorization: user.auth.authorization, accept: 'text/event-stream' } : {},
      signal: stream.abort.signal,
    });
    stream.status = res.status;
    if (res.ok && res.body) {
      void stream.pump(res.body);
      await stream.next((m) => m.event === 'ready');
    }
    return stream;
  }

  private async pump(body: ReadableStream<Uint8Array>) {
    const reader = body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let cut = buffer.indexOf('\n\n');
        while (cut >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          let event = 'message';
          let data = '';
          for (const line of block.split('\n')) {
            if (line.startsWith('event: ')) event = line.slice(7);
            else if (line.startsWith('data: ')) data += line.slice(6);
          }
          if (data) this.messages.push({ event, data: JSON.parse(data) });
          cut = buffer.indexOf('\n\n');
        }
        for (const w of this.waiters.splice(0)) w();
      }
    } catch {
      // aborted
    }
    this.ended = true;
    for (const w of this.waiters.splice(0)) w();
  }

  /** The first message matching `match`, waiting up to `timeoutMs`; undefined when none came. */
  async next(match: (m: Message) => boolean, timeoutMs = 2000): Promise<Message | undefined> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages.find(match);
      if (found || this.ended) return found;
      const left = deadline - Date.now();
      if (left <= 0) return undefined;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  events(type: string) {
    return this.messages.filter((m) => m.event === 'message' && m.data.type === type);
  }

  close() {
    this.abort.abort();
  }
}
