import type { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LIMITS } from '../../../../domain/constants';
import type { TaskBoardDto } from '../../../../domain/schemas/task';
import { boardKey } from './board-loader';

const get = vi.fn();
vi.mock('../../../lib/api-client', () => ({ api: { get: (...args: unknown[]) => get(...args) } }));
let accessToken: string | undefined = 'token-a';
vi.mock('../../../stores/auth-store', () => ({
  useAuthStore: { getState: () => ({ session: accessToken ? { access_token: accessToken } : null }) },
}));

const board: TaskBoardDto = {
  columnKind: 'status',
  order: ['todo', 'in_progress', 'review', 'completed'],
  workflows: [],
  columns: { todo: [], in_progress: [], review: [], completed: [] },
  counts: { todo: 0, in_progress: 0, review: 0, completed: 0 },
  total: 0,
};
const PROJECT = '0b6c3a9e-5a1f-4c7e-9d2b-1f2e3d4c5b6a';
const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;

/** A fresh copy of the module: its primed board is module state. */
const load = async () => {
  vi.resetModules();
  return import('./prefetch-board');
};

describe('primeBoard and takeArrivedBoard', () => {
  beforeEach(() => {
    get.mockReset();
    accessToken = 'token-a';
  });
  afterEach(() => vi.useRealTimers());

  it('asks for the first page of the plain board, and hands its answer to each column once, after it has arrived', async () => {
    let answer!: (b: TaskBoardDto) => void;
    get.mockReturnValue(
      new Promise<TaskBoardDto>((resolve) => {
        answer = resolve;
      }),
    );
    const { primeBoard, takeArrivedBoard } = await load();
    primeBoard({ pathname: '/tasks', search: `?project=${PROJECT}` }, inAnHour());
    expect(get).toHaveBeenCalledWith('/api/tasks/board', {
      query: { projectId: PROJECT, limit: LIMITS.boardFirstPage },
      revalidate: true,
    });
    const key = boardKey({ projectId: PROJECT });
    expect(takeArrivedBoard(key, 'todo')).toBeNull(); // not in yet: the column asks through its loader
    answer(board);
    await new Promise((r) => setTimeout(r, 0));
    expect(takeArrivedBoard(key, 'todo')?.board).toBe(board);
    expect(takeArrivedBoard(key, 'todo')).toBeNull();
    expect(takeArrivedBoard(key, 'review')?.board).toBe(board);
    expect(takeArrivedBoard(boardKey({}), 'in_progress')).toBeNull(); // other filters
  });

  it('does not start with filters besides the project, on another page, or with an expiring token', async () => {
    const { primeBoard } = await load();
    primeBoard({ pathname: '/tasks', search: '?priority=high' }, inAnHour());
    primeBoard({ pathname: '/dashboard', search: '' }, inAnHour());
    primeBoard({ pathname: '/tasks', search: '' }, Math.floor(Date.now() / 1000) + 10);
    primeBoard({ pathname: '/tasks', search: '?project=not-a-uuid' }, inAnHour());
    expect(get).not.toHaveBeenCalled();
  });

  it('drops a failed request, and an answer older than 15 s', async () => {
    get.mockRejectedValueOnce(new Error('offline'));
    let mod = await load();
    mod.primeBoard({ pathname: '/tasks', search: '' }, inAnHour());
    await new Promise((r) => setTimeout(r, 0));
    expect(mod.takePrimedBoard(boardKey({}), 'todo')).toBeNull();

    vi.useFakeTimers();
    get.mockResolvedValueOnce(board);
    mod = await load();
    mod.primeBoard({ pathname: '/tasks', search: '' }, inAnHour());
    await vi.advanceTimersByTimeAsync(10_000);
    expect(mod.takeArrivedBoard(boardKey({}), 'todo')?.board).toBe(board);
    await vi.advanceTimersByTimeAsync(6_000);
    expect(mod.takeArrivedBoard(boardKey({}), 'review')).toBeNull();
  });

  it('is not taken by another session, nor after a task was written', async () => {
    get.mockResolvedValue(board);
    let mod = await load();
    mod.primeBoard({ pathname: '/tasks', search: '' }, inAnHour());
    await new Promise((r) => setTimeout(r, 0));
    accessToken = 'token-b'; // signed out, and someone else signed in
    expect(mod.takeArrivedBoard(boardKey({}), 'todo')).toBeNull();
    expect(mod.takePrimedBoard(boardKey({}), 'todo')).toBeNull();

    accessToken = 'token-a';
    mod = await load();
    mod.primeBoard({ pathname: '/tasks', search: '' }, inAnHour());
    await new Promise((r) => setTimeout(r, 0));
    await mod.invalidateTasks({ invalidateQueries: async () => {} } as unknown as QueryClient);
    expect(mod.takeArrivedBoard(boardKey({}), 'todo')).toBeNull();
  });
});
