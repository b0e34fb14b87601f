import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createServer as createHttpServer, request, type Server } from 'node:http';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/free-port';
import { rawSocket } from '../helpers/note-socket';
import { createScratchTarget, type ScratchTarget } from '../helpers/scratch-db';
import { waitUntilHealthy } from '../helpers/wait-healthy';

/**
 * Metrics and traces (issue 42) of the real server (src/server/main.ts through tsx, as `npm start` runs it) on the
 * engine of this run: /metrics on METRICS_PORT, parsed by outside Prometheus text-format parsers (Prometheus's own
 * `promtool check metrics`, from Debian's prometheus package, and parse-prometheus-text-format from npm); spans sent to a local OTLP/HTTP receiver, read in OTLP's JSON encoding
 * (the protobuf JSON mapping of opentelemetry-proto's trace.proto, which the official exporter sends).
 */

const onPostgres = Boolean(process.env.DATABASE_URL);
/** Prometheus's own parser and linter (Debian's `prometheus` package), when installed: CI installs it (.ci/run). */
const promtool = spawnSync('promtool', ['--version']).status === 0;

// OTLP/JSON (opentelemetry-proto, ExportTraceServiceRequest): what the receiver reads.
interface OtlpAnyValue {
  stringValue?: string;
  intValue?: number | string;
  boolValue?: boolean;
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: { key: string; value: OtlpAnyValue }[];
  status?: { code?: number };
}
interface OtlpRequest {
  resourceSpans: {
    resource?: { attributes?: { key: string; value: OtlpAnyValue }[] };
    scopeSpans: { spans: OtlpSpan[] }[];
  }[];
}
/** SpanKind in trace.proto. */
const SPAN_KIND_SERVER = 2;
const SPAN_KIND_CLIENT = 3;

const attr = (span: OtlpSpan, key: string) => {
  const value = span.attributes?.find((a) => a.key === key)?.value;
  if (!value) return undefined;
  return value.stringValue ?? (value.intValue !== undefined ? Number(value.intValue) : value.boolValue);
};

interface Family {
  name: string;
  type: string;
  metrics: { labels?: Record<string, string>; value?: string; count?: string; buckets?: Record<string, string> }[];
}

let target: ScratchTarget;
let child: ChildProcess;
let receiver: Server;
let output = '';
let appUrl = '';
let metricsUrl = '';
const exports: { contentType: string; body: OtlpRequest }[] = [];

beforeAll(async () => {
  if (process.env.CI && !promtool) throw new Error('promtool is missing: .ci/run installs Debian prometheus');
  receiver = createHttpServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/v1/traces') {
        exports.push({
          contentType: String(req.headers['content-type']),
          body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
        });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      } else res.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const otlpPort = (receiver.address() as { port: number }).port;

  target = await createScratchTarget('metrics');
  const [port, metricsPort] = [await freePort(), await freePort()];
  appUrl = `http://127.0.0.1:${port}`;
  metricsUrl = `http://127.0.0.1:${metricsPort}`;
  child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: appUrl,
      DATA_DIR: target.dataDir,
      DATABASE_URL: target.databaseUrl ?? '',
      AUTH_SECRET: '',
      CLIENT_DIR: '/nonexistent',
      RATE_LIMIT_ENABLED: 'false',
      BACKUP_BEFORE_MIGRATE: 'off',
      WEBHOOKS_ALLOW_PRIVATE: 'true',
      LOG_LEVEL: 'warn',
      METRICS_PORT: String(metricsPort),
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${otlpPort}`,
      OTEL_SERVICE_NAME: 'crewboard-test',
    },
  });
  child.stdout?.on('data', (c: Buffer) => {
    output += c.toString();
  });
  child.stderr?.on('data', (c: Buffer) => {
    output += c.toString();
  });
  await waitUntilHealthy(child, appUrl, 150_000, () => output);
}, 180_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
  await new Promise((r) => receiver?.close(r));
  await target?.drop();
});

/**
 * Prometheus's `promtool check metrics` reads the text with Prometheus's own parser: it must parse, and its lint may
 * only find fault with prom-client's default process metrics (nodejs_active_*_total gauges), never with ours.
 */
function checkWithPromtool(text: string): void {
  const run = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
  const said = `${run.stdout}${run.stderr}`;
  expect(said).not.toMatch(/error while linting|parsing error/);
  expect([0, 3], said).toContain(run.status);
  for (const problem of said.split('\n').filter(Boolean)) expect(problem).toMatch(/^nodejs_/);
}

async function scrape(): Promise<Map<string, Family>> {
  const res = await fetch(`${metricsUrl}/metrics`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  const text = await res.text();
  if (promtool) checkWithPromtool(text);
  // parse-prometheus-text-format reads counters and gauges with their labels (a labelled histogram it folds into one
  // sample: only its family and type are read from it here; its counts are the requests counter's).
  const families = parsePrometheusTextFormat(text) as Family[];
  return new Map(families.map((f) => [f.name, f]));
}

const sample = (families: Map<string, Family>, name: string, labels: Record<string, string>) =>
  families.get(name)?.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));

const requestCount = (families: Map<string, Family>, labels: Record<string, string>) =>
  Number(sample(families, 'crewboard_http_requests_total', labels)?.value ?? 0);

async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  return fetch(`${appUrl}${path}`, {
    method,
    headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body ? JSON.stringify(body) : undefined,
  });
}

async function signedIn(email: string): Promise<Record<string, string>> {
  const password = 'a long enough passphrase 42';
  expect((await call('POST', '/api/auth/signup', { email, password, fullName: 'Metric Person' })).status).toBe(201);
  const res = await call('POST', '/api/auth/token?grant_type=password', { email, password });
  expect(res.status).toBe(200);
  return { authorization: `Bearer ${((await res.json()) as { access_token: string }).access_token}` };
}

describe(`metrics and traces on ${onPostgres ? 'PostgreSQL' : 'PGlite'}`, { timeout: 60_000 }, () => {
  it('serves Prometheus text on METRICS_PORT: requests by route pattern and status, pool, outboxes, realtime, runtime', async () => {
    const before = await scrape();
    const healthBefore = requestCount(before, { method: 'GET', route: '/api/health', status: '200' });

    for (let i = 0; i < 3; i++) expect((await call('GET', '/api/health')).status).toBe(200);
    // Two different unknown URLs: one label value, whatever the path.
    expect((await call('GET', '/api/no-such-route/1')).status).toBe(404);
    expect((await call('GET', '/api/no-such-route/2')).status).toBe(404);
    const auth = await signedIn('metrics-reader@example.test');
    // A route with a parameter: labelled by its pattern, never by the id.
    const missing = '00000000-0000-4000-8000-000000000000';
    expect((await call('GET', `/api/tasks/${missing}`, undefined, auth)).status).toBe(404);

    // An SSE stream held open is a realtime connection while it lasts.
    const stream = new AbortController();
    const events = await fetch(`${appUrl}/api/events`, { headers: auth, signal: stream.signal });
    expect(events.status).toBe(200);
    const reader = events.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toContain('event: ready');

    const after = await scrape();
    expect(requestCount(after, { method: 'GET', route: '/api/health', status: '200' }) - healthBefore).toBe(3);
    expect(requestCount(after, { method: 'GET', route: '(unmatched)', status: '404' })).toBe(2);
    expect(requestCount(after, { method: 'POST', route: '/api/auth/signup', status: '201' })).toBe(1);
    expect(requestCount(after, { method: 'GET', route: '/api/tasks/:id', status: '404' })).toBe(1);
    const routes = after.get('crewboard_http_requests_total')!.metrics.map((m) => m.labels?.route ?? '');
    expect(routes.some((route) => route.includes('no-such-route') || route.includes(missing))).toBe(false);

    expect(after.get('crewboard_http_request_duration_seconds')?.type).toBe('HISTOGRAM');

    expect(after.get('crewboard_realtime_connections')?.type).toBe('GAUGE');
    expect(Number(sample(after, 'crewboard_realtime_connections', { kind: 'sse_events' })?.value)).toBe(1);
    expect(Number(sample(after, 'crewboard_realtime_connections', { kind: 'sse_share' })?.value)).toBe(0);
    expect(Number(sample(after, 'crewboard_realtime_connections', { kind: 'notes_socket' })?.value)).toBe(0);

    for (const outbox of ['mail', 'webhooks']) {
      expect(Number(sample(after, 'crewboard_outbox_depth', { outbox })?.value)).toBeGreaterThanOrEqual(0);
      expect(Number(sample(after, 'crewboard_outbox_oldest_age_seconds', { outbox })?.value)).toBeGreaterThanOrEqual(0);
    }
    expect(Number(sample(after, 'crewboard_db_engine', { engine: onPostgres ? 'postgres' : 'pglite' })?.value)).toBe(1);
    if (onPostgres) {
      for (const pool of ['main', 'prepared']) {
        expect(sample(after, 'crewboard_db_pool_connections', { pool, state: 'idle' })).toBeDefined();
        expect(sample(after, 'crewboard_db_pool_connections', { pool, state: 'in_use' })).toBeDefined();
        expect(Number(sample(after, 'crewboard_db_pool_waiting_requests', { pool })?.value)).toBe(0);
      }
      expect(Number(sample(after, 'crewboard_db_pool_max_connections', { pool: 'main' })?.value)).toBe(10);
      expect(after.get('crewboard_db_pool_wait_seconds')?.type).toBe('HISTOGRAM');
    } else {
      expect(after.has('crewboard_db_pool_connections')).toBe(false);
    }
    // prom-client's default metrics: event-loop lag and memory.
    for (const name of ['nodejs_eventloop_lag_seconds', 'nodejs_eventloop_lag_p99_seconds', 'process_resident_memory_bytes']) {
      expect(Number(after.get(name)?.metrics[0]?.value), name).toBeGreaterThan(0);
    }
    expect(after.get('nodejs_heap_size_used_bytes')?.type).toBe('GAUGE');

    stream.abort();
    await reader.closed.catch(() => undefined);
    await expect
      .poll(async () => Number(sample(await scrape(), 'crewboard_realtime_connections', { kind: 'sse_events' })?.value))
      .toBe(0);
  });

  it("shows an outbox's depth and the age of its oldest message: webhook deliveries to a receiver that is down", async () => {
    const auth = await signedIn('outbox-watcher@example.test');
    const team = (await (await call('POST', '/api/teams', { name: 'Outbox team' }, auth)).json()) as { id: string };
    const project = (await (await call('POST', '/api/projects', { name: 'Hooked', teamId: team.id }, auth)).json()) as {
      id: string;
    };
    // Nothing listens there: each delivery fails and waits for its retry (10 s), still in the outbox.
    const hook = { url: `http://127.0.0.1:${await freePort()}/hook`, events: ['task.created'] };
    expect((await call('POST', `/api/teams/${team.id}/webhooks`, hook, auth)).status).toBe(201);
    const depth = async () => Number(sample(await scrape(), 'crewboard_outbox_depth', { outbox: 'webhooks' })?.value);
    const before = await depth();
    for (const title of ['First hooked task', 'Second hooked task']) {
      expect((await call('POST', '/api/tasks', { title, projectId: project.id }, auth)).status).toBe(201);
    }
    await expect.poll(depth).toBe(before + 2);
    await expect
      .poll(async () => Number(sample(await scrape(), 'crewboard_outbox_oldest_age_seconds', { outbox: 'webhooks' })?.value), {
        timeout: 10_000,
      })
      .toBeGreaterThan(0.5);
  });

  it("counts the open note sockets and a shared board's streams", async () => {
    const auth = await signedIn('note-writer@example.test');
    const team = (await (await call('POST', '/api/teams', { name: 'Notes team' }, auth)).json()) as { id: string };
    const created = await call('POST', '/api/notes', { teamId: team.id, title: 'A watched note' }, auth);
    expect(created.status).toBe(201);
    const note = (await created.json()) as { id: string };
    const ticket = await call('POST', `/api/notes/${note.id}/socket-ticket`, undefined, auth);
    expect(ticket.status).toBe(200);
    const open = async (kind: string) => Number(sample(await scrape(), 'crewboard_realtime_connections', { kind })?.value);
    const client = rawSocket(appUrl, note.id, ((await ticket.json()) as { ticket: string }).ticket);
    await client.opened;
    await expect.poll(() => open('notes_socket')).toBe(1);
    client.socket.close();
    await client.closed;
    await expect.poll(() => open('notes_socket')).toBe(0);

    const project = (await (await call('POST', '/api/projects', { name: 'Shared', teamId: team.id }, auth)).json()) as {
      id: string;
    };
    const share = await call('PUT', `/api/projects/${project.id}/share`, { enabled: true }, auth);
    expect(share.status).toBe(200);
    const token = new URL(((await share.json()) as { url: string }).url).pathname.split('/').pop()!;
    const watching = new AbortController();
    const stream = await fetch(`${appUrl}/api/share/${token}/events`, { signal: watching.signal });
    expect(stream.status).toBe(200);
    await expect.poll(() => open('sse_share')).toBe(1);
    watching.abort();
    await expect.poll(() => open('sse_share')).toBe(0);
  });

  it("is never served on the app's own port; the metrics listener serves nothing else", async () => {
    const res = await call('GET', '/metrics');
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain('crewboard_http_requests_total');
    expect((await fetch(`${metricsUrl}/`)).status).toBe(404);
    expect((await fetch(`${metricsUrl}/api/health`)).status).toBe(404);
    expect((await fetch(`${metricsUrl}/metrics`, { method: 'POST' })).status).toBe(404);
  });

  it('sends a server span per request with its database queries as child spans, over OTLP/HTTP', async () => {
    const auth = await signedIn('traced@example.test');
    const team = (await (await call('POST', '/api/teams', { name: 'Traced team' }, auth)).json()) as { id: string };
    const project = (await (await call('POST', '/api/projects', { name: 'Traced', teamId: team.id }, auth)).json()) as {
      id: string;
    };
    // A request carrying a W3C traceparent (as from a proxy in front) joins that trace.
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const parentId = '00f067aa0ba902b7';
    const created = await call(
      'POST',
      '/api/tasks',
      { title: 'A traced task', projectId: project.id },
      { ...auth, traceparent: `00-${traceId}-${parentId}-01` },
    );
    expect(created.status).toBe(201);

    const spansOf = () => exports.flatMap((e) => e.body.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)));
    await expect
      .poll(() => spansOf().some((s) => s.traceId === traceId && s.kind === SPAN_KIND_SERVER), { timeout: 15_000 })
      .toBe(true);
    expect(exports.every((e) => e.contentType.startsWith('application/json'))).toBe(true);
    const service = exports[0]!.body.resourceSpans[0]!.resource?.attributes?.find((a) => a.key === 'service.name');
    expect(service?.value.stringValue).toBe('crewboard-test');

    const server = spansOf().find((s) => s.traceId === traceId && s.kind === SPAN_KIND_SERVER)!;
    expect(server.name).toBe('POST /api/tasks');
    expect(server.parentSpanId).toBe(parentId);
    expect(attr(server, 'http.route')).toBe('/api/tasks');
    expect(attr(server, 'http.request.method')).toBe('POST');
    expect(attr(server, 'http.response.status_code')).toBe(201);

    // Its queries, the authentication's and the transaction's (it inserts the task): children of the request's span.
    await expect
      .poll(() => spansOf().filter((s) => s.traceId === traceId && s.kind === SPAN_KIND_CLIENT).length, { timeout: 15_000 })
      .toBeGreaterThan(2);
    const queries = spansOf().filter((s) => s.traceId === traceId && s.kind === SPAN_KIND_CLIENT);
    for (const query of queries) {
      expect(query.parentSpanId).toBe(server.spanId);
      expect(attr(query, 'db.system.name')).toBe('postgresql');
      expect(String(attr(query, 'db.query.text'))).toMatch(/^\s*\w+/);
    }
    expect(
      queries.some(
        (q) => attr(q, 'db.operation.name') === 'insert' && /insert into "tasks"/i.test(String(attr(q, 'db.query.text'))),
      ),
    ).toBe(true);
    // No span leaks a value: the statements are sent with their placeholders.
    expect(JSON.stringify(queries)).not.toContain('A traced task');

    // A body that arrives after its headers, in two parts: the handler runs from the body's events, still in the trace.
    const slowTrace = '5bf92f3577b34da6a3ce929d0e0e4737';
    const body = JSON.stringify({ title: 'A slow task', projectId: project.id });
    const slow = await new Promise<number>((resolve, reject) => {
      const req = request(`${appUrl}/api/tasks`, {
        method: 'POST',
        headers: {
          ...auth,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          traceparent: `00-${slowTrace}-${parentId}-01`,
        },
      });
      req.once('response', (res) => {
        res.resume();
        res.once('end', () => resolve(res.statusCode ?? 0));
      });
      req.once('error', reject);
      req.write(body.slice(0, 10));
      setTimeout(() => req.end(body.slice(10)), 300);
    });
    expect(slow).toBe(201);
    const insertOf = (trace: string) =>
      spansOf().find((s) => s.traceId === trace && /insert into "tasks"/i.test(String(attr(s, 'db.query.text'))));
    await expect.poll(() => insertOf(slowTrace), { timeout: 15_000 }).toBeDefined();
    const slowServer = spansOf().find((s) => s.traceId === slowTrace && s.kind === SPAN_KIND_SERVER)!;
    expect(insertOf(slowTrace)!.parentSpanId).toBe(slowServer.spanId);

    // Each request is a trace of its own: a GET answered from the database has its queries under its span.
    expect((await call('GET', `/api/tasks?projectId=${project.id}`, undefined, auth)).status).toBe(200);
    const isListRead = (s: OtlpSpan) =>
      s.kind === SPAN_KIND_SERVER && attr(s, 'http.route') === '/api/tasks' && attr(s, 'http.request.method') === 'GET';
    await expect.poll(() => spansOf().some(isListRead), { timeout: 15_000 }).toBe(true);
    const list = spansOf().find(isListRead)!;
    expect(list.traceId).not.toBe(traceId);
    await expect
      .poll(() => spansOf().filter((s) => s.parentSpanId === list.spanId && s.traceId === list.traceId).length)
      .toBeGreaterThan(0);
  });
});
