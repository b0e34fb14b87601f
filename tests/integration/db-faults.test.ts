import { createServer, connect, type Server, type Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { openDatabase, type Database } from '../../src/server/db/client';
import { createUser, insertTeam, type TestUser } from '../factories';
import { testConfig } from '../helpers/app';
import { createScratchTarget, type ScratchTarget } from '../helpers/scratch-db';
import { insertDefaultStatuses } from '../../src/server/db/project-statuses';
import { projects } from '../../src/server/db/schema';

/**
 * Database faults, short form for CI, on PostgreSQL only: a TCP proxy (node:net) sits between the
 * app and PostgreSQL and is cut under load — first refusing (as a stopped server does), then
 * swallowing connections (a dead network). Requests must fail fast with 503 `unavailable`, the
 * process must not crash, the app must recover when the link returns, and no acknowledged write
 * may be lost. The real PostgreSQL server is never touched.
 */

const URL_ = process.env.DATABASE_URL;
const CONNECT_TIMEOUT_MS = 1_000;
const CUT_MS = Number(process.env.FAULT_CUT_MS) || 4_000;

type Mode = 'up' | 'refuse' | 'blackhole';

class FaultProxy {
  mode: Mode = 'up';
  private readonly sockets = new Set<Socket>();
  private server: Server | null = null;
  port = 0;

  constructor(
    private readonly host: string,
    private readonly upstreamPort: number,
  ) {}

  async start(): Promise<void> {
    this.server = createServer((client) => {
      this.track(client);
      if (this.mode === 'refuse') return void client.destroy();
      if (this.mode === 'blackhole') return; // accepted, never answered
      const upstream = connect(this.upstreamPort, this.host);
      this.track(upstream);
      upstream.on('error', () => client.destroy());
      client.on('error', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
      client.on('close', () => upstream.destroy());
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server!.address() as { port: number }).port;
  }

  private track(s: Socket) {
    this.sockets.add(s);
    s.on('close', () => this.sockets.delete(s));
    s.on('error', () => {});
  }

  /** Cuts every open connection; new ones are refused or swallowed until `restore()`. */
  cut(mode: Exclude<Mode, 'up'>) {
    this.mode = mode;
    for (const s of this.sockets) s.destroy();
  }

  restore() {
    this.mode = 'up';
    // Swallowed connections die now, so their clients fail at once instead of waiting.
    for (const s of this.sockets) s.destroy();
  }

  async stop() {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

interface Sample {
  at: number;
  ms: number;
  status: number;
  code?: string;
  kind: 'read' | 'write';
}

describe.skipIf(!URL_)('database faults (PostgreSQL through a TCP proxy)', () => {
  let proxy: FaultProxy;
  let database: Database;
  let app: FastifyInstance;
  let scratch: ScratchTarget | undefined;
  let owner: TestUser;
  let projectId = '';

  beforeAll(async () => {
    const base = new URL(URL_!);
    scratch = await createScratchTarget('crewboard_fault', URL_);
    proxy = new FaultProxy(base.hostname, Number(base.port || 5432));
    await proxy.start();
    const viaProxy = new URL(URL_!);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(proxy.port);
    viaProxy.pathname = new URL(scratch.databaseUrl!).pathname;
    database = await openDatabase({ databaseUrl: viaProxy.toString(), poolSize: 5, connectTimeoutMs: CONNECT_TIMEOUT_MS });
    await database.migrate();
    app = await buildApp({ config: testConfig(), database, logger: process.env.FAULT_LOG ? { level: 'error' } : undefined });
    await app.ready();
    owner = await createUser(app);
    const team = await insertTeam(database.db, owner);
    const [project] = await database.db
      .insert(projects)
      .values({ name: 'Faults', teamId: team.id, ownerId: owner.id })
      .returning();
    await insertDefaultStatuses(database.db, [project!.id]);
    projectId = project!.id;
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    // Never hang the suite on a pool that cannot end.
    await Promise.race([database?.close().catch(() => {}), new Promise((r) => setTimeout(r, 5_000))]);
    await proxy?.stop();
    await scratch?.drop();
  });

  it('fails fast with 503 while the database is away, never hangs or crashes, and recovers when it returns', async () => {
    const samples: Sample[] = [];
    const acknowledged: string[] = [];
    let running = true;
    let n = 0;
    const worker = async (w: number) => {
      while (running) {
        const kind: Sample['kind'] = (n++ + w) % 3 === 0 ? 'write' : 'read';
        const started = Date.now();
        const res =
          kind === 'read'
            ? await app.inject({ url: `/api/tasks?projectId=${projectId}&limit=5`, headers: owner.auth })
            : await app.inject({
                method: 'POST',
                url: '/api/tasks',
                headers: owner.auth,
                payload: { title: `Fault ${n}`, projectId },
              });
        const sample: Sample = { at: started, ms: Date.now() - started, status: res.statusCode, kind };
        if (res.statusCode >= 400) sample.code = (res.json() as { error?: { code?: string } }).error?.code;
        if (res.statusCode === 201) acknowledged.push((res.json() as { id: string }).id);
        samples.push(sample);
        if (res.statusCode >= 400) await new Promise((r) => setTimeout(r, 50));
      }
    };
    const workers = Array.from({ length: 8 }, (_, i) => worker(i));
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

    await sleep(1_500);
    const cutAt = Date.now();
    proxy.cut('refuse');
    await sleep(CUT_MS / 2);
    proxy.cut('blackhole');
    await sleep(CUT_MS / 2);
    const restoredAt = Date.now();
    proxy.restore();
    // Recovery: the first moment from which 99% of requests in every following second succeed.
    let recoveredAt = 0;
    while (Date.now() - restoredAt < 30_000) {
      await sleep(250);
      const recent = samples.filter((s) => s.at >= Date.now() - 1_000);
      if (recent.length >= 5 && recent.filter((s) => s.status < 400).length / recent.length >= 0.99) {
        recoveredAt = Date.now() - 1_000;
        break;
      }
    }
    await sleep(1_500);
    running = false;
    await Promise.all(workers);
    // No connection leaked: every client is back in the pool (a dead one must not stay checked out).
    const pool = database.pool!;
    for (let i = 0; i < 20 && pool.totalCount !== pool.idleCount; i++) await sleep(100);
    expect(pool.totalCount - pool.idleCount, 'connections still checked out').toBe(0);

    const during = samples.filter((s) => s.at >= cutAt + 200 && s.at + s.ms <= restoredAt);
    const failed = samples.filter((s) => s.status >= 400);
    const after = samples.filter((s) => s.at >= Math.max(recoveredAt, restoredAt));
    // Recovery time: from the link's return to the first request that succeeds again.
    const firstOk = samples.filter((s) => s.at >= restoredAt && s.status < 400).sort((a, b) => a.at + a.ms - (b.at + b.ms))[0];
    const recovery = firstOk ? firstOk.at + firstOk.ms - restoredAt : Number.POSITIVE_INFINITY;
    const slowest = Math.max(...during.map((s) => s.ms));
    console.log(
      `db faults: ${samples.length} requests, ${during.length} while cut (${during.filter((s) => s.status === 503).length} × 503, slowest ${slowest} ms), ` +
        `recovery ${recovery} ms, ${acknowledged.length} acknowledged writes`,
    );

    // While cut: 503 unavailable, nothing else (no 500), and within the connect timeout plus margin.
    expect(during.length).toBeGreaterThan(10);
    expect(failed.filter((s) => s.status !== 503 || s.code !== 'unavailable').map((s) => `${s.status} ${s.code}`)).toEqual([]);
    expect(during.filter((s) => s.status !== 503)).toEqual([]);
    expect(slowest).toBeLessThan(CONNECT_TIMEOUT_MS + 2_500);
    // Back within 30 s (in practice about a second), and healthy afterwards.
    expect(recoveredAt).toBeGreaterThan(0);
    expect(recovery).toBeLessThan(30_000);
    expect(after.filter((s) => s.status < 400).length / after.length).toBeGreaterThanOrEqual(0.99);
    expect((await app.inject('/api/health')).statusCode).toBe(200);

    // No acknowledged write was lost.
    const check = new pg.Client({ connectionString: scratch!.databaseUrl });
    await check.connect();
    const { rows } = await check.query('select id from tasks where id = any($1::uuid[])', [acknowledged]);
    await check.end();
    expect(rows.length).toBe(acknowledged.length);
  }, 120_000);

  it(
    'answers 503 within the connect timeout when every pooled connection is held, and leaks nothing',
    { timeout: 60_000 },
    async () => {
      const pool = database.pool!;
      const held: pg.PoolClient[] = [];
      try {
        // Take every connection of the pool (max 5). On a busy machine one connect may exceed the
        // short test timeout: keep trying for a while.
        const deadline = Date.now() + 20_000;
        while (held.length < 5) {
          try {
            held.push(await pool.connect());
          } catch (error) {
            if (Date.now() > deadline) throw error;
          }
        }
        const started = Date.now();
        const res = await app.inject({ url: '/api/teams', headers: owner.auth });
        const ms = Date.now() - started;
        expect(res.statusCode).toBe(503);
        expect(res.json().error.code).toBe('unavailable');
        expect(res.headers['retry-after']).toBeDefined();
        expect(ms).toBeGreaterThanOrEqual(CONNECT_TIMEOUT_MS - 50);
        expect(ms).toBeLessThan(CONNECT_TIMEOUT_MS + 2_000);
      } finally {
        for (const c of held) c.release();
      }
      const ok = await app.inject({ url: '/api/teams', headers: owner.auth });
      expect(ok.statusCode).toBe(200);
      expect(pool.totalCount).toBeLessThanOrEqual(5);
      expect(pool.waitingCount).toBe(0);
    },
  );
});

describe.skipIf(Boolean(URL_))('database faults', () => {
  it('skipped: the fault tests need PostgreSQL (set DATABASE_URL)', () => {
    console.log('db-faults: skipped — set DATABASE_URL to run the PostgreSQL fault tests');
    expect(URL_).toBeUndefined();
  });
});
