import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TaskDto } from '../../../domain/schemas/task';
import { getAllTasks } from './tasks';

const task = (n: number) => ({ id: `t${n}`, title: `Task ${n}` }) as TaskDto;
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => task(from + i));

/** A list endpoint that answers each page from `pages` (by offset / 500) with the given total. */
function stubList(total: number, pages: TaskDto[][]) {
  const urls: URL[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      const url = new URL(input, 'http://x');
      urls.push(url);
      const tasks = pages[Number(url.searchParams.get('offset')) / 500] ?? [];
      // The list answer names people and projects once (issue 42); these tasks have none.
      return new Response(JSON.stringify({ tasks, people: [], projects: [], counts: {}, total }), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    }),
  );
  return urls;
}

afterEach(() => vi.unstubAllGlobals());

describe('getAllTasks', () => {
  it('reads page after page of 500 until the total, with the query on each, and keeps each task once', async () => {
    // The second page repeats the first page's last task (it moved between the two requests).
    const urls = stubList(1_000, [range(0, 500), range(499, 999)]);
    const tasks = await getAllTasks({ teamId: 'team-1', sort: 'due', dir: 'asc' });
    expect(tasks.map((t) => t.id)).toEqual(range(0, 999).map((t) => t.id));
    expect(urls.map((u) => `${u.pathname}${u.search}`)).toEqual([
      '/api/tasks?teamId=team-1&sort=due&dir=asc&limit=500&offset=0',
      '/api/tasks?teamId=team-1&sort=due&dir=asc&limit=500&offset=500',
    ]);
  });

  it("joins each task's assignee and project back from the answer's people and projects", async () => {
    const ann = { id: 'u1', fullName: 'Ann Lee', firstName: 'Ann' };
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response(
            JSON.stringify({
              tasks: [
                { id: 'a', assigneeId: 'u1', projectId: 'p1' },
                { id: 'b', assigneeId: null, projectId: 'p1' },
              ],
              people: [ann],
              projects: [{ id: 'p1', name: 'Apollo' }],
              counts: {},
              total: 2,
            }),
            { status: 200, headers: { 'content-type': 'application/json' } },
          ),
      ),
    );
    const tasks = await getAllTasks({});
    expect(tasks.map((t) => [t.id, t.assignee, t.projectName])).toEqual([
      ['a', ann, 'Apollo'],
      ['b', null, 'Apollo'],
    ]);
  });

  it('stops at a short page, and after ten pages of a list that keeps growing', async () => {
    const short = stubList(700, [range(0, 200)]);
    expect(await getAllTasks({})).toHaveLength(200);
    expect(short).toHaveLength(1);
    const urls = stubList(
      1_000_000,
      Array.from({ length: 12 }, (_, p) => range(p * 500, (p + 1) * 500)),
    );
    expect(await getAllTasks({ open: 'true' })).toHaveLength(5_000);
    expect(urls).toHaveLength(10);
  });
});
