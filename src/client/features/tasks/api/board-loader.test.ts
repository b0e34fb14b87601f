import { describe, expect, it, vi } from 'vitest';
import type { TaskDto } from '../../../../domain/schemas/task';
import { type BoardAnswer, boardKey, columnPage, createBoardLoader } from './board-loader';

const task = (id: string, status: TaskDto['status']) => ({ id, status }) as TaskDto;

const board: BoardAnswer = {
  columnKind: 'status',
  order: ['todo', 'in_progress', 'review', 'completed'],
  columns: {
    todo: [task('a', 'todo')],
    in_progress: [task('b', 'in_progress')],
    review: [],
    completed: [task('c', 'completed')],
  },
  counts: { todo: 60, in_progress: 1, review: 0, completed: 3 },
  total: 64,
  workflows: [],
};
const col = (id: string) => ({ kind: 'status' as const, id });

describe('createBoardLoader', () => {
  it('answers the columns and the shape asked for at once with one board request', async () => {
    const fetchBoard = vi.fn(async () => board);
    const load = createBoardLoader(fetchBoard);
    const filters = { projectId: 'p1', q: 'x' };
    const [shape, ...pages] = await Promise.all([
      load.board(filters),
      ...['todo', 'in_progress', 'review', 'completed'].map((s) => load.column(filters, col(s))),
    ]);
    expect(fetchBoard).toHaveBeenCalledTimes(1);
    expect(fetchBoard).toHaveBeenCalledWith(filters);
    expect(shape).toBe(board);
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
      load.column({ a: '1', b: '2' }, col('todo')),
      load.column({ b: '2', a: '1' }, col('review')),
      load.column({ a: '9' }, col('todo')),
      load.column({ a: '9' }, col('review')),
    ]);
    expect(fetchBoard).toHaveBeenCalledTimes(2);
  });

  it('asks for one column only when one column loads alone (a category column by its category)', async () => {
    const fetchBoard = vi.fn(async () => board);
    const load = createBoardLoader(fetchBoard);
    await load.column({ projectId: 'p1' }, col('completed'));
    expect(fetchBoard).toHaveBeenLastCalledWith({ projectId: 'p1', status: 'completed' });
    await load.column({}, { kind: 'category', id: 'started' });
    expect(fetchBoard).toHaveBeenLastCalledWith({ category: 'started' });
    // The shape alone asks for the whole board.
    await load.board({ projectId: 'p1' });
    expect(fetchBoard).toHaveBeenLastCalledWith({ projectId: 'p1' });
    expect(fetchBoard).toHaveBeenCalledTimes(3);
  });

  it('passes a failure to every column of the batch', async () => {
    const load = createBoardLoader(async () => {
      throw new Error('offline');
    });
    const results = await Promise.allSettled([load.column({}, col('todo')), load.board({})]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
  });

  it('answers from a primed board when one is on its way for the same filters, then asks again', async () => {
    const fetchBoard = vi.fn(async () => board);
    const primedFor = new Map([[boardKey({ projectId: 'p1' }), Promise.resolve(board)]]);
    const taken = new Set<string>();
    const load = createBoardLoader(fetchBoard, (key, taker) => {
      const primed = primedFor.get(key);
      if (!primed || taken.has(taker)) return null;
      taken.add(taker);
      return primed;
    });
    const first = await Promise.all(['todo', 'completed'].map((s) => load.column({ projectId: 'p1', q: undefined }, col(s))));
    expect(fetchBoard).not.toHaveBeenCalled();
    expect(first[1]).toEqual({
      tasks: [task('c', 'completed')],
      counts: { todo: 0, in_progress: 0, review: 0, completed: 3 },
      total: 3,
    });
    expect(taken).toEqual(new Set(['status:todo', 'status:completed']));
    // Other filters, or a column asking a second time (a refetch), go to the server.
    await load.column({ projectId: 'p2' }, col('todo'));
    await load.column({ projectId: 'p1' }, col('todo'));
    expect(fetchBoard).toHaveBeenCalledTimes(2);
  });
});

describe('columnPage', () => {
  it('cuts a category column out of the answer, its count the page total', () => {
    const byCategory: BoardAnswer = {
      ...board,
      columnKind: 'category',
      order: ['unstarted', 'started'],
      columns: { unstarted: [task('a', 'ready')], started: [] },
      counts: { unstarted: 5, started: 0 },
    };
    expect(columnPage(byCategory, 'unstarted')).toMatchObject({ tasks: [task('a', 'ready')], total: 5 });
    expect(columnPage(byCategory, 'canceled')).toMatchObject({ tasks: [], total: 0 });
  });
});
