import { taskPartKeys } from './get-attachments';

/**
 * The keys of the task page's comments, people to mention, watchers and history: under ['tasks', 'detail', id, …]
 * like its files and checklist (taskPartKeys), so realtime events and task writes refresh an open panel.
 */
export const taskDetailKeys = {
  task: taskPartKeys.task,
  comments: (taskId: string) => [...taskPartKeys.detail(taskId), 'comments'] as const,
  mentionable: (taskId: string) => [...taskPartKeys.detail(taskId), 'mentionable'] as const,
  watch: (taskId: string) => [...taskPartKeys.detail(taskId), 'watch'] as const,
  activity: (taskId: string) => [...taskPartKeys.detail(taskId), 'activity'] as const,
};
