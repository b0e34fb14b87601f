/**
 * Load test: a mixed workload (reads, creates, moves, invitations) with autocannon at 50
 * connections against the app on PostgreSQL. Pass: 0 errors, 0 non-2xx answers, and every
 * acknowledged write (task and invitation ids answered 201) is in the database afterwards.
 *
 *   DATABASE_URL=postgres://... npm run test:load                 # CI form, 10 s
 *   DATABASE_URL=postgres://... LOAD_SECONDS=60 npm run test:load # full form
 *
 * A fresh database is created beside DATABASE_URL's and dropped afterwards.
 */
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import { buildApp } from '../../src/server/app';
import { openDatabase } from '../../src/server/db/client';
import { insertDefaultStatuses } from '../../src/server/db/project-statuses';
import { projects, tasks, teamMembers, teams } from '../../src/server/db/schema';
import { createUser, type TestUser } from '../factories';
import { testConfig } from '../helpers/app';
import { createScratchTarget } from '../helpers/scratch-db';

const SECONDS = Number(process.env.LOAD_SECONDS) || 10;
const CONNECTIONS = Number(process.env.LOAD_CONNECTIONS) || 50;
const USERS = 10;
const STATUSES = ['todo', 'in_progress', 'review', 'completed'] as const;

async function main(): Promise<number> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    console.error('test:load needs PostgreSQL: set DATABASE_URL');
    return 2;
  }
  const target = await createScratchTarget('crewboard_load', url);
  const database = await openDatabase({ databaseUrl: target.databaseUrl, poolSize: 20 });
  const app = await buildApp({ config: testConfig({ rateLimitEnabled: false }), database });
  try {
    await database.migrate();
    await app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

    // The world: USERS people in one team, each with a project of 20 tasks.
    const people: TestUser[] = [];
    for (let i = 0; i < USERS; i++) people.push(await createUser(app, { fullName: `Load User${i}` }));
    const db = database.db;
    const [team] = await db.insert(teams).values({ name: 'Load team', ownerId: people[0]!.id }).returning();
    await db.insert(teamMembers).values(
      people.map((p, i) => ({
        teamId: team!.id,
        userId: p.id,
        role: i === 0 ? ('owner' as const) : ('admin' as const),
        status: 'active' as const,
      })),
    );
    const projectIds: string[] = [];
    const taskIds: string[] = [];
    for (const p of people) {
      const [project] = await db
        .insert(projects)
        .values({ name: `Project of ${p.fullName}`, teamId: team!.id, ownerId: p.id })
        .returning();
      await insertDefaultStatuses(db, [project!.id]);
      projectIds.push(project!.id);
      const rows = await db
        .insert(tasks)
        .values(Array.from({ length: 20 }, (_, i) => ({ title: `Seed ${i}`, projectId: project!.id, creatorId: p.id })))
        .returning({ id: tasks.id });
      taskIds.push(...rows.map((r) => r.id));
    }

    const pick = <T>(xs: readonly T[]) => xs[Math.floor(Math.random() * xs.length)]!;
    const as = (req: Record<string, unknown>) => {
      const user = pick(people);
      return { ...req, headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' } };
    };
    const ackTasks: string[] = [];
    const ackInvitations: string[] = [];
    const ackMoves = new Map<string, number>();
    let sequence = 0;
    const json = (body: string) => {
      try {
        return JSON.parse(body) as { id?: string; version?: number };
      } catch {
        return {};
      }
    };

    /** autocannon's request steps (bench/autocannon.d.ts declares no onResponse). */
    interface Step {
      setupRequest: (req: Record<string, unknown>) => object;
      onResponse?: (status: number, body: string) => void;
    }
    const steps: Step[] = [
      { setupRequest: (req) => as({ ...req, method: 'GET', path: `/api/tasks?projectId=${pick(projectIds)}&limit=50` }) },
      {
        setupRequest: (req) =>
          as({
            ...req,
            method: 'POST',
            path: '/api/tasks',
            body: JSON.stringify({ title: `Load ${sequence++}`, projectId: pick(projectIds), tags: ['load'] }),
          }),
        onResponse: (status, body) => {
          const id = json(body).id;
          if (status === 201 && id) ackTasks.push(id);
        },
      },
      {
        setupRequest: (req) => {
          const id = pick(taskIds);
          return as({
            ...req,
            method: 'PATCH',
            path: `/api/tasks/${id}/status`,
            body: JSON.stringify({ status: pick(STATUSES) }),
          });
        },
        onResponse: (status, body) => {
          const t = json(body);
          if (status === 200 && t.id) ackMoves.set(t.id, Math.max(ackMoves.get(t.id) ?? 0, t.version ?? 0));
        },
      },
      { setupRequest: (req) => as({ ...req, method: 'GET', path: '/api/dashboard' }) },
      {
        setupRequest: (req) =>
          as({
            ...req,
            method: 'POST',
            path: `/api/teams/${team!.id}/invitations`,
            body: JSON.stringify({ email: `load.${sequence++}.${randomBytes(3).toString('hex')}@example.com` }),
          }),
        onResponse: (status, body) => {
          const id = json(body).id;
          if (status === 201 && id) ackInvitations.push(id);
        },
      },
      { setupRequest: (req) => as({ ...req, method: 'GET', path: '/api/projects' }) },
    ];
    const result = await autocannon({
      url: base,
      connections: CONNECTIONS,
      duration: SECONDS,
      requests: steps as unknown as Parameters<typeof autocannon>[0]['requests'],
    });

    // Read every acknowledged write back.
    const found = async (table: string, ids: string[]) => {
      if (!ids.length) return 0;
      const { rows } = await database.pool!.query(`select count(*)::int as n from ${table} where id = any($1::uuid[])`, [ids]);
      return rows[0].n as number;
    };
    const tasksFound = await found('tasks', ackTasks);
    const invitationsFound = await found('team_invitations', ackInvitations);
    // Moves: each task's version in the database is at least the highest one acknowledged.
    const { rows: versions } = await database.pool!.query('select id, version from tasks where id = any($1::uuid[])', [
      [...ackMoves.keys()],
    ]);
    const movesBehind = versions.filter((r: { id: string; version: number }) => r.version < (ackMoves.get(r.id) ?? 0)).length;

    const acknowledged = ackTasks.length + ackInvitations.length + ackMoves.size;
    const lost =
      ackTasks.length - tasksFound + (ackInvitations.length - invitationsFound) + movesBehind + (ackMoves.size - versions.length);
    const summary = {
      seconds: SECONDS,
      connections: CONNECTIONS,
      requests: result.requests.total,
      perSecond: result.requests.average,
      latencyP50: result.latency.p50,
      latencyP99: result.latency.p99,
      errors: result.errors,
      timeouts: result.timeouts,
      non2xx: result.non2xx,
      acknowledgedWrites: {
        tasks: ackTasks.length,
        invitations: ackInvitations.length,
        movedTasks: ackMoves.size,
        total: acknowledged,
      },
      writesLost: lost,
    };
    console.log(`load: ${JSON.stringify(summary)}`);
    const ok =
      result.errors === 0 &&
      result.timeouts === 0 &&
      result.non2xx === 0 &&
      lost === 0 &&
      result.requests.total > 0 &&
      acknowledged > 0;
    if (!ok) console.error('load test FAILED');
    return ok ? 0 : 1;
  } finally {
    await app.close();
    await database.close();
    await target.drop();
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
