// The list answer (issue 42): each assignee and project once, referenced by id from the tasks, and the list's and the
// board's ETag with 304 Not Modified — checked against `fresh`, the conditional-GET rule Express and Koa apply. A tag
// must change with anything that changes what the caller sees (a change by someone else, a name, a membership), and
// never let one caller revalidate another's different answer.
import fresh from 'fresh';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TaskBoardDto, type TaskListDto, taskListDto } from '../../src/domain/schemas/task';
import { expandTaskList } from '../../src/domain/task-list';
import { createUser, insertMember, insertTeam, type TestUser } from '../factories';
import { apiRequests } from '../helpers/api';
import { setupTestApp } from '../helpers/app';

const ctx = setupTestApp();
const { call, ok } = apiRequests(ctx);

let olive: TestUser;
let mia: TestUser;
let sam: TestUser;
let teamId: string;
let miaMembership: string;
let alpha: string;
let beta: string;

const get = (user: TestUser | null, url: string, etag?: string, encoding?: string) =>
  ctx.app.inject({
    method: 'GET',
    url,
    headers: {
      ...(user ? user.auth : {}),
      ...(etag ? { 'if-none-match': etag } : {}),
      ...(encoding ? { 'accept-encoding': encoding } : {}),
    },
  });

beforeAll(async () => {
  const people = await Promise.all(
    ['Olive Owner', 'Mia Member', 'Sam Stranger'].map((fullName) => createUser(ctx.app, { fullName })),
  );
  [olive, mia, sam] = people as [TestUser, TestUser, TestUser];
  const team = await insertTeam(ctx.database.db, olive);
  teamId = team.id;
  miaMembership = (await insertMember(ctx.database.db, teamId, mia)).id;
  alpha = (await ok<{ id: string }>(olive, 'POST', '/api/projects', { teamId, name: 'Alpha' }, 201)).id;
  beta = (await ok<{ id: string }>(olive, 'POST', '/api/projects', { teamId, name: 'Beta' }, 201)).id;
  for (let i = 0; i < 6; i++) {
    await ok(
      olive,
      'POST',
      '/api/tasks',
      {
        projectId: i % 2 ? beta : alpha,
        title: `Task ${i}`,
        assigneeId: i % 3 === 0 ? null : i % 3 === 1 ? olive.id : mia.id,
      },
      201,
    );
  }
});

describe('GET /api/tasks: people and projects once', () => {
  it('names each assignee and project once, the tasks reference them, and the whole tasks are the board cards', async () => {
    for (const url of ['/api/tasks?limit=500', '/api/tasks?limit=500&sort=title']) {
      const answer = await ok<TaskListDto>(olive, 'GET', url);
      expect(taskListDto.parse(answer)).toEqual(answer);
      expect(answer.tasks).toHaveLength(6);
      for (const t of answer.tasks) {
        expect(t).not.toHaveProperty('assignee');
        expect(t).not.toHaveProperty('projectName');
      }
      expect(answer.people.map((p) => p.fullName).sort()).toEqual(['Mia Member', 'Olive Owner']);
      expect(answer.projects.map((p) => p.name).sort()).toEqual(['Alpha', 'Beta']);
      // The client's join gives back exactly the cards the board carries.
      const board = await ok<TaskBoardDto>(olive, 'GET', '/api/tasks/board?limit=100');
      const cards = new Map(
        Object.values(board.columns)
          .flat()
          .map((c) => [c.id, c]),
      );
      for (const t of expandTaskList(answer).tasks) expect(t).toEqual(cards.get(t.id));
    }
  });

  it('leaves out people and projects of no task on the page', async () => {
    const answer = await ok<TaskListDto>(olive, 'GET', `/api/tasks?projectId=${alpha}&assigneeId=unassigned`);
    expect(answer.tasks.length).toBeGreaterThan(0);
    expect(answer.people).toEqual([]);
    expect(answer.projects).toEqual([{ id: alpha, name: 'Alpha' }]);
  });
});

describe('ETag and 304 on the list and the board', () => {
  const urls = () => [`/api/tasks?projectId=${alpha}&limit=500`, '/api/tasks/board?limit=20', `/api/tasks?q=Task`];

  it('answers 304 with no body to the same caller asking with the tag of an unchanged answer, as fresh() agrees', async () => {
    for (const url of urls()) {
      const first = await get(olive, url);
      expect(first.statusCode).toBe(200);
      const etag = first.headers.etag as string;
      expect(etag).toMatch(/^W\/"[A-Za-z0-9_-]+"$/);
      // The tag is the JSON's, whatever the encoding: a browser asking for brotli revalidates the same.
      const compressed = await get(olive, url, undefined, 'gzip, br');
      expect(compressed.headers['content-encoding']).toBe('br');
      expect(compressed.headers.etag).toBe(etag);
      const again = await get(olive, url, etag, 'gzip, br');
      expect(again.statusCode, url).toBe(304);
      expect(again.body).toBe('');
      expect(again.headers.etag).toBe(etag);
      expect(fresh({ 'if-none-match': etag }, { etag: again.headers.etag })).toBe(true);
      // A list of tags, one of them right: 304 too; another tag: the whole answer.
      expect((await get(olive, url, `W/"nope", ${etag}`)).statusCode).toBe(304);
      const other = await get(olive, url, 'W/"nope"');
      expect(other.statusCode).toBe(200);
      expect(fresh({ 'if-none-match': 'W/"nope"' }, { etag: other.headers.etag })).toBe(false);
    }
  });

  it("changes the tag when someone else changes a task, or a person's name on the page", async () => {
    const url = `/api/tasks?projectId=${alpha}&limit=500`;
    const before = (await get(olive, url)).headers.etag as string;
    const boardBefore = (await get(olive, '/api/tasks/board?limit=20')).headers.etag as string;
    const task = (await ok<TaskListDto>(mia, 'GET', url)).tasks[0]!;
    await ok(mia, 'PATCH', `/api/tasks/${task.id}`, { title: 'Renamed by Mia', version: task.version });
    const after = await get(olive, url, before);
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).not.toBe(before);
    expect((await get(olive, '/api/tasks/board?limit=20', boardBefore)).statusCode).toBe(200);

    const tag = after.headers.etag as string;
    await ok(mia, 'PATCH', '/api/me/profile', { fullName: 'Mia Renamed' });
    const renamed = await get(olive, url, tag);
    expect(renamed.statusCode).toBe(200);
    expect((renamed.json() as TaskListDto).people.map((p) => p.fullName)).toContain('Mia Renamed');
  });

  it("never revalidates another caller's different answer, and tells a stranger nothing", async () => {
    const url = '/api/tasks?limit=500';
    const oliveTag = (await get(olive, url)).headers.etag as string;
    // Sam sees none of these tasks: his answer differs, so Olive's tag gets him his own 200.
    const samAnswer = await get(sam, url, oliveTag);
    expect(samAnswer.statusCode).toBe(200);
    expect((samAnswer.json() as TaskListDto).tasks).toEqual([]);
    // A project he may not see is a 404 whatever tag he sends; signed out, a 401.
    expect((await get(sam, `/api/tasks?projectId=${alpha}`, oliveTag)).statusCode).toBe(404);
    expect((await get(null, url, oliveTag)).statusCode).toBe(401);

    // Mia sees what Olive sees (same team): the same text, the same tag — until she leaves the team.
    const miaFirst = await get(mia, url);
    expect(miaFirst.headers.etag).toBe(oliveTag);
    expect((await get(mia, url, oliveTag)).statusCode).toBe(304);
    const removed = await call(olive, 'DELETE', `/api/teams/${teamId}/members/${miaMembership}`);
    expect(removed.statusCode, removed.body).toBe(204);
    const gone = await get(mia, url, oliveTag);
    expect(gone.statusCode).toBe(200);
    expect((gone.json() as TaskListDto).tasks).toEqual([]);
  });
});
