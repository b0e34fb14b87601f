import { describe, expect, it, vi } from 'vitest';
import type { TaskBoardDto, TaskDto } from '../../../../domain/schemas/task';
import { boardKey, createBoardLoader } from './board-loader';

const task = (id: string, status: TaskDto['status']) => ({ id, status }) as TaskDto;

const board: TaskBoardDto = {
  columns: {
    todo: [task('a', 'todo')],
    in_progress: [task('b', 'in_progress')],
    review: [],
    completed: [task('c', 'completed')],
  },
  counts: { todo: 60, in_progress: 1, review: 0, completed: 3 },
  total: 64,
};

describe('createBoardLoader', () => {
  it('answers the four columns asked for at once with one board request', async () => {
    const fetchBoard = vi.fn(async () => board);
    const load = createBoardLoader(fetchBoard);
    const filters = { projectId: 'p1', q: 'x' };
    const pages = await Promise.all((['todo', 'in_progress', 'review', 'completed'] as const).map((s) => load(filters, s)));
    expect(fetchBoard).toHaveBeenCalledTimes(1);
    expect(fetchBoard).toHaveBeenCalledWith(filters);
    expect(pages[0]).toEqual({
      tasks: [task('a', 'todo')],
      counts: { todo: 60, in_progress: 0, review: 0, completed: 0 },
      total: 60,
    });
    expect(pages[2]!.tasks).toEqual([]);
    expect(pages[2]!.total).toBe(0);
  });

  it('keeps different filters apart, whatever the order of their keys', async () => {
    const fetchBoard = vi.fn(async () => board);
    const load = createBoardLoader(fetchBoard);
    await Promise.all([
      load({ a: '1', b: '2' }, 'todo'),
      load({ b: '2', a: '1' }, 'review'),
      load({ a: '9' }, 'todo'),
      load({ a: '9' }, 'review'),
    ]);
    expect(fetchBoard).toHaveBeenCalledTimes(2);
  });

  it('asks for one column only when one column loads alone, and starts a new batch afterwards', async () => {
    const fetchBoard = vi.fn(async () => board);
    const load = createBoardLoader(fetchBoard);
    await load({ projectId: 'p1' }, 'completed');
    expect(fetchBoard).toHaveBeenLastCalledWith({ projectId: 'p1', status: 'completed' });
    await load({ projectId: 'p1' }, 'todo');
    expect(fetchBoard).toHaveBeenCalledTimes(2);
  });

  it('passes a failure to every column of the batch', async () => {
    const load = createBoardLoader(async () => {
      throw new Error('offline');
    });
    const results = await Promise.allSettled([load({}, 'todo'), load({}, 'review')]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
  });

  it('answers from a primed board when one is on its way for the same filters, then asks again', async () => {
    const fetchBoard = vi.fn(async () => board);
    const primedFor = new Map([[boardKey({ projectId: 'p1' }), Promise.resolve(board)]]);
    const taken = new Set<string>();
    const load = createBoardLoader(fetchBoard, (key, status) => {
      const primed = primedFor.get(key);
      if (!primed || taken.has(status)) return null;
      taken.add(status);
      return primed;
    });
    const first = await Promise.all((['todo', 'completed'] as const).map((s) => load({ projectId: 'p1', q: undefined }, s)));
    expect(fetchBoard).not.toHaveBeenCalled();
    expect(first[1]).toEqual({
      tasks: [task('c', 'completed')],
      counts: { todo: 0, in_progress: 0, review: 0, completed: 3 },
      total: 3,
    });
    // Other filters, or a column asking a second time (a refetch), go to the server.
    await load({ projectId: 'p2' }, 'todo');
    await load({ projectId: 'p1' }, 'todo');
    expect(fetchBoard).toHaveBeenCalledTimes(2);
  });
});
