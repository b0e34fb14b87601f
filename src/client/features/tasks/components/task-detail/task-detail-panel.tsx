import { useQuery } from '@tanstack/react-query';
import type { TaskDto } from '../../../../../domain/schemas/task';
import { projectsQueryOptions } from '../../../../lib/queries/projects';
import { AttachmentsSection } from './attachments-section';
import { ChecklistSection } from './checklist-section';
import { DependenciesSection } from './dependencies-section';
import { SubtasksSection } from './subtasks-section';
import { ActivitySection, CommentsSection } from './task-discussion';

/**
 * Everything of a task beside its form: sub-tasks, dependencies, files, checklist, the comment box and the activity
 * (comments and history).
 * Each part has its own query under the 'tasks' root, so realtime events and writes refresh it while it is open.
 */
export function TaskDetailPanel({ task }: { task: TaskDto }) {
  const projects = useQuery(projectsQueryOptions());
  const role = projects.data?.find((p) => p.id === task.projectId)?.myRole;
  return (
    <div className="min-w-0 space-y-6">
      <SubtasksSection task={task} />
      <DependenciesSection task={task} />
      <AttachmentsSection taskId={task.id} />
      <ChecklistSection taskId={task.id} />
      <CommentsSection taskId={task.id} />
      <ActivitySection taskId={task.id} role={role} />
    </div>
  );
}
