import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { SessionDto } from '../src/domain/schemas/auth';
import type { RecoveryCodesDto, TwoFactorSetupDto } from '../src/domain/schemas/security';
import { codeMaker } from './helpers/totp';

export interface TestUser {
  id: string;
  email: string;
  password: string;
  fullName: string;
  token: string;
  session: SessionDto;
  /** Headers for an authenticated call. */
  auth: { authorization: string };
}

let counter = 0;
export const uniqueEmail = (prefix = 'user') =>
  `${prefix}.${Date.now().toString(36)}.${(counter++).toString(36)}.${randomBytes(3).toString('hex')}@example.com`;

/** Signs a new user up and in through the API. */
export async function createUser(
  app: FastifyInstance,
  overrides: { email?: string; password?: string; fullName?: string } = {},
): Promise<TestUser> {
  const email = overrides.email ?? uniqueEmail();
  const password = overrides.password ?? 'correct horse battery';
  const fullName = overrides.fullName ?? 'Test User';
  const signup = await app.inject({ method: 'POST', url: '/api/auth/signup', payload: { email, password, fullName } });
  if (signup.statusCode !== 201) throw new Error(`signup failed: ${signup.statusCode} ${signup.body}`);
  return signIn(app, email, password, fullName);
}

/** The session id (`sid`) an access token was issued for. */
export const sessionIdOf = (accessToken: string): string =>
  JSON.parse(Buffer.from(accessToken.split('.')[1] ?? '', 'base64url').toString()).sid;

export async function signIn(app: FastifyInstance, email: string, password: string, fullName = ''): Promise<TestUser> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/token?grant_type=password',
    payload: { email, password },
  });
  if (res.statusCode !== 200) throw new Error(`sign-in failed: ${res.statusCode} ${res.body}`);
  const session = res.json() as SessionDto;
  return {
    id: session.user.id,
    email: session.user.email,
    password,
    fullName: fullName || session.user.fullName,
    token: session.access_token,
    session,
    auth: { authorization: `Bearer ${session.access_token}` },
  };
}

import { eq, sql } from 'drizzle-orm';
import { projects, projectStatusCounts, taskActivity, tasks, teamInvitations, teamMembers, teams } from '../src/server/db/schema';
import type { Db } from '../src/server/db/client';
import { countSums, projectTotals } from '../src/server/db/task-counters';

/**
 * Test setup straight into the database (for suites that need a team before the teams API is
 * under test). Creates a team owned by `owner` with its owner membership.
 */
export async function insertTeam(db: Db, owner: { id: string }, name = `Team ${randomBytes(3).toString('hex')}`) {
  const [team] = await db.insert(teams).values({ name, ownerId: owner.id }).returning();
  await db.insert(teamMembers).values({ teamId: team!.id, userId: owner.id, role: 'owner', status: 'active' });
  return team!;
}

/** A pending invitation from the team's owner to `email`, written straight to the table (test setup). */
export async function insertInvitation(
  db: Db,
  team: { id: string; name: string },
  owner: { id: string; email: string },
  email: string,
) {
  const [invitation] = await db
    .insert(teamInvitations)
    .values({ teamId: team.id, teamName: team.name, email, invitedBy: owner.id, inviterName: 'O', inviterEmail: owner.email })
    .returning();
  return invitation!;
}

/** Adds `user` to a team with `role` (test setup). */
export async function insertMember(db: Db, teamId: string, user: { id: string }, role: 'admin' | 'member' = 'member') {
  const [member] = await db.insert(teamMembers).values({ teamId, userId: user.id, role, status: 'active' }).returning();
  return member!;
}

/**
 * The usual cast, signed up and in: Olive Owner's team with Mia Member in it, and Sam Stranger outside it (running a
 * team of their own with `strangerTeam`).
 */
export async function insertOwnerMemberStranger(app: FastifyInstance, db: Db, { strangerTeam = false } = {}) {
  const [owner, member, stranger] = await Promise.all([
    createUser(app, { fullName: 'Olive Owner' }),
    createUser(app, { fullName: 'Mia Member' }),
    createUser(app, { fullName: 'Sam Stranger' }),
  ]);
  const team = await insertTeam(db, owner);
  await insertMember(db, team.id, member, 'member');
  if (strangerTeam) await insertTeam(db, stranger);
  return { owner, member, stranger, team };
}

/** Turns two-factor sign-in on for `user` through the API; returns the secret, its code maker and the recovery codes. */
export async function enableTwoFactor(app: FastifyInstance, user: TestUser) {
  const post = (url: string, payload: unknown) =>
    app.inject({ method: 'POST', url, payload: payload as never, headers: user.auth });
  const setup = await post('/api/me/2fa/setup', { currentPassword: user.password });
  if (setup.statusCode !== 200) throw new Error(`2fa setup failed: ${setup.statusCode} ${setup.body}`);
  const { secret } = setup.json() as TwoFactorSetupDto;
  const nextCode = codeMaker(secret);
  const enabled = await post('/api/me/2fa/enable', { code: nextCode() });
  if (enabled.statusCode !== 200) throw new Error(`2fa enable failed: ${enabled.statusCode} ${enabled.body}`);
  return { secret, nextCode, recoveryCodes: (enabled.json() as RecoveryCodesDto).recoveryCodes };
}

/** A project's task counters as the app reads them (the sums of its counter rows, migration 0004). */
export async function projectCounters(db: Db, projectId: string) {
  const totals = projectTotals(db, projects.id);
  const [row] = await db
    .select({ taskCount: totals.taskCount, progress: totals.progress })
    .from(projects)
    .leftJoinLateral(totals, sql`true`)
    .where(eq(projects.id, projectId));
  const [byStatus] = await db.select(countSums).from(projectStatusCounts).where(eq(projectStatusCounts.projectId, projectId));
  return { ...row!, ...byStatus! };
}

/** A status move of a scripted history: when, from which key, to which key. */
export type StatusMove = [when: string, from: string, to: string];

/**
 * A task created at `created` in `first` that then moved through `moves`, written straight to the database: the task
 * in its last status, then one history row per move, one statement each, as the app writes them (the database fills
 * their categories and the analytics spans).
 */
export async function insertTaskWithStatusHistory(
  db: Db,
  task: { title: string; projectId: string; creatorId: string; created: string; first: string; actorId?: string },
  moves: readonly StatusMove[] = [],
): Promise<string> {
  const [row] = await db
    .insert(tasks)
    .values({
      title: task.title,
      projectId: task.projectId,
      creatorId: task.creatorId,
      status: moves.length ? moves[moves.length - 1]![2] : task.first,
      createdAt: new Date(task.created),
    })
    .returning({ id: tasks.id });
  for (const [when, from, to] of moves) {
    await db.insert(taskActivity).values({
      taskId: row!.id,
      actorId: task.actorId,
      field: 'status',
      oldValue: from,
      newValue: to,
      createdAt: new Date(when),
    });
  }
  return row!.id;
}
