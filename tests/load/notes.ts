/**
 * Load test of the notes' collaboration (issue 25): TWO app instances (processes of their own) on one PostgreSQL
 * database, NOTES_LOAD_EDITORS Yjs clients (y-websocket's provider over `ws`, as the editor) split across them, all
 * typing into one note for NOTES_LOAD_SECONDS. Measures the delay from one client's update to each other client
 * receiving it (the sender's clock rides in a Y.Map entry of the same transaction; all clients share this process's
 * clock), checks that every client converges to the same document (and that a client connecting after everyone left
 * loads it from the database), and samples each server's RSS. Prints one JSON line; exits 1 if not converged.
 *
 *   DATABASE_URL=postgres://... npx tsx tests/load/notes.ts            # 60 s, 20 editors
 *   DATABASE_URL=postgres://... npx tsx tests/load/notes.ts --smoke    # 5 s, 4 editors
 *
 * Targets: p99 ≤ 150 ms, RSS < 300 MB per server. A fresh database is created beside DATABASE_URL's and dropped.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { build } from 'esbuild';
import { createInterface } from 'node:readline';
import { openDatabase } from '../../src/server/db/client';
import { teamMembers, teams } from '../../src/server/db/schema';
import { NOTE_FRAGMENT } from '../../src/domain/schemas/note';
import * as Y from 'yjs';
import type { TestUser } from '../factories';
import { type NoteClient, noteClient } from '../helpers/note-socket';
import { createScratchTarget } from '../helpers/scratch-db';

const smoke = process.argv.includes('--smoke');
// Each y-websocket provider listens for the process's exit.
process.setMaxListeners(0);
const SECONDS = smoke ? 5 : Number(process.env.NOTES_LOAD_SECONDS) || 60;
const EDITORS = smoke ? 4 : Number(process.env.NOTES_LOAD_EDITORS) || 20;
/** Each editor types a character about this often (a fast typist: ~4 per second), at a random place. */
const KEYSTROKE_MS = 250;

interface Server {
  child: ChildProcess;
  url: string;
  rss: number[];
}

/**
 * The server bundled as for production (esbuild, npm packages external: scripts/build-server.mjs), so that its memory
 * is what a deployed instance uses (not a TypeScript loader's).
 */
async function bundleServer(): Promise<{ entry: string; remove: () => void }> {
  // Inside the project (gitignored .scratch/): ESM resolves the external packages from the bundle's own folder up.
  mkdirSync('.scratch', { recursive: true });
  const outdir = mkdtempSync(join(process.cwd(), '.scratch', 'notes-load-'));
  await build({
    entryPoints: { server: 'tests/load/notes-server.ts' },
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    packages: 'external',
    logLevel: 'warning',
  });
  cpSync('src/server/db/migrations', join(outdir, 'migrations'), { recursive: true });
  // The password policy reads its list from beside the module, which is this bundle now (as scripts/build-server.mjs).
  cpSync('src/server/modules/auth/common-passwords.txt', join(outdir, 'common-passwords.txt'));
  return { entry: join(outdir, 'server.mjs'), remove: () => rmSync(outdir, { recursive: true, force: true }) };
}

function startServer(entry: string, databaseUrl: string, authSecret: string): Promise<Server> {
  const child = spawn(process.execPath, [entry], {
    env: { ...process.env, DATABASE_URL: databaseUrl, AUTH_SECRET: authSecret, LOG_LEVEL: 'silent' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      const match = /^listening (\d+)$/.exec(line);
      if (match) resolve({ child, url: `http://127.0.0.1:${match[1]}`, rss: [] });
    });
    child.on('exit', (code) => reject(new Error(`server exited (${code})`)));
  });
}

/** Resident memory of a process in MB (Linux /proc). */
function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round((kb / 1024) * 10) / 10;
}

async function api<T>(base: string, method: string, path: string, body?: unknown, token?: string): Promise<T> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

async function signUp(base: string, i: number): Promise<Pick<TestUser, 'id' | 'token'>> {
  const email = `load.${i}.${randomBytes(4).toString('hex')}@example.com`;
  const password = 'correct horse battery';
  await api(base, 'POST', '/api/auth/signup', { email, password, fullName: `Editor ${i}` });
  const session = await api<{ access_token: string; user: { id: string } }>(base, 'POST', '/api/auth/token?grant_type=password', {
    email,
    password,
  });
  return { id: session.user.id, token: session.access_token };
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

async function main(): Promise<number> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    console.error('the notes load test needs PostgreSQL: set DATABASE_URL');
    return 2;
  }
  const target = await createScratchTarget('crewboard_notes_load', url);
  const database = await openDatabase({ databaseUrl: target.databaseUrl, poolSize: 2 });
  const servers: Server[] = [];
  const clients: NoteClient[] = [];
  let bundle: { entry: string; remove: () => void } | undefined;
  try {
    await database.migrate();
    const authSecret = randomBytes(32).toString('hex');
    bundle = await bundleServer();
    const entry = bundle.entry;
    servers.push(
      ...(await Promise.all([
        startServer(entry, target.databaseUrl!, authSecret),
        startServer(entry, target.databaseUrl!, authSecret),
      ])),
    );
    const idleRss = servers.map((s) => rssMb(s.child.pid!));
    const [a, b] = servers as [Server, Server];

    // EDITORS people in one team, one note.
    const people = await Promise.all(Array.from({ length: EDITORS }, (_, i) => signUp(a.url, i)));
    const [team] = await database.db.insert(teams).values({ name: 'Load team', ownerId: people[0]!.id }).returning();
    await database.db.insert(teamMembers).values(
      people.map((p, i) => ({
        teamId: team!.id,
        userId: p.id,
        role: i === 0 ? ('owner' as const) : ('member' as const),
        status: 'active' as const,
      })),
    );
    const note = await api<{ id: string }>(a.url, 'POST', '/api/notes', { teamId: team!.id, title: 'Load' }, people[0]!.token);

    // Latency: each sender writes its clock into the map `load` under its own key, in the typing transaction.
    const latencies: number[] = [];
    /** Between clients of one instance, and across the two (through NOTIFY). */
    const sameServer: number[] = [];
    const crossServer: number[] = [];
    let sent = 0;
    for (let i = 0; i < EDITORS; i++) {
      const server = i % 2 === 0 ? a : b;
      const { ticket } = await api<{ ticket: string }>(
        server.url,
        'POST',
        `/api/notes/${note.id}/socket-ticket`,
        {},
        people[i]!.token,
      );
      const client = noteClient(server.url, note.id, ticket);
      const me = String(i);
      client.doc.getMap<number>('load').observe((event) => {
        if (event.transaction.local) return;
        const now = Date.now();
        for (const key of event.keysChanged) {
          if (key === me) continue;
          const at = client.doc.getMap<number>('load').get(key);
          if (typeof at === 'number') {
            latencies.push(now - at);
            (Number(key) % 2 === i % 2 ? sameServer : crossServer).push(now - at);
          }
        }
      });
      clients.push(client);
    }
    await Promise.all(clients.map((c) => c.synced));
    // The first paragraph, created once (by one editor) before the others type into it.
    clients[0]!.type('');
    await new Promise((resolve) => setTimeout(resolve, 500));

    // After the set-up (sign-ups hash passwords with argon2, which takes memory of its own).
    const readyRss = servers.map((s) => rssMb(s.child.pid!));
    const loopDelay = monitorEventLoopDelay({ resolution: 10 });
    loopDelay.enable();
    const sample = setInterval(() => {
      for (const s of servers) s.rss.push(rssMb(s.child.pid!));
    }, 1000);
    const letters = 'abcdefghijklmnopqrstuvwxyz ';
    const timers = clients.map((client, i) => {
      const fragment = client.doc.getXmlFragment(NOTE_FRAGMENT);
      const tick = () => {
        const paragraph = fragment.get(0) as Y.XmlElement | undefined;
        const run = paragraph?.get(0) as Y.XmlText | undefined;
        client.doc.transact(() => {
          if (run) run.insert(Math.floor(Math.random() * (run.length + 1)), letters[Math.floor(Math.random() * letters.length)]!);
          client.doc.getMap<number>('load').set(String(i), Date.now());
        });
        sent++;
      };
      // Spread over the first interval, then every KEYSTROKE_MS with some jitter.
      return setTimeout(function again() {
        tick();
        timers[i] = setTimeout(again, KEYSTROKE_MS * (0.5 + Math.random()));
      }, Math.random() * KEYSTROKE_MS);
    });
    await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000));
    for (const t of timers) clearTimeout(t);
    clearInterval(sample);

    // Convergence: everyone the same, within a few seconds of the last keystroke.
    const same = () => {
      const first = Y.encodeStateVector(clients[0]!.doc).toString();
      const text = clients[0]!.text();
      return clients.every((c) => Y.encodeStateVector(c.doc).toString() === first && c.text() === text);
    };
    const deadline = Date.now() + 10_000;
    while (!same() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    const converged = same();
    const finalText = clients[0]!.text();

    // Persistence: everyone leaves; a newcomer loads the note from the database.
    for (const c of clients) c.destroy();
    clients.length = 0;
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const { ticket } = await api<{ ticket: string }>(b.url, 'POST', `/api/notes/${note.id}/socket-ticket`, {}, people[1]!.token);
    const late = noteClient(b.url, note.id, ticket);
    clients.push(late);
    await late.synced;
    const persisted = late.text() === finalText;

    latencies.sort((x, y) => x - y);
    sameServer.sort((x, y) => x - y);
    crossServer.sort((x, y) => x - y);
    loopDelay.disable();
    const result = {
      test: 'notes-collab',
      seconds: SECONDS,
      editors: EDITORS,
      servers: 2,
      updatesSent: sent,
      deliveries: latencies.length,
      latencyMs: {
        p50: percentile(latencies, 50),
        p90: percentile(latencies, 90),
        p99: percentile(latencies, 99),
        max: latencies[latencies.length - 1] ?? 0,
      },
      sameInstanceP99Ms: percentile(sameServer, 99),
      crossInstanceP99Ms: percentile(crossServer, 99),
      /** This process (the 20 clients) may itself be late to read what arrived. */
      clientLoopDelayP99Ms: Math.round(loopDelay.percentile(99) / 1e6),
      loadAverage: loadavg().map((n) => Math.round(n * 10) / 10),
      rssMb: servers.map((s, i) => ({
        idle: idleRss[i],
        beforeTyping: readyRss[i],
        max: Math.max(0, ...s.rss),
        last: s.rss[s.rss.length - 1] ?? 0,
      })),
      documentChars: finalText.length,
      converged,
      persisted,
      targets: { p99Ms: 150, rssMb: 300 },
      pass: converged && persisted && percentile(latencies, 99) <= 150 && servers.every((s) => Math.max(0, ...s.rss) < 300),
    };
    console.log(JSON.stringify(result));
    return converged && persisted ? 0 : 1;
  } finally {
    for (const c of clients) c.destroy();
    await Promise.all(
      servers.map(
        (s) =>
          new Promise<void>((resolve) => {
            s.child.once('exit', () => resolve());
            s.child.kill('SIGTERM');
            setTimeout(() => {
              s.child.kill('SIGKILL');
              resolve();
            }, 10_000).unref();
          }),
      ),
    );
    await database.close();
    await target.drop();
    bundle?.remove();
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
