import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** What the receiver answered (null: it did not, e.g. it was still waiting when the sender gave up). */
  status: number | null;
}

/** How the receiver answers one request: a status, optionally after a delay, optionally with headers. */
export interface ReceiverAnswer {
  status: number;
  delayMs?: number;
  headers?: Record<string, string>;
}

export interface WebhookReceiver {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  port: number;
  received: ReceivedWebhook[];
  /** Requests to one path. */
  at(path: string): ReceivedWebhook[];
  /** How each path answers: `(request, n)` with n the 1-based count of requests to that path. Default 200. */
  answer: (request: ReceivedWebhook, n: number) => ReceiverAnswer;
  close(): Promise<void>;
}

/** A real HTTP server on 127.0.0.1 (a random port) that keeps every request it gets and answers as told. */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const counts = new Map<string, number>();
  const receiver: WebhookReceiver = {
    origin: '',
    port: 0,
    received: [],
    at: (path) => receiver.received.filter((r) => r.path === path),
    answer: () => ({ status: 200 }),
    close: async () => {},
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0]!;
      const request: ReceivedWebhook = { path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), status: null };
      receiver.received.push(request);
      const n = (counts.get(path) ?? 0) + 1;
      counts.set(path, n);
      const answer = receiver.answer(request, n);
      const send = () => {
        if (res.destroyed) return;
        request.status = answer.status;
        res.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers });
        res.end('ok');
      };
      if (answer.delayMs) setTimeout(send, answer.delayMs).unref();
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  receiver.port = port;
  receiver.origin = `http://127.0.0.1:${port}`;
  receiver.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}
