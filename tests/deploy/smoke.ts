/**
 * The deployment smoke (issue 42, docs/deploy.md): the setup of deploy/ started for real on 127.0.0.1 — nginx from
 * Debian (/usr/sbin/nginx, or NGINX) running deploy/nginx/crewboard.conf with only its listen port and upstream
 * addresses replaced, two instances of the production server bundle (scripts/build-server.mjs, as `npm run build`
 * makes it) on one fresh PostgreSQL database, and the S3 test server (s3rver) as their shared file store. Everything
 * below goes through nginx only:
 *
 *   1. the health check and the SPA's index, sign-up, sign-in, a team, a project, tasks, and a board read;
 *   2. a realtime event: a task made through instance A reaches an SSE stream held open through instance B;
 *   3. one note edited by two y-websocket clients, one on each instance, until both hold the same text;
 *   4. an upload through A, its download through B (the same bytes);
 *   5. failover: SSE streams open and 8 clients reading and creating tasks, instance A stopped (SIGTERM) in the middle.
 *      It must exit 0 within its limit, no client request may fail (nginx retries on B what A refused or answered
 *      503), every acknowledged task must be in the database, and every stream A held must come back through B.
 *
 * To reach one instance on purpose (2–4), the smoke adds two copies of the config's `server` block on ports of
 * their own whose upstream is A alone or B alone; the main port uses the config's upstream of both.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx tests/deploy/smoke.ts
 *
 * A fresh database is created beside DATABASE_URL's and dropped (SMOKE_DB_PREFIX names it, default crewboard_deploy).
 * Prints what it measured and one JSON line (SMOKE_DEBUG=1: the instances' and nginx's last log lines too, as on a
 * failure); exits 1 if a check failed, 2 if nginx or DATABASE_URL is missing.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { buildServer } from '../../scripts/build-server.mjs';
import { freePort } from '../helpers/free-port';
import { multipartBody } from '../helpers/multipart';
import { type NoteClient, noteClient, until } from '../helpers/note-socket';
import { startS3, type TestS3 } from '../helpers/s3';
import { createScratchTarget, type ScratchTarget } from '../helpers/scratch-db';

const NGINX = process.env.NGINX || '/usr/sbin/nginx';
const CONFIG = resolve('deploy/nginx/crewboard.conf');
const LOAD_MS = Number(process.env.SMOKE_LOAD_MS) || 8000;
/** When, in the load, instance A is sent SIGTERM. */
const STOP_AT_MS = 2500;
const LOAD_CLIENTS = 8;
const STREAMS = 4;

const checks: { name: string; ok: boolean; detail?: string }[] = [];
function check(name: string, ok: boolean, detail?: string) {
  checks.push({ name, ok, detail });
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}${detail ? ` — ${detail}` : ''}`);
}

/** A GET on a connection of its own, closed after the answer (fetch would keep it open, and a stopping instance waits for it). */
function getStatus(url: string): Promise<number> {
  return new Promise((done, fail) => {
    get(url, { agent: false }, (res) => {
      res.resume();
      res.on('end', () => done(res.statusCode ?? 0));
    }).on('error', fail);
  });
}

async function waitFor(url: string, timeoutMs: number, what: string): Promise<void> {
  const started = Date.now();
  for (;;) {
    if ((await getStatus(url).catch(() => 0)) === 200) return;
    if (Date.now() - started > timeoutMs) throw new Error(`${what} did not answer ${url} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

interface Instance {
  name: string;
  port: number;
  child: ChildProcess;
  exited: Promise<{ code: number | null; at: number }>;
  log: string[];
}

function startInstance(name: string, entry: string, port: number, env: Record<string, string>): Instance {
  const dataDir = mkdtempSync(join(tmpdir(), `crewboard-deploy-${name}-`));
  const child = spawn(process.execPath, [entry], {
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log: string[] = [];
  const keep = (chunk: Buffer) => log.push(...chunk.toString().split('\n').filter(Boolean));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<{ code: number | null; at: number }>((done) =>
    child.on('exit', (code) => {
      rmSync(dataDir, { recursive: true, force: true });
      done({ code, at: Date.now() });
    }),
  );
  return { name, port, child, exited, log };
}

/**
 * nginx's main file around deploy/nginx/crewboard.conf (which goes inside `http { }`), everything under `dir`; the
 * config's listen port and upstream addresses replaced, and two pinned copies of its `server` block.
 */
function nginxConfig(dir: string, ports: { main: number; pinA: number; pinB: number; a: number; b: number }): string {
  const source = readFileSync(CONFIG, 'utf8');
  const upstreams = source.match(/server 127\.0\.0\.1:300[12]\b/g) ?? [];
  const listens = source.match(/^\s*listen 80;$/gm) ?? [];
  if (upstreams.length !== 2 || listens.length !== 1) {
    throw new Error(`${CONFIG}: expected two "server 127.0.0.1:3001/3002" lines and one "listen 80;"`);
  }
  const site = source
    .replace('server 127.0.0.1:3001', `server 127.0.0.1:${ports.a}`)
    .replace('server 127.0.0.1:3002', `server 127.0.0.1:${ports.b}`)
    .replace(/^(\s*)listen 80;$/m, `$1listen 127.0.0.1:${ports.main};`);
  const serverBlock = site.slice(site.search(/^server \{/m));
  const pinned = (name: string, port: number) =>
    serverBlock
      .replace(/listen 127\.0\.0\.1:\d+;/, `listen 127.0.0.1:${port};`)
      .replaceAll('http://crewboard;', `http://${name};`);
  const asRoot = process.getuid?.() === 0;
  return `${asRoot ? 'user root;\n' : ''}worker_processes 2;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  log_format smoke '$msec $request_method $uri $status "$upstream_addr" "$upstream_status"';
  access_log ${dir}/access.log smoke;
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
${site}
# The smoke's pinned copies: A alone, B alone.
upstream crewboard_a { server 127.0.0.1:${ports.a}; keepalive 8; keepalive_timeout 4s; }
upstream crewboard_b { server 127.0.0.1:${ports.b}; keepalive 8; keepalive_timeout 4s; }
${pinned('crewboard_a', ports.pinA)}
${pinned('crewboard_b', ports.pinB)}
}
`;
}

type Json = Record<string, unknown>;

async function call<T = Json>(base: string, method: string, path: string, token?: string, body?: unknown): Promise<T> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`${method} ${path} through ${base}: ${res.status} ${await res.text()}`);
  return (res.status === 204 ? null : await res.json()) as T;
}

/** An SSE stream of /api/events, reconnecting (after 200 ms) whenever it ends, as the web client does. */
class EventStream {
  events: { at: number; data: string }[] = [];
  opened = 0;
  ended = 0;
  private abort = new AbortController();
  private stopped = false;
  constructor(
    private readonly base: string,
    private readonly token: string,
  ) {
    void this.run();
  }
  private async run() {
    while (!this.stopped) {
      try {
        const res = await fetch(`${this.base}/api/events`, {
          headers: { authorization: `Bearer ${this.token}`, accept: 'text/event-stream' },
          signal: this.abort.signal,
        });
        if (res.ok && res.body) {
          const decoder = new TextDecoder();
          let buffer = '';
          for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
            buffer += decoder.decode(chunk, { stream: true });
            let end = buffer.indexOf('\n\n');
            while (end >= 0) {
              const message = buffer.slice(0, end);
              buffer = buffer.slice(end + 2);
              if (/^event: ready$/m.test(message)) this.opened++;
              else if (/^data: /m.test(message)) this.events.push({ at: Date.now(), data: message });
              end = buffer.indexOf('\n\n');
            }
          }
        }
      } catch {
        // ended by an error (or by stop())
      }
      if (this.stopped) return;
      this.ended++;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  stop() {
    this.stopped = true;
    this.abort.abort();
  }
}

async function main(): Promise<number> {
  const baseUrl = process.env.DATABASE_URL;
  if (!baseUrl) {
    console.error('the deployment smoke needs PostgreSQL: set DATABASE_URL');
    return 2;
  }
  if (!existsSync(NGINX)) {
    console.error(`the deployment smoke needs nginx at ${NGINX} (Debian: apt-get install nginx-light), or NGINX=<path>`);
    return 2;
  }
  const started = Date.now();
  const instances: Instance[] = [];
  const streams: EventStream[] = [];
  const notes: NoteClient[] = [];
  let nginx: ChildProcess | undefined;
  let s3: TestS3 | undefined;
  let target: ScratchTarget | undefined;
  // Inside the project (gitignored .scratch/): the bundle resolves its npm packages from its folder up.
  mkdirSync('.scratch', { recursive: true });
  const work = mkdtempSync(join(process.cwd(), '.scratch', 'deploy-smoke-'));
  try {
    target = await createScratchTarget(process.env.SMOKE_DB_PREFIX || 'crewboard_deploy', baseUrl);
    s3 = await startS3('crewboard-deploy');
    const entry = await buildServer(join(work, 'server'));
    // The SPA is not what this smoke checks (the e2e suite does): a stand-in index.html for the static route.
    mkdirSync(join(work, 'client'));
    writeFileSync(join(work, 'client', 'index.html'), '<!doctype html><title>Crewboard smoke</title>');
    const [a, b, main, pinA, pinB] = await Promise.all([freePort(), freePort(), freePort(), freePort(), freePort()]);
    const proxy = `http://127.0.0.1:${main}`;
    const viaA = `http://127.0.0.1:${pinA}`;
    const viaB = `http://127.0.0.1:${pinB}`;
    // deploy/crewboard.env's settings, with this machine's addresses.
    const env = {
      DATABASE_URL: target.databaseUrl!,
      AUTH_SECRET: randomBytes(32).toString('hex'),
      PUBLIC_URL: proxy,
      TRUST_PROXY: 'loopback',
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      CLIENT_DIR: join(work, 'client'),
      S3_ENDPOINT: s3.config.endpoint,
      S3_BUCKET: s3.config.bucket,
      S3_ACCESS_KEY_ID: s3.config.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.config.secretAccessKey,
    };
    // One instance migrates first (docs/deploy.md, upgrades); the second finds nothing to do.
    instances.push(startInstance('A', entry, a, env));
    await waitFor(`http://127.0.0.1:${a}/api/health`, 30_000, 'instance A');
    instances.push(startInstance('B', entry, b, env));
    await waitFor(`http://127.0.0.1:${b}/api/health`, 30_000, 'instance B');
    const [instanceA, instanceB] = instances as [Instance, Instance];

    const nginxDir = join(work, 'nginx');
    mkdirSync(nginxDir);
    writeFileSync(join(nginxDir, 'nginx.conf'), nginxConfig(nginxDir, { main, pinA, pinB, a, b }));
    nginx = spawn(
      NGINX,
      ['-p', nginxDir, '-e', join(nginxDir, 'error.log'), '-c', join(nginxDir, 'nginx.conf'), '-g', 'daemon off;'],
      {
        stdio: ['ignore', 'inherit', 'inherit'],
      },
    );
    await waitFor(`${proxy}/api/health`, 10_000, 'nginx');
    const setUpMs = Date.now() - started;

    // 1. Health, the SPA, sign-up and sign-in, a board.
    const health = await call<{ status: string; schemaVersion: number }>(proxy, 'GET', '/api/health');
    check('health through the proxy', health.status === 'ok' && health.schemaVersion > 0, JSON.stringify(health));
    const index = await fetch(`${proxy}/`);
    check('the SPA through the proxy', index.ok && (await index.text()).includes('Crewboard smoke'));
    const email = `deploy.${randomBytes(4).toString('hex')}@example.com`;
    const password = 'correct horse battery staple';
    await call(proxy, 'POST', '/api/auth/signup', undefined, { email, password, fullName: 'Dee Ploy' });
    const session = await call<{ access_token: string }>(proxy, 'POST', '/api/auth/token?grant_type=password', undefined, {
      email,
      password,
    });
    const token = session.access_token;
    const me = await call<{ email: string }>(viaB, 'GET', '/api/auth/user', token);
    check('signed in through the proxy (a token from one instance works on the other)', me.email === email);
    const team = await call<{ id: string }>(proxy, 'POST', '/api/teams', token, { name: 'Deploy team' });
    const project = await call<{ id: string }>(proxy, 'POST', '/api/projects', token, {
      name: 'Deploy project',
      teamId: team.id,
    });
    for (let i = 0; i < 3; i++) await call(proxy, 'POST', '/api/tasks', token, { title: `Seed ${i}`, projectId: project.id });
    const board = await fetch(`${proxy}/api/tasks/board?projectId=${project.id}`, {
      headers: { authorization: `Bearer ${token}`, 'accept-encoding': 'gzip, br' },
    });
    const boardText = await board.text();
    check(
      'a board read through the proxy',
      board.ok && ['Seed 0', 'Seed 1', 'Seed 2'].every((t) => boardText.includes(t)),
      `${board.status}, content-encoding ${board.headers.get('content-encoding') ?? 'none'}`,
    );

    // 2. A realtime event made through A, seen by a stream held through B.
    const onB = new EventStream(viaB, token);
    streams.push(onB);
    await until(() => onB.opened === 1, 5000, 'the stream on B');
    const sentAt = Date.now();
    await call(viaA, 'POST', '/api/tasks', token, { title: 'Made on A', projectId: project.id });
    await until(() => onB.events.some((e) => e.data.includes(project.id)), 5000, 'the event on B').catch(() => {});
    const seen = onB.events.find((e) => e.data.includes(project.id));
    check('a task made through A reaches an SSE stream through B', !!seen, seen ? `${seen.at - sentAt} ms` : 'not seen in 5 s');
    onB.stop();

    // 3. One note, two editors, one on each instance.
    const note = await call<{ id: string }>(proxy, 'POST', '/api/notes', token, { teamId: team.id, title: 'Deploy note' });
    const ticketOn = async (base: string) =>
      (await call<{ ticket: string }>(base, 'POST', `/api/notes/${note.id}/socket-ticket`, token, {})).ticket;
    const editorA = noteClient(viaA, note.id, await ticketOn(viaA));
    const editorB = noteClient(viaB, note.id, await ticketOn(viaB));
    notes.push(editorA, editorB);
    await Promise.all([editorA.synced, editorB.synced]);
    editorA.type('Typed on A. ');
    await until(() => editorB.text().includes('Typed on A.'), 5000, 'A’s text on B');
    editorB.type('Typed on B.');
    let converged = true;
    await until(() => editorA.text() === editorB.text() && editorA.text().includes('Typed on B.'), 5000, 'B’s text on A').catch(
      () => {
        converged = false;
      },
    );
    check('a note edited on two instances converges', converged, JSON.stringify(editorA.text()));

    // 4. Upload through A, download through B.
    const task = await call<{ id: string }>(proxy, 'POST', '/api/tasks', token, { title: 'With a file', projectId: project.id });
    const bytes = randomBytes(2 * 1024 * 1024);
    const { payload, headers } = multipartBody([{ fileName: 'data.bin', content: bytes }]);
    const uploaded = await fetch(`${viaA}/api/tasks/${task.id}/attachments`, {
      method: 'POST',
      headers: { ...headers, authorization: `Bearer ${token}` },
      body: new Uint8Array(payload),
    });
    const file = (await uploaded.json()) as { url?: string; size?: number };
    check('an upload (2 MiB) through A', uploaded.status === 201 && file.size === bytes.length, `${uploaded.status}`);
    const download = file.url ? await fetch(new URL(file.url, viaB)) : null;
    const got = download?.ok ? Buffer.from(await download.arrayBuffer()) : Buffer.alloc(0);
    check('its download through B has the same bytes', got.equals(bytes), `${download?.status} ${got.length} bytes`);

    // 5. Failover: streams and load through the proxy's upstream of both; A stopped in the middle.
    for (let i = 0; i < STREAMS; i++) streams.push(new EventStream(proxy, token));
    const live = streams.slice(1);
    await until(() => live.every((s) => s.opened >= 1), 5000, 'the streams');
    const statuses = new Map<string, number>();
    const failures: string[] = [];
    const created: string[] = [];
    let requests = 0;
    const loadStarted = Date.now();
    const stopAt = loadStarted + STOP_AT_MS;
    const loadEnds = loadStarted + LOAD_MS;
    let stopSent = 0;
    const stopper = setTimeout(() => {
      stopSent = Date.now();
      instanceA.child.kill('SIGTERM');
    }, stopAt - Date.now());
    const client = async (i: number) => {
      for (let n = 0; Date.now() < loadEnds; n++) {
        const kind = (n + i) % 3;
        const [method, path, body] =
          kind === 0
            ? ['POST', '/api/tasks', { title: `Load ${i}.${n}`, projectId: project.id }]
            : kind === 1
              ? ['GET', `/api/tasks/board?projectId=${project.id}`, undefined]
              : ['GET', `/api/tasks?projectId=${project.id}&limit=50`, undefined];
        requests++;
        try {
          const res = await fetch(`${proxy}${path}`, {
            method,
            headers: {
              authorization: `Bearer ${token}`,
              'accept-encoding': 'gzip, br',
              ...(body ? { 'content-type': 'application/json' } : {}),
            },
            body: body ? JSON.stringify(body) : undefined,
          });
          const text = await res.text();
          const key = `${method} ${res.status}`;
          statuses.set(key, (statuses.get(key) ?? 0) + 1);
          if (!res.ok) failures.push(`${method} ${path}: ${res.status} ${text.slice(0, 120)}`);
          else if (method === 'POST') created.push((JSON.parse(text) as { id: string }).id);
        } catch (error) {
          failures.push(`${method} ${path}: ${(error as Error).message}`);
        }
      }
    };
    await Promise.all(Array.from({ length: LOAD_CLIENTS }, (_, i) => client(i)));
    clearTimeout(stopper);
    const exitA = await Promise.race([instanceA.exited, new Promise<null>((r) => setTimeout(() => r(null), 20_000))]);
    const stopMs = exitA && stopSent ? exitA.at - stopSent : null;
    check(
      'instance A stopped on SIGTERM, exit code 0',
      exitA?.code === 0,
      exitA ? `exit ${exitA.code} after ${stopMs} ms` : 'still running 20 s later',
    );
    check(
      `no failed request through the proxy while A stopped (${requests} requests, ${LOAD_CLIENTS} clients, ${LOAD_MS / 1000} s)`,
      failures.length === 0,
      failures.length ? failures.slice(0, 5).join('; ') : JSON.stringify(Object.fromEntries(statuses)),
    );

    // Each acknowledged creation is in the database.
    const db = new pg.Client({ connectionString: target.databaseUrl });
    await db.connect();
    const stored = await db
      .query<{ n: string }>('select count(*)::text as n from tasks where id = any($1::uuid[])', [created])
      .finally(() => db.end());
    check('every acknowledged task is stored', Number(stored.rows[0]?.n) === created.length, `${created.length} created`);

    // What nginx did: requests of the load answered after a second try (upstream_addr lists two instances).
    const accessLog = readFileSync(join(nginxDir, 'access.log'), 'utf8').split('\n');
    const during = accessLog.filter((line) => {
      const at = Number(line.split(' ')[0]) * 1000;
      return at >= loadStarted && at <= loadEnds + 2000 && / \/api\/tasks/.test(line);
    });
    const retried = during.filter((line) => /"[^"]*, [^"]*"/.test(line.split(' ').slice(4).join(' ')));
    console.log(
      `     nginx: ${during.length} load requests logged, ${retried.length} answered after a retry on the other instance`,
    );
    for (const line of retried.slice(0, 10)) console.log(`       ${line}`);

    // The streams: those A held were ended by its shutdown and came back through B; a new event reaches them all.
    const reconnected = live.filter((s) => s.ended > 0);
    const marker = `After A ${randomBytes(3).toString('hex')}`;
    await call(proxy, 'POST', '/api/tasks', token, { title: marker, projectId: project.id });
    await until(() => live.every((s) => s.events.some((e) => e.data.includes(project.id) && e.at > loadEnds)), 5000, 'events')
      .then(() => true)
      .catch(() => false);
    const reached = live.filter((s) => s.events.some((e) => e.data.includes(project.id) && e.at > loadEnds)).length;
    check(
      'the streams on A reconnected through B and receive events',
      reconnected.length > 0 && reached === live.length && live.every((s) => s.opened === s.ended + 1),
      `${reconnected.length} of ${live.length} streams were on A and reconnected; ${reached} of ${live.length} got the next event`,
    );
    const bAlive = await fetch(`${proxy}/api/health`).then((r) => r.ok);
    check('B still serves through the proxy', bAlive && instanceB.child.exitCode === null);

    const summary = {
      ok: checks.every((c) => c.ok),
      seconds: Math.round((Date.now() - started) / 100) / 10,
      setUpMs,
      load: { requests, statuses: Object.fromEntries(statuses), failures: failures.length, retriedByNginx: retried.length },
      stopA: exitA ? { code: exitA.code, ms: stopMs } : null,
      streams: { total: live.length, reconnected: reconnected.length, reached },
    };
    console.log(JSON.stringify(summary));
    if (!summary.ok || process.env.SMOKE_DEBUG) {
      for (const instance of instances) {
        const tail = instance.log.slice(-15);
        if (tail.length) console.log(`--- instance ${instance.name}, last lines:\n${tail.join('\n')}`);
      }
      const errors = readFileSync(join(nginxDir, 'error.log'), 'utf8').trim().split('\n').slice(-15);
      console.log(`--- nginx error.log, last lines:\n${errors.join('\n')}`);
    }
    return summary.ok ? 0 : 1;
  } finally {
    for (const s of streams) s.stop();
    for (const n of notes) n.destroy();
    nginx?.kill('SIGTERM');
    await Promise.all(
      instances.map(async (instance) => {
        const running = () => instance.child.exitCode === null && instance.child.signalCode === null;
        if (running()) instance.child.kill('SIGTERM');
        await Promise.race([instance.exited, new Promise((r) => setTimeout(r, 12_000))]);
        // Still there (a hung stop): killed, so that no instance outlives the smoke and its dropped database.
        if (running()) instance.child.kill('SIGKILL');
      }),
    );
    await s3?.stop();
    await target?.drop();
    rmSync(work, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
