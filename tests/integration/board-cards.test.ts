import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { TASK_STATUSES } from '../../src/domain/constants';
import { type TaskBoardDto, type TaskListDto, type TaskReadDto, taskBoardDto } from '../../src/domain/schemas/task';
import { expandTaskList } from '../../src/domain/task-list';
import { insertDefaultStatuses } from '../../src/server/db/project-statuses';
import { projects, tasks, users } from '../../src/server/db/schema';
import { createUser, insertMember, insertOwnerMemberStranger, type TestUser } from '../factories';
import { setupTestApp } from '../helpers/app';

/**
 * The board against the task list and each task's own answer, card for card, on data chosen to tell shapes
 * apart: escapes, JS whitespace around assignees' names, null fields, timestamps with microseconds, ties on the
 * creation time, more tasks than a column's first page. (Written for a board built as JSON by PostgreSQL, tried
 * and not kept, decision 0009; they hold for whatever shapes the board.)
 */
const ctx = setupTestApp();

let owner: TestUser;
let member: TestUser;
let stranger: TestUser;
let project: string;
let other: string;

const call = (user: TestUser, url: string) => ctx.app.inject({ method: 'GET', url, headers: user.auth });

async function json<T>(user: TestUser, url: string): Promise<T> {
  const res = await call(user, url);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

beforeAll(async () => {
  let team: { id: string };
  ({ owner, member, stranger, team } = await insertOwnerMemberStranger(ctx.app, ctx.database.db));
  const [p, q] = await ctx.database.db
    .insert(projects)
    .values([
      { name: 'Apollo "quoted" <b>&</b> \\ ✓', teamId: team.id, ownerId: owner.id },
      { name: 'Borealis', teamId: team.id, ownerId: owner.id },
    ])
    .returning();
  await insertDefaultStatuses(ctx.database.db, [p!.id, q!.id]);
  project = p!.id;
  other = q!.id;
  // Names as a sign-in from elsewhere could have stored them: JS whitespace around, two spaces, one word.
  const names = ['\u00a0\tZoë  de la Cruz\u3000', 'Plato', 'Ann\u00a0Lee Smith'];
  const assignees = [owner, member, ...(await Promise.all(names.map(() => createUser(ctx.app))))];
  for (const [i, name] of names.entries()) {
    await ctx.database.db
      .update(users)
      .set({ fullName: name })
      .where(eq(users.id, assignees[i + 2]!.id));
    await insertMember(ctx.database.db, team.id, assignees[i + 2]!, 'member');
  }
  const rows = Array.from({ length: 30 }, (_, i) => ({
    projectId: i % 5 === 4 ? other : project,
    creatorId: owner.id,
    title: i % 3 ? `Task ${i} "quotes" \\ back\nslash </script>` : `Task ${i} 😀 \u0001 control`,
    description: i % 4 === 0 ? null : `Line one\r\nline "two"\t${'é'.repeat(i)}`,
    status: TASK_STATUSES[i % 4]!,
    priority: (['low', 'medium', 'high', 'urgent'] as const)[i % 4],
    assigneeId: i % 6 === 5 ? null : assignees[i % assignees.length]!.id,
    dueDate: i % 3 === 0 ? null : `2026-0${(i % 9) + 1}-${String((i % 28) + 1).padStart(2, '0')}`,
    tags: i % 2 ? [] : ['a,b', 'ünïcode', `"t${i}"`, 'back\\slash'],
    // The driver's Date keeps milliseconds, cut, not rounded; the board's JSON must cut them the same way.
    createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, Math.floor(i / 8) * 7)),
  }));
  const inserted = await ctx.database.db.insert(tasks).values(rows).returning({ id: tasks.id });
  for (const [i, { id }] of inserted.entries()) {
    // Tasks i and i + 4 (one status) share a created_at: ties fall back to the id; the fraction has microseconds below the millisecond.
    const fraction = `0.${String(999999 - Math.floor(i / 8) * 1111).padStart(6, '0')} second`;
    await ctx.database.db.execute(
      sql`update tasks set created_at = created_at + ${fraction}::interval, updated_at = now() + interval '0.000999 second' where id = ${id}`,
    );
  }
});

describe('the board, card for card', () => {
  for (const [name, query] of [
    ['All Projects', ''],
    ['one project', 'project'],
  ] as const) {
    it(`${name}: every column equals the list's first tasks of that status, DTO for DTO`, async () => {
      const projectQuery = query ? `&projectId=${project}` : '';
      for (const limit of [3, 20]) {
        const res = await call(member, `/api/tasks/board?limit=${limit}${projectQuery}`);
        expect(res.statusCode, res.body).toBe(200);
        expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
        const board: TaskBoardDto = res.json();
        expect(taskBoardDto.parse(board)).toEqual(board);
        // Every visible project keeps the default four: today's columns, in today's order (decision 0024).
        expect(board.columnKind).toBe('status');
        expect(board.order).toEqual([...TASK_STATUSES]);
        expect(board.workflows.map((w) => w.projectId).sort()).toEqual(query ? [project] : [project, other].sort());
        let total = 0;
        for (const status of TASK_STATUSES) {
          const list = await json<TaskListDto>(member, `/api/tasks?status=${status}&limit=${limit}${projectQuery}`);
          expect(board.columns[status], `${status}, limit ${limit}`).toEqual(expandTaskList(list).tasks);
          expect(board.counts[status]).toBe(list.counts[status]);
          total += list.counts[status];
        }
        expect(board.total).toBe(total);
      }
    });
  }

  it("a card equals the task's own answer, whitespace in the assignee's name and all", async () => {
    const board = await json<TaskBoardDto>(member, '/api/tasks/board?limit=100');
    const cards = TASK_STATUSES.flatMap((s) => board.columns[s]!);
    expect(cards).toHaveLength(30);
    const firstNames = new Set(cards.map((c) => c.assignee?.firstName));
    expect(firstNames).toEqual(new Set(['Olive', 'Mia', 'Zoë', 'Plato', 'Ann\u00a0Lee', undefined]));
    for (const card of cards) {
      // The single read adds the dependency ids (decision 0025); the rest is the card to the letter.
      const { blockedBy, blocking, ...read } = await json<TaskReadDto>(member, `/api/tasks/${card.id}`);
      expect([blockedBy, blocking]).toEqual([[], []]);
      expect(card).toEqual(read);
    }
    expect(cards.some((c) => c.createdAt.endsWith('.999Z'))).toBe(true);
  });

  it("a page of the list read by its row statement equals the same page read through the filters' query, DTO for DTO", async () => {
    // Every title contains 'Task': with q=Task the same tasks come through the general query (drizzle's mapping).
    for (const projectQuery of ['', `&projectId=${project}`]) {
      for (const [status, limit, offset] of [
        ['', 500, 0],
        ['', 7, 3],
        ['&status=review', 2, 1],
      ] as const) {
        const page = `/api/tasks?limit=${limit}&offset=${offset}${status}${projectQuery}`;
        const fast = await json<TaskListDto>(member, page);
        const general = await json<TaskListDto>(member, `${page}&q=Task`);
        expect(fast.tasks.length, page).toBeGreaterThan(0);
        expect(fast, page).toEqual(general);
      }
    }
    expect((await call(stranger, `/api/tasks?projectId=${project}&limit=500`)).statusCode).toBe(404);
  });

  it('an empty board has its four columns, empty', async () => {
    const board = await json<TaskBoardDto>(stranger, '/api/tasks/board');
    expect(board).toEqual({
      columnKind: 'status',
      order: ['todo', 'in_progress', 'review', 'completed'],
      columns: { todo: [], in_progress: [], review: [], completed: [] },
      counts: { todo: 0, in_progress: 0, review: 0, completed: 0 },
      total: 0,
      workflows: [],
    });
  });

  it("a stranger gets 404 for the project's board, and no one signed out gets a board", async () => {
    expect((await call(stranger, `/api/tasks/board?projectId=${project}`)).statusCode).toBe(404);
    const res = await ctx.app.inject({ method: 'GET', url: '/api/tasks/board' });
    expect(res.statusCode).toBe(401);
  });
});
