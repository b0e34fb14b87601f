// The issue's outside measure (issue 42), against any running server: a new account, a team, a project and
// 1,000 tasks created through the API (as people make them), a bearer token, then autocannon for 10 s with a
// browser's `accept-encoding: gzip, br` on the 500-task page and the board. Nothing in it knows the server's
// internals, so it measures what a user's browser gets from `npm start`.
//
//   npx tsx bench/outside.ts --url=http://127.0.0.1:3000 [--tasks=1000] [--seconds=10] [--runs=1]
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';

const { values: args } = parseArgs({
  options: {
    url: { type: 'string' },
    tasks: { type: 'string', default: '1000' },
    seconds: { type: 'string', default: '10' },
    runs: { type: 'string', default: '1' },
    /** The server's pid, when it runs on this machine: its CPU time per request, from /proc (the steadier figure). */
    pid: { type: 'string' },
  },
});
const base = args.url ?? 'http://127.0.0.1:3000';
const seconds = Number(args.seconds);

async function call<T>(method: string, path: string, token: string | null, body?: unknown): Promise<T> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

async function seedThroughApi(tasks: number) {
  const email = `outside-${Date.now()}@example.com`;
  const password = 'Outside-measure-2026!';
  await call('POST', '/api/auth/signup', null, { email, password, fullName: 'Outside Measure' });
  const { access_token: token } = await call<{ access_token: string }>('POST', '/api/auth/token?grant_type=password', null, {
    email,
    password,
  });
  const me = await call<{ id: string }>('GET', '/api/auth/user', token);
  const team = await call<{ id: string }>('POST', '/api/teams', token, { name: 'Outside team' });
  const project = await call<{ id: string }>('POST', '/api/projects', token, { name: 'Outside project', teamId: team.id });
  const statuses = ['todo', 'in_progress', 'review', 'completed'];
  const started = Date.now();
  let next = 0;
  // Eight in flight, as a busy team or an import would.
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < tasks) {
        const i = next++;
        await call('POST', '/api/tasks', token, {
          title: `Outside task ${i}: ${['write', 'review', 'ship'][i % 3]} the ${['login', 'billing', 'search'][i % 3]} page`,
          description: i % 4 === 0 ? 'Some words about what to do, as people write them.' : undefined,
          projectId: project.id,
          status: statuses[i % 4],
          priority: ['low', 'medium', 'high'][i % 3],
          assigneeId: i % 3 === 0 ? null : me.id,
          dueDate: i % 2 ? '2026-12-15' : null,
          tags: i % 5 === 0 ? ['frontend', 'q4'] : [],
        });
      }
    }),
  );
  return { token, projectId: project.id, seedSeconds: (Date.now() - started) / 1000 };
}

/** The server's CPU time so far (user + system, ms), or NaN without --pid. */
function cpuMs(): number {
  if (!args.pid) return Number.NaN;
  const fields = readFileSync(`/proc/${args.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/** `etag`: sent as If-None-Match (a reader whose copy is current: every answer a 304). */
async function load(path: string, token: string, connections: number, etag?: string) {
  const cpuBefore = cpuMs();
  const r = await autocannon({
    url: `${base}${path}`,
    connections,
    duration: seconds,
    headers: {
      authorization: `Bearer ${token}`,
      'accept-encoding': 'gzip, br',
      ...(etag ? { 'if-none-match': etag } : {}),
    },
  });
  const cpu = (cpuMs() - cpuBefore) / r.requests.total;
  // A 304 is the expected answer of a revalidation; anything else but a 200 is a failure.
  const failed = Object.entries(r.statusCodeStats ?? {})
    .filter(([code]) => code !== '200' && code !== '304')
    .reduce((n, [, v]) => n + (v as { count: number }).count, 0);
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    failed,
    errors: r.errors,
    cpu,
    bytes: r.throughput.average / r.requests.average,
  };
}

async function etagOf(path: string, token: string): Promise<string | undefined> {
  const res = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}`, 'accept-encoding': 'gzip, br' } });
  await res.arrayBuffer();
  return res.headers.get('etag') ?? undefined;
}

const { token, projectId, seedSeconds } = await seedThroughApi(Number(args.tasks));
process.stderr.write(`[outside] seeded ${args.tasks} tasks through the API in ${seedSeconds.toFixed(1)} s\n`);
const list = `/api/tasks?projectId=${projectId}&limit=500`;
const board = '/api/tasks/board?limit=20';
for (let run = 0; run < Number(args.runs); run++) {
  const results: Record<string, Awaited<ReturnType<typeof load>>> = {
    'list 500 ×1': await load(list, token, 1),
    'list 500 ×32': await load(list, token, 32),
    'board ×1': await load(board, token, 1),
    'board ×32': await load(board, token, 32),
  };
  // Conditional reads, where the server gives an ETag: every reader's copy current (each answer a 304).
  const [listTag, boardTag] = [await etagOf(list, token), await etagOf(board, token)];
  if (listTag) results['list 500 ×1, If-None-Match'] = await load(list, token, 1, listTag);
  if (listTag) results['list 500 ×32, If-None-Match'] = await load(list, token, 32, listTag);
  if (boardTag) results['board ×32, If-None-Match'] = await load(board, token, 32, boardTag);
  for (const [name, r] of Object.entries(results)) {
    process.stdout.write(
      `${name}: ${r.rps.toFixed(0)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, ${(r.bytes / 1024).toFixed(1)} KB/answer` +
        `${Number.isNaN(r.cpu) ? '' : `, server CPU ${r.cpu.toFixed(2)} ms/req`}` +
        `${r.failed + r.errors ? `, ${r.failed} failed, ${r.errors} errors` : ''}\n`,
    );
  }
}
