// `npm run bench`: seeds synthetic data straight into the database, starts the real production
// server as a child process and measures it with autocannon on 127.0.0.1, beside the time of the
// same SQL run directly on the database ("the limit"). On PGlite, and on PostgreSQL when
// DATABASE_URL is set (in a fresh database that is dropped afterwards).
//
//   npm run bench                      full run: 1,000 / 10,000 / 100,000 tasks, 10 s per measure
//   npm run bench:smoke                CI: small data, half a second per measure, no timing checks
//   npm run bench -- --sizes=1000 --seconds=5 --db=postgres --only=board
//   npm run bench -- --only=board --profile=/tmp/prof   CPU profiles of the server (.cpuprofile)
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, freemem, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createScratchTarget } from '../tests/helpers/scratch-db';
import { LIMITS } from '../src/domain/constants';
import { openDatabase } from '../src/server/db/client';
import { type LoadResult, type Probe, type RequestSpec, pathOf, probe, runLoad } from './load';
import { formatReport, type BenchReport, type DatasetRun, type ScenarioRun } from './report';
import { BENCH_PASSWORD, type Seeded, seed } from './seed';
import { bundleServer, startServer } from './server';
import { measureLimits } from './sql-limit';
import { measureUpload, type UploadRun } from './upload';
import { type FanoutRun, measureFanout } from './fanout';
import { type LoggingRun, measureLogging } from './logging';
import { measureWrites, type WritesRun } from './writes';
import { measureMixed, type MixedRun } from './memory';

const { values: args } = parseArgs({
  options: {
    smoke: { type: 'boolean', default: false },
    sizes: { type: 'string' },
    seconds: { type: 'string' },
    warmup: { type: 'string' },
    connections: { type: 'string' },
    'create-connections': { type: 'string' },
    db: { type: 'string' },
    only: { type: 'string' },
    'column-limit': { type: 'string' },
    iterations: { type: 'string' },
    out: { type: 'string' },
    /** A folder for the server's V8 CPU profiles (one .cpuprofile per dataset). */
    profile: { type: 'string' },
    /** The size of the upload measure in MB (default 100; smoke 8). */
    'upload-mb': { type: 'string' },
    /**
     * The server's LOG_LEVEL (default info, the server's own and `npm start`'s: one line a request, as a user's server
     * writes; issue 42 — until then warn, which the outside measure did not have; see "logging" in the report).
     */
    'log-level': { type: 'string' },
    /** Extra Node flags for the server, space-separated (e.g. `--node-args="--max-semi-space-size=32"`). */
    'node-args': { type: 'string' },
    /** Open event streams in the fan-out measure (default 1,000; smoke 40). */
    'fanout-streams': { type: 'string' },
    /** The mixed load's length in seconds (default 60; smoke 2), its RSS sampled (bench/memory.ts). */
    'mixed-seconds': { type: 'string' },
  },
});

const list = (s: string | undefined, fallback: number[]) => (s ? s.split(',').map(Number) : fallback);
const smoke = args.smoke;
const options = {
  smoke,
  sizes: list(args.sizes, smoke ? [300] : [1000, 10_000, 100_000]),
  seconds: Number(args.seconds ?? (smoke ? 0.5 : 10)),
  warmupSeconds: Number(args.warmup ?? (smoke ? 0.1 : 3)),
  connections: list(args.connections, smoke ? [1, 4] : [1, 32]),
  createConnections: list(args['create-connections'], smoke ? [1, 2] : [1, 8, 32]),
  databases: (args.db ?? (process.env.DATABASE_URL ? 'pglite,postgres' : 'pglite')).split(',') as ('pglite' | 'postgres')[],
  only: args.only ? args.only.split(',') : null,
  /** What the Tasks page asks for per column on its first screen. */
  columnLimit: Number(args['column-limit'] ?? LIMITS.boardFirstPage),
  /** What a column's 'Show more' asks for. */
  moreLimit: LIMITS.boardMorePage,
  /** Replays of the raw SQL per read (after 3 warm-ups); the median is the limit. */
  iterations: Number(args.iterations ?? (smoke ? 3 : 30)),
  out: args.out ?? join(import.meta.dirname, 'results', smoke ? 'smoke.json' : 'latest.json'),
  /** One upload of this size on the first dataset, its server RSS sampled (the smoke run sends a small one). */
  uploadMb: Number(args['upload-mb'] ?? (smoke ? 8 : 100)),
  /** The realtime fan-out measure on the first dataset: open streams, and changes sent to all of them. */
  fanoutStreams: Number(args['fanout-streams'] ?? (smoke ? 40 : 1000)),
  fanoutChanges: smoke ? 2 : 10,
  /** The writes measure (bench/writes.ts): cards created in the seeding and one at a time, then read back. */
  writeCards: smoke ? 60 : 1000,
  mixedSeconds: Number(args['mixed-seconds'] ?? (smoke ? 2 : 60)),
};

/** Runs a measure that is not a scenario: with no --only, or when --only names it. */
const wants = (name: string) => !options.only || options.only.includes(name);

const AUTH_SECRET = 'bench-secret-bench-secret-bench-secret-0123456789';
const today = new Date().toISOString().slice(0, 10);

function log(message: string) {
  process.stderr.write(`[bench] ${message}\n`);
}

interface Scenario {
  name: string;
  kind: 'read' | 'write';
  /** See ScenarioRun.floor. */
  floor?: boolean;
  spec: RequestSpec;
  connections: number[];
  /** The route as listed in /api/openapi.json; the scenario is skipped when the server lacks it. */
  route: string;
  /**
   * Who asks: user 0 (every team, the default workflow everywhere) unless 'workflow' (the seed's workflow team) or
   * 'timeline' (the seed's timeline team).
   */
  as?: 'workflow' | 'timeline' | 'timesheet';
}

function scenarios(data: Seeded, filtered = true): Scenario[] {
  const board = data.projects[0]!;
  const writes = data.projects[1]!;
  const writeTeam = data.teams.find((t) => t.id === writes.teamId)!;
  let created = 0;
  let moved = 0;
  const statuses = ['todo', 'in_progress', 'review', 'completed'] as const;
  // A column page of the list endpoint, per status, newest first.
  const columns = (filter: string) =>
    statuses.map((st) => `/api/tasks?${filter}status=${st}&limit=${options.moreLimit}&offset=0`);
  const all: Scenario[] = [
    {
      // The floor: no auth, one `select 1`; what any request costs on this machine right now.
      name: 'health',
      kind: 'read',
      floor: true,
      route: '/api/health',
      spec: { method: 'GET', path: '/api/health' },
      connections: options.connections,
    },
    {
      // What the Tasks page loads for one project: every column's first page and exact counts, in one call.
      name: 'board: one project',
      kind: 'read',
      route: '/api/tasks/board',
      spec: { method: 'GET', path: `/api/tasks/board?projectId=${board.id}&limit=${options.columnLimit}` },
      connections: options.connections,
    },
    {
      name: 'board: All Projects',
      kind: 'read',
      route: '/api/tasks/board',
      spec: { method: 'GET', path: `/api/tasks/board?limit=${options.columnLimit}` },
      connections: options.connections,
    },
    {
      // A project with its own seven-status workflow (decision 0024), as many tasks as 'board: one project': one
      // column per status, read by one lateral statement, the counts from the counters by key.
      name: 'board: one project, 7 statuses',
      kind: 'read',
      as: 'workflow',
      route: '/api/tasks/board',
      spec: { method: 'GET', path: `/api/tasks/board?projectId=${data.workflow.project.id}&limit=${options.columnLimit}` },
      connections: options.connections,
    },
    {
      // The workflow team's owner sees that project and team 1's (the default four): the workflows differ, so the
      // columns are the categories in use, one limited select each.
      name: 'board: All Projects, mixed workflows',
      kind: 'read',
      as: 'workflow',
      route: '/api/tasks/board',
      spec: { method: 'GET', path: `/api/tasks/board?limit=${options.columnLimit}` },
      connections: options.connections,
    },
    {
      // Equal work (issue 27): a page of 500 full tasks of one project, as the list view, exports, the calendar and
      // analytics read many tasks at once.
      name: 'list: 500 tasks',
      kind: 'read',
      route: '/api/tasks',
      spec: { method: 'GET', path: `/api/tasks?projectId=${board.id}&limit=500` },
      connections: options.connections,
    },
    {
      // A column's next page ('Show more'), by status in turn.
      name: 'column: All Projects',
      kind: 'read',
      route: '/api/tasks',
      spec: { method: 'GET', path: columns('') },
      connections: options.connections,
    },
    {
      name: 'dashboard',
      kind: 'read',
      route: '/api/dashboard',
      spec: { method: 'GET', path: `/api/dashboard?today=${today}` },
      connections: options.connections,
    },
    {
      // The Analytics page's one request for one team (a third of the tasks), its default 12 weeks (issue 24).
      name: 'analytics: one team',
      kind: 'read',
      route: '/api/analytics',
      spec: { method: 'GET', path: `/api/analytics?teamId=${data.teams[0]!.id}` },
      connections: options.connections,
    },
    {
      // The palette while someone types 'design bill…' for the billing page's design tasks (issue 23): every kind,
      // five hits each. The seed's titles are '<verb> <noun> #k': at 100,000 tasks each word matches 10,000 to
      // 17,000 of them (titles, tags, descriptions), both together about 1,800.
      name: 'search',
      kind: 'read',
      route: '/api/search',
      spec: { method: 'GET', path: `/api/search?q=${encodeURIComponent('design bill')}` },
      connections: options.connections,
    },
    {
      // The timeline page's one read (issue 37, decision 0025): a team's 2,000 dated tasks overlapping a 90-day window,
      // the 500 dependencies among them, and its open unscheduled tasks (the newest 100 of 150, and their count).
      name: 'timeline: 2,000 tasks, 500 dependencies',
      kind: 'read',
      as: 'timeline',
      route: '/api/timeline',
      spec: {
        method: 'GET',
        path: `/api/timeline?teamId=${data.timeline.teamId}&from=${data.timeline.from}&to=${data.timeline.to}`,
      },
      connections: options.connections,
    },
    {
      // Custom fields (issue 38, decision 0026): every visible task (all of them) filtered by team 0's select field
      // 'Severity' is Critical, a page of 50 newest first with the counts.
      name: 'list: filter by a select field',
      kind: 'read',
      route: '/api/tasks',
      spec: { method: 'GET', path: `/api/tasks?cf=${data.fields.severityId}:any:${data.fields.criticalId}&limit=50` },
      connections: options.connections,
    },
    {
      // Every visible task sorted by team 0's number field 'Points' (tasks without a value, the other teams', last).
      name: 'list: sort by a number field',
      kind: 'read',
      route: '/api/tasks',
      spec: { method: 'GET', path: `/api/tasks?sort=field:${data.fields.pointsId}&limit=50` },
      connections: options.connections,
    },
    {
      name: 'list: select filter and number sort',
      kind: 'read',
      route: '/api/tasks',
      spec: {
        method: 'GET',
        path: `/api/tasks?cf=${data.fields.severityId}:any:${data.fields.criticalId}&sort=field:${data.fields.pointsId}&limit=50`,
      },
      connections: options.connections,
    },
    {
      // /timesheet (issue 39): the team's owner reads one member's week (about 115 of the team's 5,000 entries that
      // month), as the page does when an owner picks a person.
      name: 'timesheet: a week of one member (team of 50, 5,000 entries a month)',
      kind: 'read',
      as: 'timesheet',
      route: '/api/time-entries',
      spec: {
        method: 'GET',
        path: `/api/time-entries?teamId=${data.timesheet.teamId}&userId=${data.timesheet.memberId}&from=${data.timesheet.week.from}&to=${data.timesheet.week.to}`,
      },
      connections: options.connections,
    },
    {
      // …and every member's entries of the month (all 5,000, a 2.5 MB answer), as a month's CSV of the whole team
      // would. One connection: an export-sized read, one person at a time; 32 at once on this 2-core machine shed load
      // (503) after 10 s (2026-11-29, baseline.md).
      name: 'timesheet: the month of the whole team (50 members, 5,000 entries)',
      kind: 'read',
      as: 'timesheet',
      route: '/api/time-entries',
      spec: {
        method: 'GET',
        path: `/api/time-entries?teamId=${data.timesheet.teamId}&from=${data.timesheet.month.from}&to=${data.timesheet.month.to}`,
      },
      connections: options.connections.slice(0, 1),
    },
    {
      name: 'task create',
      kind: 'write',
      route: '/api/tasks',
      spec: {
        method: 'POST',
        path: '/api/tasks',
        body: () => {
          created++;
          return {
            title: `Bench task ${created}`,
            projectId: writes.id,
            status: statuses[created % 4],
            priority: 'medium',
            assigneeId: writeTeam.memberIds[created % writeTeam.memberIds.length],
            dueDate: today,
            tags: ['bench'],
          };
        },
      },
      connections: options.createConnections,
    },
    {
      name: 'task status move',
      kind: 'write',
      route: '/api/tasks/{id}/status',
      spec: {
        method: 'PATCH',
        path: () => `/api/tasks/${data.moveTaskIds[moved % data.moveTaskIds.length]}/status`,
        body: () => ({ status: statuses[moved++ % 4] }),
      },
      connections: options.connections,
    },
  ];
  return all.filter((s) => !filtered || !options.only || options.only.some((o) => s.name.includes(o)));
}

async function runDataset(kind: 'pglite' | 'postgres', size: number, entry: string): Promise<DatasetRun> {
  const loadBefore = loadavg()[0]!;
  // Its folder is the server's DATA_DIR, and PGlite's data when kind is 'pglite'.
  const scratch = await createScratchTarget(`crewboard_bench_${size}`, kind === 'postgres' ? process.env.DATABASE_URL! : null);
  const { dataDir, databaseUrl } = scratch;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl ?? '',
    AUTH_SECRET,
    RATE_LIMIT_ENABLED: 'false',
    LOG_LEVEL: args['log-level'] ?? 'info',
    CLIENT_DIR: join(dataDir, 'no-client'),
    // Room for the upload measure (its files go to DATA_DIR/files, dropped with the scratch folder).
    MAX_UPLOAD_MB: String(Math.max(25, options.uploadMb + 1)),
  };
  try {
    log(`${kind} ${size.toLocaleString('en')} tasks: seeding`);
    const database = await openDatabase({ databaseUrl, dataDir });
    await database.migrate();
    const data = await seed(database.db, { users: 50, teams: 5, projects: 40, tasks: size });
    await database.close();
    log(
      `  seeded in ${data.seconds.toFixed(1)} s (board project: ${data.projects[0]!.tasks} tasks; ` +
        `workflow project: ${data.workflow.project.tasks} more, 7 statuses)`,
    );

    const list = scenarios(data);
    const emailOf = (s: Scenario) => (s.as ? data[s.as].user.email : data.users[0]!.email);
    // Each read path once per caller; a board's limit is the sum of its columns', a column's their mean.
    const reads = new Map<string, Record<string, string>>();
    for (const s of list.filter((x) => x.kind === 'read')) {
      const paths = Array.isArray(s.spec.path) ? s.spec.path : [pathOf(s.spec)];
      const mine = reads.get(emailOf(s)) ?? {};
      for (const path of paths) mine[path] = path;
      reads.set(emailOf(s), mine);
    }
    log('  measuring the raw SQL of each read');
    // PGlite is single-process: the limit is measured before the server opens the same data dir.
    const limitsBy = new Map<string, Awaited<ReturnType<typeof measureLimits>>>();
    for (const [email, paths] of reads) {
      limitsBy.set(email, await measureLimits({ databaseUrl, dataDir, env }, email, paths, options.iterations));
    }

    const nodeArgs = [
      // What holds memory, asked once the mixed load has ended (SIGUSR2: one `[memory]` line).
      `--import=${join(import.meta.dirname, 'memory-probe.mjs')}`,
      ...(args['node-args']?.split(' ').filter(Boolean) ?? []),
      ...(args.profile ? ['--cpu-prof', `--cpu-prof-dir=${args.profile}`] : []),
    ];
    const server = await startServer(entry, env, nodeArgs);
    const runs: ScenarioRun[] = [];
    let uploads: UploadRun[] | undefined;
    let fanout: FanoutRun | undefined;
    let writes: WritesRun | undefined;
    let mixed: MixedRun | undefined;
    let rssIdleMb = Number.NaN;
    let serverLog: string | undefined;
    try {
      const token = await signIn(server.url, data.users[0]!.email);
      const workflowToken = list.some((s) => s.as === 'workflow') ? await signIn(server.url, data.workflow.user.email) : '';
      const timelineToken = list.some((s) => s.as === 'timeline') ? await signIn(server.url, data.timeline.user.email) : '';
      const timesheetToken = list.some((s) => s.as === 'timesheet') ? await signIn(server.url, data.timesheet.user.email) : '';
      const doc = (await (await fetch(`${server.url}/api/openapi.json`)).json()) as { paths?: Record<string, unknown> };
      const routes = new Set(Object.keys(doc.paths ?? {}));
      rssIdleMb = server.rssMb();

      for (const s of list) {
        if (!routes.has(s.route)) {
          log(`  ${s.name}: skipped (${s.route} is not served yet)`);
          runs.push({ name: s.name, kind: s.kind, path: describePath(s.spec), skipped: `${s.route} not served`, loads: [] });
          continue;
        }
        const headers = {
          authorization: `Bearer ${s.as ? { workflow: workflowToken, timeline: timelineToken, timesheet: timesheetToken }[s.as] : token}`,
        };
        const readHeaders = { ...headers, 'accept-encoding': 'gzip, deflate, br' };
        let limitMs: number | undefined;
        let limitStatements: ScenarioRun['limitStatements'];
        const limits = limitsBy.get(emailOf(s)) ?? {};
        const found =
          s.kind === 'read' ? (Array.isArray(s.spec.path) ? s.spec.path : [pathOf(s.spec)]).map((path) => limits[path]!) : [];
        if (found.length) {
          limitMs = found.reduce((n, l) => n + l.ms, 0) / found.length;
          limitStatements = found[0]?.statements;
        }
        const shape: Probe = await probe(server.url, s.spec, headers);
        // The limit must hold the statements that read the cards (a filter once dropped the board's,
        // which starts with a parenthesis, and its ratio was taken against the session and counts
        // alone): over the paths of a read, the largest statement of each reads at least its cards.
        if (found.length && shape.items) {
          const most = found.reduce((n, l) => n + Math.max(0, ...l.statements.map((st) => st.rows)), 0);
          if (most < shape.items)
            throw new Error(`${s.name}: the SQL limit reads ${most} rows at most, the responses have ${shape.items} cards`);
        }
        if (Array.isArray(s.spec.path)) {
          // A column row: the sizes of one request (the mean over the columns).
          const n = s.spec.path.length;
          shape.bytes /= n;
          shape.wireBytes /= n;
          shape.gzipBytes /= n;
          if (shape.items !== null) shape.items = Math.round(shape.items / n);
        }
        const loads: LoadResult[] = [];
        for (const connections of s.connections) {
          const r = await runLoad({
            url: server.url,
            spec: s.spec,
            headers: s.kind === 'read' ? readHeaders : headers,
            connections,
            seconds: options.seconds,
            warmupSeconds: options.warmupSeconds,
            rssMb: server.rssMb,
            cpuMs: server.cpuMs,
          });
          loads.push(r);
          log(
            `  ${s.name} ×${connections}: ${r.rps.toFixed(0)} req/s, p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms` +
              `${r.non2xx + r.errors ? `, ${r.non2xx} non-2xx ${JSON.stringify(r.statusCodes)}, ${r.errors} errors` : ''}` +
              `, server CPU ${r.cpuMsPerRequest.toFixed(2)} ms/req, RSS ≤ ${r.rssMaxMb.toFixed(0)} MB`,
          );
        }
        runs.push({
          name: s.name,
          kind: s.kind,
          floor: s.floor,
          path: describePath(s.spec),
          probe: shape,
          limitMs,
          limitStatements,
          loads,
        });
      }

      const wantsUpload = !options.only || options.only.includes('upload');
      if (wantsUpload && size === options.sizes[0] && routes.has('/api/tasks/{id}/attachments')) {
        // Twice: the first on a server that has not streamed a large body yet (V8's young generation and the
        // allocator grow once, to a size that does not depend on the upload's), the second on the same server.
        uploads = [];
        for (const run of smoke ? ['first'] : ['first', 'second']) {
          const u = await measureUpload({
            url: server.url,
            token,
            taskId: data.moveTaskIds[0]!,
            megabytes: options.uploadMb,
            rssMb: server.rssMb,
          });
          uploads.push(u);
          log(
            `  upload ${u.megabytes} MB (${run}): ${u.status} in ${u.seconds.toFixed(1)} s, server RSS ${u.rssBeforeMb.toFixed(0)} → ≤ ${u.rssMaxMb.toFixed(0)} MB (+${u.rssDeltaMb.toFixed(1)} MB)`,
          );
        }
      }
      if (wants('writes') && size === options.sizes[0]) {
        const team = data.teams.find((t) => t.id === data.projects[1]!.teamId)!;
        writes = await measureWrites({
          url: server.url,
          token,
          teamId: team.id,
          assigneeIds: team.memberIds,
          cards: options.writeCards,
          reads: smoke ? 2 : 20,
          rssMb: server.rssMb,
          cpuMs: server.cpuMs,
        });
        const w = (r: WritesRun['seeding']) =>
          `${r.cards} cards, ${r.inFlight} in flight: ${r.cardsPerSecond.toFixed(0)} cards/s, p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms, server CPU ${r.cpuMsPerCard.toFixed(2)} ms/card${r.failed ? `, ${r.failed} FAILED` : ''}`;
        log(`  writes: seeding ${w(writes.seeding)}`);
        log(`  writes: one at a time ${w(writes.oneAtATime)}`);
        const b = writes.boardRead;
        log(
          `  writes: the ${b.cards} cards read back with every field: p50 ${b.p50.toFixed(1)} ms, p99 ${b.p99.toFixed(1)} ms (${b.plainKb.toFixed(0)} KB)`,
        );
      }
      if (wants('mixed load') && size === options.sizes[0]) {
        // Every scenario, whatever --only chose (fresh counters: creations and moves go on as in their own runs).
        const every = scenarios(data, false);
        const part = (name: string, connections: number) => {
          const s = every.find((x) => x.name === name);
          const headers: Record<string, string> = { authorization: `Bearer ${token}` };
          if (s?.kind === 'read') headers['accept-encoding'] = 'gzip, deflate, br';
          return s ? [{ name, spec: s.spec, headers, connections }] : [];
        };
        mixed = await measureMixed({
          url: server.url,
          seconds: options.mixedSeconds,
          parts: [
            ...part('board: All Projects', 8),
            ...part('board: one project', 8),
            ...part('list: 500 tasks', 4),
            ...part('dashboard', 4),
            ...part('task create', 4),
            ...part('task status move', 4),
          ],
          rssMb: server.rssMb,
          held: () => server.memory() as Promise<MixedRun['held']>,
        });
        const h = mixed.held?.after;
        log(
          `  mixed load ${mixed.seconds.toFixed(0)} s (${mixed.parts.map((p) => `${p.name} ×${p.connections} ${p.rps.toFixed(0)}/s${p.non2xx + p.errors ? ` ${p.non2xx + p.errors} FAILED` : ''}`).join(', ')}): ` +
            `RSS ${mixed.rssIdleMb.toFixed(0)} → ≤ ${mixed.rssMaxMb.toFixed(0)} MB, ${mixed.rssAfterMb.toFixed(0)} MB after` +
            (h
              ? `; held after a full GC: heap ${h.heapUsed} of ${h.heapTotal} MB, external ${h.external} MB (array buffers ${h.arrayBuffers}), RSS ${h.rss} MB`
              : ''),
        );
      }
      if ((!options.only || options.only.includes('fanout')) && size === options.sizes[0]) {
        fanout = await measureFanout({
          url: server.url,
          streams: options.fanoutStreams,
          changes: options.fanoutChanges,
          rssMb: server.rssMb,
        });
        log(
          `  fan-out: ${fanout.streams} streams (${fanout.people} people, opened in ${fanout.openSeconds.toFixed(1)} s), ${fanout.changes} changes, ` +
            `${fanout.complete} complete: p50 ${fanout.p50.toFixed(1)} ms, p99 ${fanout.p99.toFixed(1)} ms, RSS ${fanout.rssIdleMb.toFixed(0)} → ≤ ${fanout.rssMaxMb.toFixed(0)} MB`,
        );
      }
    } finally {
      await server.stop();
      if (runs.some((r) => r.loads.some((l) => l.non2xx + l.errors > 0))) {
        serverLog = server.output().slice(-4000);
        log(`  server output (last lines):\n${serverLog}`);
      }
    }
    let logging: LoggingRun[] | undefined;
    if ((!options.only || options.only.includes('logging')) && size === options.sizes[0]) {
      logging = await measureLogging({
        entry,
        env,
        // The board: All Projects read.
        spec: { method: 'GET', path: `/api/tasks/board?limit=${options.columnLimit}` },
        headersFor: async (url) => ({
          authorization: `Bearer ${await signIn(url, data.users[0]!.email)}`,
          'accept-encoding': 'gzip, deflate, br',
        }),
        connections: options.connections,
        seconds: options.seconds,
        warmupSeconds: options.warmupSeconds,
        rounds: smoke ? 1 : 2,
        log,
      });
    }
    return {
      db: kind,
      tasks: size,
      seedSeconds: data.seconds,
      boardProjectTasks: data.projects[0]!.tasks,
      rssIdleMb,
      loadAvg: [loadBefore, loadavg()[0]!],
      serverLog,
      scenarios: runs,
      uploads,
      fanout,
      writes,
      mixed,
      logging,
    };
  } finally {
    await scratch.drop().catch((e) => log(`could not drop the bench database: ${e}`));
  }
}

async function signIn(url: string, email: string): Promise<string> {
  const res = await fetch(`${url}/api/auth/token?grant_type=password`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: BENCH_PASSWORD }),
  });
  if (!res.ok) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

function describePath(spec: RequestSpec): string {
  const path = Array.isArray(spec.path) ? spec.path.join(' + ') : pathOf(spec);
  return `${spec.method} ${path.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, ':id')}`;
}

async function main() {
  const started = Date.now();
  log('bundling the server');
  const entry = await bundleServer();
  const datasets: DatasetRun[] = [];
  for (const kind of options.databases) {
    if (kind === 'postgres' && !process.env.DATABASE_URL) throw new Error('--db=postgres needs DATABASE_URL');
    for (const size of options.sizes) datasets.push(await runDataset(kind, size, entry));
  }
  const report: BenchReport = {
    date: new Date().toISOString(),
    machine: {
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model ?? 'unknown',
      memoryGb: Math.round(totalmem() / 2 ** 30),
      freeMemoryGb: Math.round(freemem() / 2 ** 30),
      node: process.version,
      platform: `${process.platform} ${process.arch}`,
    },
    options: { ...options, out: undefined },
    datasets,
    minutes: (Date.now() - started) / 60_000,
  };
  mkdirSync(join(options.out, '..'), { recursive: true });
  writeFileSync(options.out, `${JSON.stringify(report, null, 2)}\n`);
  const { markdown, failures } = formatReport(report);
  process.stdout.write(`${markdown}\n`);
  log(`wrote ${options.out} in ${report.minutes.toFixed(1)} min`);
  if (failures.length) {
    log(`FAILED: ${failures.join('; ')}`);
    process.exitCode = 1;
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
