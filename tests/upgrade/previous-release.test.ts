import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readMigrations } from '../../src/server/db/migrate-safely';
import { freePort } from '../helpers/free-port';
import { migrationsUpTo } from '../helpers/migrations';
import { createScratchTarget } from '../helpers/scratch-db';
import { startSmtpServer } from '../helpers/smtp';
import { buildServerOf, extractRelease, previousReleaseCommit, ROOT, type Release, runCli, startServer } from './release';
import { fill, http, readAll } from './rows';

/**
 * The upgrade test (issue 42): the previous release (tests/upgrade/previous-release) makes a database on a fresh engine,
 * fills it through its API with every kind of row, reads them all back (the expected); today's server then starts on
 * that database (it migrates it, backing it up first when there is a migration to apply) and must give every row back
 * through its API as it was, and let in the sessions, passwords, second factors and API tokens made before.
 * PGlite always; PostgreSQL on a scratch database of DATABASE_URL's server (or the local one), skipped only when none
 * answers.
 */

const SCHEMA_TODAY = readMigrations().length;
const VERSION_TODAY = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const PG_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

async function answers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

const pgUp = await answers(PG_URL);
if (process.env.DATABASE_URL && !pgUp) throw new Error(`DATABASE_URL is set but PostgreSQL at ${PG_URL} does not answer`);
if (!pgUp) console.warn(`upgrade test: no PostgreSQL answers at ${PG_URL}; its half is skipped`);

/**
 * What differs between two reads of the same rows by design: when a session or token was last seen (this read is a
 * use), when an export was made; the expiry and signature of a file's signed URL (issued for the hour of the read).
 */
const MOMENTS = new Set(['lastSeenAt', 'lastUsedAt', 'exportedAt']);
function steady(value: unknown): unknown {
  if (typeof value === 'string') return value.replace(/([?&])exp=\d+&sig=[\w-]+/g, '$1exp=…&sig=…');
  if (Array.isArray(value)) return value.map(steady);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([k]) => !MOMENTS.has(k))
        .map(([k, v]) => [k, steady(v)]),
    );
  }
  return value;
}

let release: Release;
/** The two servers, built as `npm start` runs them: the previous release's, and today's (in a folder of its own). */
let oldServer: string;
let todayServer: string;
let todayHome: string;
beforeAll(() => {
  release = extractRelease(previousReleaseCommit());
  oldServer = buildServerOf(release.dir, release.dir);
  todayHome = mkdtempSync(join(tmpdir(), 'crewboard-upgrade-today-'));
  todayServer = buildServerOf(ROOT, todayHome);
  if (release.modules === 'own') {
    console.warn(`upgrade test: the previous release pins other dependencies (${release.differences.join(', ')}): npm ci`);
  }
});
afterAll(() => {
  release?.remove();
  if (todayHome) rmSync(todayHome, { recursive: true, force: true });
});

const health = (base: string) =>
  http(base).call<{ status: string; version: string; schemaVersion: number }>(null, 'GET', '/api/health');

const backupsIn = (dataDir: string) => {
  const folder = join(dataDir, 'backups');
  return existsSync(folder) ? readdirSync(folder).sort() : [];
};

/** Every read of `expected` gives the same again in `actual` (more fields allowed), every difference reported. */
function compare(expected: Record<string, unknown>, actual: Record<string, unknown>): void {
  for (const [read, value] of Object.entries(expected)) {
    const got = steady(actual[read]);
    // Objects and lists of them: the same length and values, each object allowed new fields (toMatchObject).
    if (value && typeof value === 'object') expect.soft(got, read).toMatchObject(steady(value) as object);
    else expect.soft(got, read).toEqual(steady(value));
  }
  expect(Object.keys(actual).sort()).toEqual(Object.keys(expected).sort());
}

/**
 * Today's migrations and one more after them (a new table): a migration to apply even at a release that adds none, so
 * that the backup taken before it is seen on a database full of rows. The caller removes the folder.
 */
function withProbeMigration(): string {
  const today = readMigrations();
  const folder = migrationsUpTo(today.at(-1)!.tag);
  const tag = `${String(today.length).padStart(4, '0')}_upgrade_probe`;
  writeFileSync(join(folder, `${tag}.sql`), 'CREATE TABLE "upgrade_probe" ("id" integer);');
  const journalFile = join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: Record<string, unknown>[] };
  journal.entries.push({ idx: today.length, version: '7', when: today.at(-1)!.when + 1, tag, breakpoints: true });
  writeFileSync(journalFile, JSON.stringify(journal));
  return folder;
}

describe.each([
  { engine: 'PGlite', baseUrl: null as string | null, run: true },
  { engine: 'PostgreSQL', baseUrl: PG_URL, run: pgUp },
])('upgrading the previous release on $engine', ({ engine, baseUrl, run }) => {
  it.runIf(run)('keeps every row, file, session, second factor and token', { timeout: 300_000 }, async () => {
    const target = await createScratchTarget(process.env.UPGRADE_DB_PREFIX ?? 'upgrade', baseUrl);
    const smtp = await startSmtpServer().catch(async (error) => {
      await target.drop();
      throw error;
    });
    const probe = withProbeMigration();
    // Both releases at one address (links such as a form's carry it), with one mail server.
    const port = await freePort();
    const env = { SMTP_URL: smtp.url, MAIL_FROM: 'Crewboard <no-reply@crewboard.test>' };
    /** Runs `check` against the server built in `built` on the database, stopping it after; its log goes with a failure. */
    const withServer = async <T>(
      built: string,
      extra: Record<string, string>,
      what: string,
      check: (url: string) => Promise<T>,
    ) => {
      const started = Date.now();
      const server = await startServer(built, target, port, { ...env, ...extra });
      const up = Date.now();
      try {
        return await check(server.url);
      } catch (error) {
        throw Object.assign(error as Error, {
          message: `${what} on ${engine}: ${(error as Error).message}\n${server.log().slice(-4000)}`,
        });
      } finally {
        await server.stop();
        const seconds = (ms: number) => (ms / 1000).toFixed(1);
        console.log(`${engine}, ${what}: started in ${seconds(up - started)} s, its part took ${seconds(Date.now() - up)} s`);
      }
    };
    try {
      const { made, expected, before } = await withServer(
        oldServer,
        {},
        `the previous release (${release.commit})`,
        async (url) => {
          const made = await fill(url, smtp);
          // A system role, as it is given: the release's CLI (through the running server's socket on PGlite).
          runCli(oldServer, target, ['set-role', made.owner.email, 'super_admin']);
          return { made, expected: await readAll(url, made), before: await health(url) };
        },
      );

      // Today's server upgrades it (a backup first when it has a migration to apply), and gives every row back.
      await withServer(todayServer, {}, "today's server", async (url) => {
        expect(await health(url)).toEqual({ status: 'ok', version: VERSION_TODAY, schemaVersion: SCHEMA_TODAY });
        if (before.schemaVersion < SCHEMA_TODAY) {
          expect(backupsIn(target.dataDir)).toEqual([
            expect.stringMatching(new RegExp(`-schema${before.schemaVersion}-to-schema${SCHEMA_TODAY}\\.`)),
          ]);
        } else {
          expect(before.schemaVersion).toBe(SCHEMA_TODAY);
          expect(backupsIn(target.dataDir)).toEqual([]);
        }
        compare(expected, await readAll(url, made));
      });

      // Once more with a migration to apply whatever today's adds: backed up first, every row kept.
      const backups = backupsIn(target.dataDir);
      await withServer(todayServer, { MIGRATIONS_DIR: probe }, "today's server with a probe migration", async (url) => {
        expect(await health(url)).toMatchObject({ status: 'ok', schemaVersion: SCHEMA_TODAY + 1 });
        const added = backupsIn(target.dataDir).filter((name) => !backups.includes(name));
        expect(added).toEqual([expect.stringMatching(new RegExp(`-schema${SCHEMA_TODAY}-to-schema${SCHEMA_TODAY + 1}\\.`))]);
        compare(expected, await readAll(url, made));

        const { call, request } = http(url);
        // Sessions made before: their access tokens were the reads above; their refresh tokens still refresh.
        for (const who of [made.owner, made.member]) {
          const session = await call<{ user: { id: string } }>(null, 'POST', '/api/auth/token?grant_type=refresh_token', {
            refresh_token: who.refresh,
          });
          expect(session.user.id).toBe(who.id);
        }
        // Passwords hashed before sign in; the second factor set up before is asked for and accepted (a code from the
        // authenticator, and a recovery code).
        const signIn = await call<{ user: { id: string } }>(null, 'POST', '/api/auth/token?grant_type=password', {
          email: made.member.email,
          password: made.member.password,
        });
        expect(signIn.user.id).toBe(made.member.id);
        for (const code of [made.adminCode(), made.adminRecoveryCodes[0]!]) {
          const step = await request(null, 'POST', '/api/auth/token?grant_type=password', {
            email: made.admin.email,
            password: made.admin.password,
          });
          expect(step.status).toBe(401);
          const { error } = (await step.json()) as { error: { reason: string; mfa_token: string } };
          expect(error.reason).toBe('mfa_required');
          const session = await call<{ user: { id: string } }>(null, 'POST', '/api/auth/token?grant_type=mfa', {
            mfa_token: error.mfa_token,
            code,
          });
          expect(session.user.id).toBe(made.admin.id);
        }
        // API tokens made before: the read one reads (and only reads), the write one writes.
        const [taskId] = made.taskIds;
        expect(await call(made.readToken, 'GET', `/api/tasks/${taskId}`)).toMatchObject(
          steady(expected[`Olive GET /api/tasks/${taskId}`]) as object,
        );
        expect((await request(made.readToken, 'POST', `/api/tasks/${taskId}/comments`, { body: 'no' })).status).toBe(403);
        await call(made.writeToken, 'POST', `/api/tasks/${taskId}/comments`, { body: 'After the upgrade' }, 201);
      });
    } finally {
      rmSync(probe, { recursive: true, force: true });
      // Each cleanup whatever the other did; a failing one does not hide the test's own error.
      await smtp.stop().catch((error) => console.warn(`upgrade test: stopping the SMTP server: ${error}`));
      await target.drop().catch((error) => console.warn(`upgrade test: dropping the scratch database: ${error}`));
    }
  });
});
