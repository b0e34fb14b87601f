// The list answer's join (issue 42), without zod: the Tasks page's chunks do not load the schemas (decision 0022).
import type { TaskAssignee, TaskDto, TaskListDto, TaskListItemDto } from './schemas/task';

/** A list page with its tasks whole (as the board's and a task's answers carry them): what the client works with. */
export interface TaskPage {
  tasks: TaskDto[];
  counts: TaskListDto['counts'];
  total: number;
}

/** The list answer's tasks with their assignee and project names joined back from `people` and `projects`. */
export function expandTaskList(answer: TaskListDto): TaskPage {
  const people = new Map(answer.people.map((p) => [p.id, p]));
  const projects = new Map(answer.projects.map((p) => [p.id, p.name]));
  const whole = (t: TaskListItemDto): TaskDto => ({
    ...t,
    assignee: (t.assigneeId && people.get(t.assigneeId)) || null,
    projectName: projects.get(t.projectId) ?? '',
  });
  return { tasks: answer.tasks.map(whole), counts: answer.counts, total: answer.total };
}

/** The list answer of whole tasks: each assignee and project once (the server's one way to write `taskListDto`). */
export function compactTaskList(page: TaskPage): TaskListDto {
  const people = new Map<string, TaskAssignee>();
  const projects = new Map<string, string>();
  const tasks = page.tasks.map(({ assignee, projectName, ...task }) => {
    if (assignee) people.set(assignee.id, assignee);
    projects.set(task.projectId, projectName);
    return task;
  });
  return {
    tasks,
    people: [...people.values()],
    projects: [...projects].map(([id, name]) => ({ id, name })),
    counts: page.counts,
    total: page.total,
  };
}
