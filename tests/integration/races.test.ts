import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { TASK_STATUSES } from '../../src/domain/constants';
import type { TaskDto } from '../../src/domain/schemas/task';
import { insertDefaultStatuses } from '../../src/server/db/project-statuses';
import { projects, tasks, teamInvitations, teamMembers } from '../../src/server/db/schema';
import { createUser, insertInvitation, insertMember, insertTeam, projectCounters, uniqueEmail } from '../factories';
import { setupTestApp } from '../helpers/app';

/** Concurrency: what many identical or competing requests at once leave behind. */

const ctx = setupTestApp();
const N = 50;

function tally(codes: number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const c of codes) counts[c] = (counts[c] ?? 0) + 1;
  return counts;
}

describe('races', () => {
  it(`${N} concurrent accepts of one invitation make exactly one membership`, async () => {
    const db = ctx.database.db;
    const [owner, invitee] = await Promise.all([createUser(ctx.app), createUser(ctx.app)]);
    const team = await insertTeam(db, owner);
    const inv = await insertInvitation(db, team, owner, invitee.email);
    const codes = (
      await Promise.all(
        Array.from({ length: N }, (_, i) =>
          ctx.app.inject({
            method: 'POST',
            url: `/api/invitations/${inv.id}/respond`,
            headers: invitee.auth,
            payload: { accept: i % 5 !== 4 },
          }),
        ),
      )
    ).map((r) => r.statusCode);
    expect(tally(codes)).toMatchObject({ 200: 1, 409: N - 1 });
    const members = await db
      .select()
      .from(teamMembers)
      .where(and(eq(teamMembers.teamId, team.id), eq(teamMembers.userId, invitee.id)));
    const [after] = await db.select().from(teamInvitations).where(eq(teamInvitations.id, inv.id));
    // Whichever answer won, the membership matches it.
    expect(members).toHaveLength(after!.status === 'accepted' ? 1 : 0);
    expect(after!.status).not.toBe('pending');
  });

  it(`${N} concurrent identical invitations leave exactly one pending row`, async () => {
    const db = ctx.database.db;
    const owner = await createUser(ctx.app);
    const team = await insertTeam(db, owner);
    const email = uniqueEmail('dup');
    const codes = (
      await Promise.all(
        Array.from({ length: N }, (_, i) =>
          ctx.app.inject({
            method: 'POST',
            url: `/api/teams/${team.id}/invitations`,
            headers: owner.auth,
            // Same address, spelled differently.
            payload: { email: i % 2 ? email.toUpperCase() : ` ${email} ` },
          }),
        ),
      )
    ).map((r) => r.statusCode);
    expect(tally(codes)).toEqual({ 201: 1, 409: N - 1 });
    const rows = await db
      .select()
      .from(teamInvitations)
      .where(and(eq(teamInvitations.teamId, team.id), eq(teamInvitations.status, 'pending')));
    expect(rows).toHaveLength(1);
  });

  it('concurrent moves of one card end in a consistent state: no lost update, the last acknowledged status, true progress', async () => {
    const db = ctx.database.db;
    const [owner, member] = await Promise.all([createUser(ctx.app), createUser(ctx.app)]);
    const team = await insertTeam(db, owner);
    await insertMember(db, team.id, member);
    const [project] = await db.insert(projects).values({ name: 'Race', teamId: team.id, ownerId: owner.id }).returning();
    await insertDefaultStatuses(db, [project!.id]);
    const [card, ...others] = await db
      .insert(tasks)
      .values([
        { title: 'Card', projectId: project!.id, creatorId: owner.id },
        { title: 'Done', projectId: project!.id, creatorId: owner.id, status: 'completed' },
        { title: 'Open', projectId: project!.id, creatorId: owner.id },
      ])
      .returning();
    expect(others).toHaveLength(2);
    const requests = Array.from({ length: 30 }, (_, i) => TASK_STATUSES[i % TASK_STATUSES.length]!);
    const responses = await Promise.all(
      requests.map((status, i) =>
        ctx.app.inject({
          method: 'PATCH',
          url: `/api/tasks/${card!.id}/status`,
          headers: (i % 2 ? member : owner).auth,
          payload: { status },
        }),
      ),
    );
    const ok = responses.filter((r) => r.statusCode === 200).map((r) => r.json() as TaskDto);
    expect(responses.filter((r) => r.statusCode !== 200).map((r) => `${r.statusCode} ${r.body}`)).toEqual([]);
    const [final] = await db.select().from(tasks).where(eq(tasks.id, card!.id));
    // Every acknowledged move counted once: none lost, none doubled.
    expect(final!.version).toBe(card!.version + ok.length);
    expect(requests).toContain(final!.status);
    // The last committed move is the one whose answer carries the final version.
    const last = ok.filter((t) => t.version === final!.version);
    expect(last.length).toBeGreaterThan(0);
    for (const t of last) expect(t.status).toBe(final!.status);
    const completed = 1 + (final!.status === 'completed' ? 1 : 0);
    expect((await projectCounters(db, project!.id)).progress).toBe(Math.round((100 * completed) / 3));
  });

  it('concurrent creates and deletes in one project keep its progress true', async () => {
    const db = ctx.database.db;
    const owner = await createUser(ctx.app);
    const team = await insertTeam(db, owner);
    const [project] = await db.insert(projects).values({ name: 'Churn', teamId: team.id, ownerId: owner.id }).returning();
    await insertDefaultStatuses(db, [project!.id]);
    const seeded = await db
      .insert(tasks)
      .values(
        Array.from({ length: 10 }, (_, i) => ({
          title: `T${i}`,
          projectId: project!.id,
          creatorId: owner.id,
          status: i % 2 ? ('completed' as const) : ('todo' as const),
        })),
      )
      .returning();
    const responses = await Promise.all([
      ...Array.from({ length: 15 }, (_, i) =>
        ctx.app.inject({
          method: 'POST',
          url: '/api/tasks',
          headers: owner.auth,
          payload: { title: `New ${i}`, projectId: project!.id, status: i % 3 ? 'completed' : 'todo' },
        }),
      ),
      ...seeded.slice(0, 6).map((t) => ctx.app.inject({ method: 'DELETE', url: `/api/tasks/${t.id}`, headers: owner.auth })),
      ...seeded.slice(6).map((t) =>
        ctx.app.inject({
          method: 'PATCH',
          url: `/api/tasks/${t.id}/status`,
          headers: owner.auth,
          payload: { status: 'completed' },
        }),
      ),
    ]);
    expect(responses.filter((r) => r.statusCode >= 300).map((r) => `${r.statusCode} ${r.body}`)).toEqual([]);
    const rows = await db.select().from(tasks).where(eq(tasks.projectId, project!.id));
    expect(rows).toHaveLength(10 + 15 - 6);
    const p = await projectCounters(db, project!.id);
    expect(p.progress).toBe(Math.round((100 * rows.filter((t) => t.status === 'completed').length) / rows.length));
    expect(p.taskCount).toBe(rows.length);
  });
});

describe('a task write and a delete of its status at once (decision 0024)', () => {
  it('neither deadlocks nor leaves a task in the deleted status: each write lands before the delete or is refused after it', async () => {
    const db = ctx.database.db;
    const owner = await createUser(ctx.app);
    const team = await insertTeam(db, owner);
    const [project] = await db.insert(projects).values({ name: 'Flow race', teamId: team.id, ownerId: owner.id }).returning();
    await insertDefaultStatuses(db, [project!.id]);
    const call = (method: 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) =>
      ctx.app.inject({ method, url, headers: owner.auth, payload: payload as never });
    for (let round = 0; round < 3; round++) {
      const qa = (
        await call('POST', `/api/projects/${project!.id}/statuses`, {
          name: `QA ${round}`,
          category: 'started',
          color: '#7c3aed',
        })
      ).json() as {
        id: string;
        key: string;
      };
      const inQa = await db
        .insert(tasks)
        .values(
          Array.from({ length: 6 }, (_, i) => ({
            title: `QA ${i}`,
            projectId: project!.id,
            creatorId: owner.id,
            status: qa.key,
          })),
        )
        .returning();
      const inTodo = await db
        .insert(tasks)
        .values(Array.from({ length: 6 }, (_, i) => ({ title: `Todo ${i}`, projectId: project!.id, creatorId: owner.id })))
        .returning();
      const review = (await db.execute(
        sql`select id from project_statuses where project_id = ${project!.id} and key = 'review'`,
      )) as unknown as {
        rows: { id: string }[];
      };
      const responses = await Promise.all([
        // Out of the status (its tasks, which the delete locks first) …
        ...inQa.slice(0, 3).map((t) => call('PATCH', `/api/tasks/${t.id}/status`, { status: 'in_progress' })),
        ...inQa.slice(3).map((t) => call('PATCH', `/api/tasks/${t.id}`, { title: `Edited ${t.title}` })),
        call('DELETE', `/api/statuses/${qa.id}`, { moveTo: review.rows[0]!.id }),
        // … and into it (the status row, which the delete locks after them).
        ...inTodo.map((t) => call('PATCH', `/api/tasks/${t.id}/status`, { status: qa.key })),
        ...Array.from({ length: 4 }, (_, i) =>
          call('POST', '/api/tasks', { title: `New ${i}`, projectId: project!.id, status: qa.key }),
        ),
      ]);
      const unexpected = responses.filter(
        (r) => r.statusCode >= 300 && !(r.statusCode === 400 && r.json().error.reason === 'status_key_unknown'),
      );
      expect(unexpected.map((r) => `${r.statusCode} ${r.body}`)).toEqual([]);
      // The delete went through; writes into the status after it were refused with the project's keys.
      expect(responses.some((r) => r.statusCode === 204)).toBe(true);
      const left = await db
        .select()
        .from(tasks)
        .where(and(eq(tasks.projectId, project!.id), eq(tasks.status, qa.key)));
      expect(left).toEqual([]);
      const rows = await db.select().from(tasks).where(eq(tasks.projectId, project!.id));
      expect(
        rows.every(
          (t) => t.statusCategory === (t.status === 'completed' ? 'completed' : t.status === 'todo' ? 'unstarted' : 'started'),
        ),
      ).toBe(true);
      const counted = (await db.execute(
        sql`select coalesce(sum(n), 0)::int as n from project_status_counts where project_id = ${project!.id}`,
      )) as unknown as {
        rows: { n: number }[];
      };
      expect(counted.rows[0]!.n).toBe(rows.length);
    }
  });
});

describe('a failure injected mid-operation leaves nothing half done', () => {
  /** Installs a trigger that raises on `table` when `condition` holds, for the duration of `fn`. */
  async function withFailingTrigger(table: string, timing: string, condition: string, fn: () => Promise<void>) {
    const db = ctx.database.db;
    const name = `crewboard_test_fail_${table}`;
    await db.execute(
      sql.raw(`create or replace function ${name}() returns trigger language plpgsql as $$
      begin
        if ${condition} then raise exception 'injected failure'; end if;
        if tg_op = 'DELETE' then return old; end if;
        return new;
      end $$`),
    );
    await db.execute(sql.raw(`create trigger ${name} ${timing} on ${table} for each row execute function ${name}()`));
    try {
      await fn();
    } finally {
      await db.execute(sql.raw(`drop trigger ${name} on ${table}`));
      await db.execute(sql.raw(`drop function ${name}()`));
    }
  }

  it('accepting an invitation: when the membership insert fails, the invitation stays pending', async () => {
    const db = ctx.database.db;
    const [owner, invitee] = await Promise.all([createUser(ctx.app), createUser(ctx.app)]);
    const team = await insertTeam(db, owner, 'Fail on join');
    const inv = await insertInvitation(db, team, owner, invitee.email);
    await withFailingTrigger('team_members', 'before insert', `new.user_id = '${invitee.id}'`, async () => {
      const res = await ctx.app.inject({
        method: 'POST',
        url: `/api/invitations/${inv.id}/respond`,
        headers: invitee.auth,
        payload: { accept: true },
      });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ error: { code: 'internal', message: 'Internal server error' } });
    });
    const [after] = await db.select().from(teamInvitations).where(eq(teamInvitations.id, inv.id));
    expect(after!.status).toBe('pending');
    expect(after!.respondedAt).toBeNull();
    expect(await db.select().from(teamMembers).where(eq(teamMembers.userId, invitee.id))).toEqual([]);
    // And it can be accepted once the fault is gone.
    const retry = await ctx.app.inject({
      method: 'POST',
      url: `/api/invitations/${inv.id}/respond`,
      headers: invitee.auth,
      payload: { accept: true },
    });
    expect(retry.statusCode).toBe(200);
  });

  it('creating a task: when the progress update fails, no task is stored', async () => {
    const db = ctx.database.db;
    const owner = await createUser(ctx.app);
    const team = await insertTeam(db, owner);
    const [project] = await db
      .insert(projects)
      .values({ name: 'Fail on progress', teamId: team.id, ownerId: owner.id })
      .returning();
    await insertDefaultStatuses(db, [project!.id]);
    await withFailingTrigger('project_status_counts', 'before insert', `new.project_id = '${project!.id}'`, async () => {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/tasks',
        headers: owner.auth,
        payload: { title: 'Orphan', projectId: project!.id },
      });
      expect(res.statusCode).toBe(500);
    });
    expect(await db.select().from(tasks).where(eq(tasks.projectId, project!.id))).toEqual([]);
  });

  it('deleting a team: when one cascade step fails, everything stays', async () => {
    const db = ctx.database.db;
    const owner = await createUser(ctx.app);
    const team = await insertTeam(db, owner);
    const [project] = await db.insert(projects).values({ name: 'Survivor', teamId: team.id, ownerId: owner.id }).returning();
    await insertDefaultStatuses(db, [project!.id]);
    await db.insert(tasks).values({ title: 'Survivor task', projectId: project!.id, creatorId: owner.id });
    await withFailingTrigger('tasks', 'before delete', `old.project_id = '${project!.id}'`, async () => {
      const res = await ctx.app.inject({ method: 'DELETE', url: `/api/teams/${team.id}`, headers: owner.auth });
      expect(res.statusCode).toBe(500);
    });
    expect(await db.select().from(projects).where(eq(projects.id, project!.id))).toHaveLength(1);
    expect(await db.select().from(tasks).where(eq(tasks.projectId, project!.id))).toHaveLength(1);
    expect(await db.select().from(teamMembers).where(eq(teamMembers.teamId, team.id))).toHaveLength(1);
  });
});

describe('lost updates: an edit based on a stale version gets 409', () => {
  it('for a team, a project and a task, while an edit on the current version succeeds', async () => {
    const db = ctx.database.db;
    const owner = await createUser(ctx.app);
    const team = await insertTeam(db, owner);
    const [project] = await db.insert(projects).values({ name: 'Versioned', teamId: team.id, ownerId: owner.id }).returning();
    await insertDefaultStatuses(db, [project!.id]);
    const [task] = await db.insert(tasks).values({ title: 'Versioned', projectId: project!.id, creatorId: owner.id }).returning();
    const cases = [
      { url: `/api/teams/${team.id}`, first: { name: 'First edit' }, second: { name: 'Second edit' } },
      { url: `/api/projects/${project!.id}`, first: { name: 'First edit' }, second: { name: 'Second edit' } },
      { url: `/api/tasks/${task!.id}`, first: { title: 'First edit' }, second: { title: 'Second edit' } },
    ];
    for (const c of cases) {
      const before = (await ctx.app.inject({ url: c.url, headers: owner.auth })).json() as { version: number };
      const a = await ctx.app.inject({
        method: 'PATCH',
        url: c.url,
        headers: owner.auth,
        payload: { ...c.first, version: before.version },
      });
      expect(a.statusCode, c.url).toBe(200);
      expect((a.json() as { version: number }).version).toBe(before.version + 1);
      // A second editor who loaded the same copy.
      const b = await ctx.app.inject({
        method: 'PATCH',
        url: c.url,
        headers: owner.auth,
        payload: { ...c.second, version: before.version },
      });
      expect(b.statusCode, c.url).toBe(409);
      expect(b.json().error.code).toBe('conflict');
      const now = (await ctx.app.inject({ url: c.url, headers: owner.auth })).json() as { name?: string; title?: string };
      expect(now.name ?? now.title).toBe('First edit');
    }
  });

  it('of two concurrent edits on one version, exactly one wins', async () => {
    const db = ctx.database.db;
    const owner = await createUser(ctx.app);
    const team = await insertTeam(db, owner);
    const [project] = await db.insert(projects).values({ name: 'Contended', teamId: team.id, ownerId: owner.id }).returning();
    await insertDefaultStatuses(db, [project!.id]);
    const [task] = await db.insert(tasks).values({ title: 'Contended', projectId: project!.id, creatorId: owner.id }).returning();
    const codes = (
      await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          ctx.app.inject({
            method: 'PATCH',
            url: `/api/tasks/${task!.id}`,
            headers: owner.auth,
            payload: { title: `Edit ${i}`, version: task!.version },
          }),
        ),
      )
    ).map((r) => r.statusCode);
    expect(tally(codes)).toEqual({ 200: 1, 409: 9 });
  });
});
