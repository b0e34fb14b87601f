import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { TASK_DETAIL_LIMITS } from '../../src/domain/constants';
import type { TaskBoardDto, TaskDto } from '../../src/domain/schemas/task';
import type { ChecklistDto, ChecklistItemDto } from '../../src/domain/schemas/task-detail';
import { taskChecklistItems } from '../../src/server/db/schema';
import type { DomainEvent } from '../../src/server/lib/events';
import { insertOwnerMemberStranger, type TestUser } from '../factories';
import { apiRequests, type Method } from '../helpers/api';
import { setupTestApp } from '../helpers/app';

const ctx = setupTestApp();

const { call, ok } = apiRequests(ctx);

let owner: TestUser;
let member: TestUser;
let stranger: TestUser;
let projectId: string;

beforeAll(async () => {
  let team: { id: string };
  ({ owner, member, stranger, team } = await insertOwnerMemberStranger(ctx.app, ctx.database.db, { strangerTeam: true }));
  projectId = (await ok<{ id: string }>(owner, 'POST', '/api/projects', { name: 'Checklists', teamId: team.id }, 201)).id;
});

const newTask = async (title = 'Pack for the trip') =>
  (await ok<TaskDto>(owner, 'POST', '/api/tasks', { title, projectId }, 201)).id;
const add = (user: TestUser, taskId: string, title: string) =>
  ok<ChecklistItemDto>(user, 'POST', `/api/tasks/${taskId}/checklist`, { title }, 201);
const list = (user: TestUser, taskId: string) => ok<ChecklistDto>(user, 'GET', `/api/tasks/${taskId}/checklist`);

/** The card's counts, from the task's own answer and from the board, which must agree. */
async function counts(taskId: string): Promise<string> {
  const task = await ok<TaskDto>(owner, 'GET', `/api/tasks/${taskId}`);
  const board = await ok<TaskBoardDto>(owner, 'GET', `/api/tasks/board?projectId=${projectId}&limit=100`);
  const card = Object.values(board.columns)
    .flat()
    .find((t) => t.id === taskId);
  expect(card, 'the card is on the board').toBeDefined();
  expect(`${card!.checklistDone}/${card!.checklistTotal}`).toBe(`${task.checklistDone}/${task.checklistTotal}`);
  return `${task.checklistDone}/${task.checklistTotal}`;
}

describe('task checklist', () => {
  it('adds items last, lists them in order, edits, ticks and deletes them', async () => {
    const taskId = await newTask();
    expect(await list(owner, taskId)).toEqual({ items: [] });
    const a = await add(owner, taskId, '  Passport ');
    const b = await add(member, taskId, 'Tickets');
    const c = await add(owner, taskId, 'Charger');
    expect(a).toMatchObject({ taskId, title: 'Passport', done: false, position: 1 });
    expect(b.position).toBe(2);
    expect(c.position).toBe(3);
    expect((await list(member, taskId)).items.map((i) => i.title)).toEqual(['Passport', 'Tickets', 'Charger']);

    const renamed = await ok<ChecklistItemDto>(member, 'PATCH', `/api/tasks/${taskId}/checklist/${b.id}`, {
      title: 'Train tickets',
    });
    expect(renamed).toMatchObject({ id: b.id, title: 'Train tickets', done: false, position: 2 });
    const ticked = await ok<ChecklistItemDto>(member, 'PATCH', `/api/tasks/${taskId}/checklist/${b.id}`, { done: true });
    expect(ticked).toMatchObject({ title: 'Train tickets', done: true });

    await ok(owner, 'DELETE', `/api/tasks/${taskId}/checklist/${a.id}`, undefined, 204);
    expect((await list(owner, taskId)).items.map((i) => [i.title, i.done])).toEqual([
      ['Train tickets', true],
      ['Charger', false],
    ]);
    // Appended after the last, even with a gap in front.
    expect((await add(owner, taskId, 'Snacks')).position).toBe(4);
  });

  it('answers 400 for bad input and 404 for an item of another task or none', async () => {
    const taskId = await newTask();
    const other = await newTask('Other');
    const item = await add(owner, other, 'Elsewhere');
    expect((await call(owner, 'POST', `/api/tasks/${taskId}/checklist`, { title: '   ' })).statusCode).toBe(400);
    expect((await call(owner, 'POST', `/api/tasks/${taskId}/checklist`, { title: 'x', done: true })).statusCode).toBe(400);
    expect(
      (
        await call(owner, 'POST', `/api/tasks/${taskId}/checklist`, {
          title: 'x'.repeat(TASK_DETAIL_LIMITS.checklistItemMax + 1),
        })
      ).statusCode,
    ).toBe(400);
    expect((await call(owner, 'PATCH', `/api/tasks/${taskId}/checklist/${item.id}`, {})).statusCode).toBe(400);
    expect((await call(owner, 'PATCH', `/api/tasks/${taskId}/checklist/not-a-uuid`, { done: true })).statusCode).toBe(400);
    const wrong = await call(owner, 'PATCH', `/api/tasks/${taskId}/checklist/${item.id}`, { done: true });
    expect(wrong.statusCode).toBe(404);
    expect(wrong.json()).toMatchObject({ error: { code: 'not_found', message: 'Checklist item not found' } });
    expect((await call(owner, 'DELETE', `/api/tasks/${taskId}/checklist/${item.id}`)).statusCode).toBe(404);
    expect((await call(owner, 'DELETE', `/api/tasks/${taskId}/checklist/${crypto.randomUUID()}`)).statusCode).toBe(404);
    // The other task's item is untouched.
    expect((await list(owner, other)).items).toMatchObject([{ id: item.id, done: false }]);
  });

  it('reorders the whole list, and refuses a list that is not exactly the items', async () => {
    const taskId = await newTask();
    const [a, b, c] = [await add(owner, taskId, 'A'), await add(owner, taskId, 'B'), await add(owner, taskId, 'C')];
    await ok(owner, 'DELETE', `/api/tasks/${taskId}/checklist/${b.id}`, undefined, 204);
    const d = await add(owner, taskId, 'D');
    const order = `/api/tasks/${taskId}/checklist/order`;

    const reordered = await ok<ChecklistDto>(member, 'PUT', order, { ids: [d.id, a.id, c.id] });
    expect(reordered.items.map((i) => [i.title, i.position])).toEqual([
      ['D', 1],
      ['A', 2],
      ['C', 3],
    ]);
    expect((await list(owner, taskId)).items.map((i) => i.title)).toEqual(['D', 'A', 'C']);
    // Upper-case ids name the same items.
    expect(
      (await ok<ChecklistDto>(owner, 'PUT', order, { ids: [c.id, a.id, d.id].map((id) => id.toUpperCase()) })).items.map(
        (i) => i.title,
      ),
    ).toEqual(['C', 'A', 'D']);

    for (const ids of [[a.id, c.id], [a.id, c.id, d.id, b.id], [a.id, a.id, c.id], [a.id, c.id, crypto.randomUUID()], []]) {
      const res = await call(owner, 'PUT', order, { ids });
      expect(res.statusCode, JSON.stringify(ids)).toBe(409);
      expect(res.json()).toMatchObject({ error: { code: 'conflict' } });
    }
    expect((await list(owner, taskId)).items.map((i) => [i.title, i.position])).toEqual([
      ['C', 1],
      ['A', 2],
      ['D', 3],
    ]);
    // An empty checklist takes an empty order.
    expect(await ok<ChecklistDto>(owner, 'PUT', `/api/tasks/${await newTask()}/checklist/order`, { ids: [] })).toEqual({
      items: [],
    });
    expect((await call(owner, 'PUT', order, { ids: ['nope'] })).statusCode).toBe(400);
  });

  it(`holds at most ${TASK_DETAIL_LIMITS.checklistItemsMax} items`, async () => {
    const taskId = await newTask();
    const max = TASK_DETAIL_LIMITS.checklistItemsMax;
    await ctx.database.db
      .insert(taskChecklistItems)
      .values(Array.from({ length: max - 1 }, (_, i) => ({ taskId, title: `item ${i}`, position: i + 1 })));
    await add(owner, taskId, 'the last one');
    const full = await call(owner, 'POST', `/api/tasks/${taskId}/checklist`, { title: 'one too many' });
    expect(full.statusCode).toBe(409);
    expect(full.json()).toMatchObject({ error: { code: 'conflict', message: 'A checklist holds at most 200 items' } });
    expect(await counts(taskId)).toBe(`0/${max}`);
  });

  it('keeps the card counts (task and board) through tick, untick and delete', async () => {
    const taskId = await newTask();
    expect(await counts(taskId)).toBe('0/0');
    const [a, b] = [await add(owner, taskId, 'A'), await add(owner, taskId, 'B')];
    await add(owner, taskId, 'C');
    expect(await counts(taskId)).toBe('0/3');
    await ok(member, 'PATCH', `/api/tasks/${taskId}/checklist/${a.id}`, { done: true });
    expect(await counts(taskId)).toBe('1/3');
    await ok(member, 'PATCH', `/api/tasks/${taskId}/checklist/${a.id}`, { done: true });
    expect(await counts(taskId)).toBe('1/3');
    await ok(member, 'PATCH', `/api/tasks/${taskId}/checklist/${b.id}`, { done: true });
    expect(await counts(taskId)).toBe('2/3');
    await ok(member, 'PATCH', `/api/tasks/${taskId}/checklist/${b.id}`, { done: false });
    expect(await counts(taskId)).toBe('1/3');
    await ok(owner, 'DELETE', `/api/tasks/${taskId}/checklist/${a.id}`, undefined, 204);
    expect(await counts(taskId)).toBe('0/2');
  });

  it('writes in parallel keep the counts and positions distinct', async () => {
    const taskId = await newTask();
    const items = await Promise.all(Array.from({ length: 8 }, (_, i) => add(i % 2 ? member : owner, taskId, `item ${i}`)));
    expect(new Set(items.map((i) => i.position)).size).toBe(8);
    await Promise.all([
      ...items.slice(0, 4).map((i) => call(member, 'PATCH', `/api/tasks/${taskId}/checklist/${i.id}`, { done: true })),
      call(owner, 'PUT', `/api/tasks/${taskId}/checklist/order`, { ids: items.map((i) => i.id).reverse() }),
    ]);
    expect(await counts(taskId)).toBe('4/8');
    expect((await list(owner, taskId)).items.map((i) => i.id)).toEqual(items.map((i) => i.id).reverse());
  });

  it('publishes task.detail_changed for each change', async () => {
    const taskId = await newTask();
    const seen: DomainEvent[] = [];
    const listener = (e: DomainEvent) => {
      if (e.type === 'task.detail_changed' && e.taskId === taskId) seen.push(e);
    };
    const unsubscribe = ctx.app.deps.events.subscribe(listener);
    try {
      const a = await add(member, taskId, 'A');
      await ok(member, 'PATCH', `/api/tasks/${taskId}/checklist/${a.id}`, { done: true });
      await ok(member, 'PUT', `/api/tasks/${taskId}/checklist/order`, { ids: [a.id] });
      await ok(member, 'DELETE', `/api/tasks/${taskId}/checklist/${a.id}`, undefined, 204);
      await call(member, 'PUT', `/api/tasks/${taskId}/checklist/order`, { ids: [a.id] }); // 409: nothing changed
    } finally {
      unsubscribe();
    }
    expect(seen).toHaveLength(4);
    expect(seen[0]).toMatchObject({ type: 'task.detail_changed', taskId, projectId, actorId: member.id, part: 'checklist' });
  });

  it('hides the checklist from strangers (404) and anonymous callers (401)', async () => {
    const taskId = await newTask();
    const item = await add(owner, taskId, 'Secret');
    const routes: [Method, string, unknown][] = [
      ['GET', `/api/tasks/${taskId}/checklist`, undefined],
      ['POST', `/api/tasks/${taskId}/checklist`, { title: 'x' }],
      ['PATCH', `/api/tasks/${taskId}/checklist/${item.id}`, { done: true }],
      ['DELETE', `/api/tasks/${taskId}/checklist/${item.id}`, undefined],
      ['PUT', `/api/tasks/${taskId}/checklist/order`, { ids: [item.id] }],
    ];
    for (const [method, url, payload] of routes) {
      const res = await call(stranger, method, url, payload);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json()).toMatchObject({ error: { code: 'not_found', message: 'Task not found' } });
      expect((await call(null, method, url, payload)).statusCode, `${method} ${url}`).toBe(401);
      // A task that does not exist answers the same.
      const missing = url.replace(taskId, crypto.randomUUID());
      expect((await call(owner, method, missing, payload)).statusCode, `${method} ${missing}`).toBe(404);
    }
    expect((await list(owner, taskId)).items).toMatchObject([{ id: item.id, title: 'Secret', done: false }]);
  });

  it('goes with its task', async () => {
    const taskId = await newTask();
    await add(owner, taskId, 'A');
    await add(owner, taskId, 'B');
    await ok(owner, 'DELETE', `/api/tasks/${taskId}`, undefined, 204);
    const left = await ctx.database.db.select().from(taskChecklistItems).where(eq(taskChecklistItems.taskId, taskId));
    expect(left).toEqual([]);
    expect((await call(owner, 'GET', `/api/tasks/${taskId}/checklist`)).statusCode).toBe(404);
  });
});
