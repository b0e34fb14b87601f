import type { ListTasksQuery, TaskDto, TaskListDto } from '../../../domain/schemas/task';
import { expandTaskList, type TaskPage } from '../../../domain/task-list';
import { type ApiQuery, api } from '../api-client';

/** The list endpoint's largest page. */
const PAGE_SIZE = 500;
/** A guard against a list that keeps growing while it is read: at most this many pages (5,000 tasks). */
const MAX_PAGES = 10;

/**
 * A page of GET /api/tasks with its tasks whole: the answer names each assignee and project once (issue 42), joined
 * back here, the one place the client reads the list route.
 */
export const getTaskPage = (query: ApiQuery, signal?: AbortSignal): Promise<TaskPage> =>
  api.get<TaskListDto>('/api/tasks', { query, signal, revalidate: true }).then(expandTaskList);

/**
 * Every task GET /api/tasks answers for `query` (the calendar's days, My work's open tasks), a page of 500 at a time
 * until `total` is reached, each task once.
 */
export async function getAllTasks(query: Omit<ListTasksQuery, 'limit' | 'offset'>, signal?: AbortSignal): Promise<TaskDto[]> {
  const tasks: TaskDto[] = [];
  const seen = new Set<string>();
  for (let page = 0; page < MAX_PAGES; page++) {
    const res = await getTaskPage({ ...query, limit: PAGE_SIZE, offset: page * PAGE_SIZE }, signal);
    for (const t of res.tasks) {
      // Pages can overlap when a task moves between requests.
      if (!seen.has(t.id)) {
        seen.add(t.id);
        tasks.push(t);
      }
    }
    if (res.tasks.length < PAGE_SIZE || (page + 1) * PAGE_SIZE >= res.total) break;
  }
  return tasks;
}
