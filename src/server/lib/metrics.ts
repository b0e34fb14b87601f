import { createServer, type Server } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Counter, Histogram, Registry } from 'prom-client';
import type { Database } from '../db/client';
import type { OutboxDepth } from '../db/outbox-depth';
import { wrapPoolConnect } from './pool-hooks';

/**
 * Prometheus metrics (issue 42): `GET /metrics` in the text format, on a listener of its own (METRICS_PORT, on HOST),
 * never on the app's port. Off unless METRICS_PORT is set: then nothing here is loaded, not even prom-client, and no
 * hook is added to a request.
 */

declare module 'fastify' {
  interface FastifyInstance {
    /** Set when METRICS_PORT is: main.ts opens its listener. */
    metrics: AppMetrics | null;
  }
}

export interface AppMetrics {
  registry: Registry;
  /** Opens the metrics listener (closed with the app). */
  listen(port: number, host: string): Promise<Server>;
}

export interface MetricsSources {
  database: Database;
  /** The outboxes' pending rows, read at scrape time. */
  readOutboxes(): Promise<OutboxDepth[]>;
}

/** The route label of a request no route matched (404s, and the app's pages answered by the not-found handler). */
export const UNMATCHED_ROUTE = '(unmatched)';

/** Routes whose one request is a connection held open: counted as realtime connections, not timed. */
const STREAM_ROUTES: Readonly<Record<string, RealtimeKind>> = {
  '/api/events': 'sse_events',
  '/api/share/:token/events': 'sse_share',
  '/api/notes/:id/socket': 'notes_socket',
};
type RealtimeKind = 'sse_events' | 'sse_share' | 'notes_socket';
type SocketHandler = (
  this: unknown,
  socket: { once(event: 'close', listener: () => void): unknown },
  ...rest: unknown[]
) => unknown;

/** Seconds; API answers are mostly a few ms, a 500-task page some tens. */
const REQUEST_BUCKETS = [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const POOL_WAIT_BUCKETS = [0.0005, 0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
/** A scrape reads the outboxes once, however many families show what it read. */
const OUTBOX_READ_MAX_AGE_MS = 1000;

export async function installMetrics(app: FastifyInstance, sources: MetricsSources): Promise<AppMetrics> {
  const prom = await import('prom-client');
  const registry = new prom.Registry();
  // Event-loop lag (nodejs_eventloop_lag_*), memory (process_resident_memory_bytes, nodejs_heap_*, external), GC, handles.
  prom.collectDefaultMetrics({ register: registry });

  const labelNames = ['method', 'route', 'status'] as const;
  const requests: Counter<(typeof labelNames)[number]> = new prom.Counter({
    name: 'crewboard_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern (never the raw URL) and status',
    labelNames,
    registers: [registry],
  });
  const durations: Histogram<(typeof labelNames)[number]> = new prom.Histogram({
    name: 'crewboard_http_request_duration_seconds',
    help: 'Time from the request to the end of its answer (streams and sockets excluded)',
    labelNames,
    buckets: REQUEST_BUCKETS,
    registers: [registry],
  });

  const open: Record<RealtimeKind, number> = { sse_events: 0, sse_share: 0, notes_socket: 0 };
  new prom.Gauge({
    name: 'crewboard_realtime_connections',
    help: "This instance's open realtime connections: SSE event streams (sse_events), shared-board streams (sse_share), note sockets (notes_socket)",
    labelNames: ['kind'],
    registers: [registry],
    collect() {
      for (const kind of Object.keys(open) as RealtimeKind[]) this.set({ kind }, open[kind]);
    },
  });

  // Counted on those routes alone, until their connection closes: an SSE stream from its handler (past authentication
  // and validation), a note socket from its handler (the upgrade done).
  app.addHook('onRoute', (route) => {
    const kind = STREAM_ROUTES[route.url];
    if (kind === 'notes_socket') {
      // A WebSocket route's handler is called with the socket (@fastify/websocket).
      const handler = route.handler as unknown as SocketHandler;
      const counted: SocketHandler = function (this: unknown, socket, ...rest) {
        open.notes_socket++;
        socket.once('close', () => open.notes_socket--);
        return handler.call(this, socket, ...rest);
      };
      route.handler = counted as unknown as typeof route.handler;
      return;
    }
    if (kind !== 'sse_events' && kind !== 'sse_share') return;
    const countOpen = (_req: FastifyRequest, reply: FastifyReply, done: () => void) => {
      open[kind]++;
      reply.raw.once('close', () => open[kind]--);
      done();
    };
    const own = route.preHandler;
    route.preHandler = own ? [...(Array.isArray(own) ? own : [own]), countOpen] : countOpen;
  });
  app.addHook('onResponse', (req: FastifyRequest, reply: FastifyReply, done) => {
    const route = req.routeOptions.url ?? UNMATCHED_ROUTE;
    const labels = { method: req.method, route, status: String(reply.statusCode) };
    requests.inc(labels);
    if (!STREAM_ROUTES[route]) durations.observe(labels, reply.elapsedTime / 1000);
    done();
  });

  installPoolMetrics(prom, registry, sources.database);
  installOutboxMetrics(prom, registry, sources, app);

  let server: Server | null = null;
  app.addHook('onClose', async () => {
    if (server) await new Promise<void>((resolve) => server!.close(() => resolve()));
  });
  return {
    registry,
    listen: (port, host) =>
      new Promise((resolve, reject) => {
        const listener = createServer((req, res) => {
          const path = (req.url ?? '').split('?')[0];
          if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
            res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found: GET /metrics\n');
            return;
          }
          registry.metrics().then(
            (text) => {
              res.writeHead(200, { 'content-type': registry.contentType, 'cache-control': 'no-store' });
              res.end(req.method === 'HEAD' ? undefined : text);
            },
            (error: unknown) => {
              app.log.warn({ err: error }, 'metrics: a scrape failed');
              res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('metrics unavailable\n');
            },
          );
        });
        listener.once('error', reject);
        listener.listen(port, host, () => {
          listener.off('error', reject);
          server = listener;
          resolve(listener);
        });
      }),
  };
}

type Prom = typeof import('prom-client');

/**
 * PostgreSQL: each pool's connections in use and idle, its limit, the requests waiting for one, and how long getting a
 * connection took. PGlite is one in-process connection whose queries run one at a time: it has no pool to report
 * (crewboard_db_engine says which engine answers).
 */
function installPoolMetrics(prom: Prom, registry: Registry, database: Database): void {
  new prom.Gauge({
    name: 'crewboard_db_engine',
    help: 'The database engine (1 for the one in use): postgres (a pool of connections) or pglite (embedded, no pool)',
    labelNames: ['engine'],
    registers: [registry],
  }).set({ engine: database.kind }, 1);
  const pools = [
    ['main', database.pool],
    ['prepared', database.preparedPool],
  ] as const;
  if (!database.pool) return;
  new prom.Gauge({
    name: 'crewboard_db_pool_connections',
    help: 'PostgreSQL connections of each pool (main; prepared: the board prepared statements), by state',
    labelNames: ['pool', 'state'],
    registers: [registry],
    collect() {
      for (const [name, pool] of pools) {
        if (!pool) continue;
        this.set({ pool: name, state: 'idle' }, pool.idleCount);
        this.set({ pool: name, state: 'in_use' }, pool.totalCount - pool.idleCount);
      }
    },
  });
  new prom.Gauge({
    name: 'crewboard_db_pool_max_connections',
    help: 'The most connections each pool opens',
    labelNames: ['pool'],
    registers: [registry],
    collect() {
      for (const [name, pool] of pools) if (pool) this.set({ pool: name }, pool.options.max ?? 10);
    },
  });
  new prom.Gauge({
    name: 'crewboard_db_pool_waiting_requests',
    help: 'Queries and transactions waiting for a connection of each pool',
    labelNames: ['pool'],
    registers: [registry],
    collect() {
      for (const [name, pool] of pools) if (pool) this.set({ pool: name }, pool.waitingCount);
    },
  });
  const wait = new prom.Histogram({
    name: 'crewboard_db_pool_wait_seconds',
    help: 'Time to get a connection from a pool (a free one, a new one, or one released to a waiting request)',
    labelNames: ['pool'],
    buckets: POOL_WAIT_BUCKETS,
    registers: [registry],
  });
  for (const [name, pool] of pools) {
    if (!pool) continue;
    const child = wait.labels({ pool: name });
    wrapPoolConnect(pool, (_client, started) => child.observe((performance.now() - started) / 1000));
  }
}

/** Each outbox's pending rows and the age of the oldest, read when scraped (one statement each, at most once a second). */
function installOutboxMetrics(prom: Prom, registry: Registry, sources: MetricsSources, app: FastifyInstance): void {
  let last: { at: number; read: Promise<OutboxDepth[] | null> } | null = null;
  const read = () => {
    if (!last || performance.now() - last.at > OUTBOX_READ_MAX_AGE_MS) {
      last = {
        at: performance.now(),
        read: sources.readOutboxes().catch((error: unknown) => {
          app.log.warn({ err: error }, 'metrics: reading the outboxes failed');
          return null;
        }),
      };
    }
    return last.read;
  };
  new prom.Gauge({
    name: 'crewboard_outbox_depth',
    help: 'Messages waiting in each outbox (mail, webhooks): not yet delivered, not given up',
    labelNames: ['outbox'],
    registers: [registry],
    async collect() {
      this.reset();
      for (const row of (await read()) ?? []) this.set({ outbox: row.outbox }, row.depth);
    },
  });
  new prom.Gauge({
    name: 'crewboard_outbox_oldest_age_seconds',
    help: 'How long the oldest waiting message of each outbox has waited (0 when none waits)',
    labelNames: ['outbox'],
    registers: [registry],
    async collect() {
      this.reset();
      for (const row of (await read()) ?? []) this.set({ outbox: row.outbox }, row.oldestAgeSeconds);
    },
  });
}
