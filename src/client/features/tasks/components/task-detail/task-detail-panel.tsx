import { useQuery } from '@tanstack/react-query';
import type { TaskDto } from '../../../../../domain/schemas/task';
import { projectsQueryOptions } from '../../../../lib/queries/projects';
import { useWorkRights } from '../../../../lib/use-work-rights';
import { AttachmentsSection } from './attachments-section';
import { ChecklistSection } from './checklist-section';
import { CustomFieldsSection } from './custom-fields-section';
import { DependenciesSection } from './dependencies-section';
import { RepeatSection } from './repeat-section';
import { SubtasksSection } from './subtasks-section';
import { ActivitySection, CommentsSection } from './task-discussion';
import { TimeSection } from './time-section';

/**
 * Everything of a task beside its form: its custom fields (edited in place), sub-tasks, dependencies, files, checklist, the comment box and the activity
 * (comments and history).
 * Each part has its own query under the 'tasks' root, so realtime events and writes refresh it while it is open.
 */
export function TaskDetailPanel({
  task,
  onFieldSaved,
  readOnly = false,
}: {
  task: TaskDto;
  /** A custom field's value saved in place (the form's next version: see CustomFieldsSection). */
  onFieldSaved?: (sentVersion: number, saved: TaskDto) => void;
  /**
   * The caller may not change the task (issue 41): its parts show with their controls disabled (a disabled fieldset),
   * and the comment box only when they may still comment (a viewer of a team that lets viewers comment).
   */
  readOnly?: boolean;
}) {
  const projects = useQuery(projectsQueryOptions());
  const role = projects.data?.find((p) => p.id === task.projectId)?.myRole;
  const canComment = useWorkRights().canComment(task);
  return (
    <div className="min-w-0 space-y-6">
      <fieldset disabled={readOnly} className="min-w-0 space-y-6 [&_button:disabled]:opacity-60">
        <RepeatSection task={task} onSaved={onFieldSaved} />
        <CustomFieldsSection task={task} onSaved={onFieldSaved} />
        <TimeSection task={task} onSaved={onFieldSaved} />
        <SubtasksSection task={task} />
        <DependenciesSection task={task} />
        <AttachmentsSection taskId={task.id} />
        <ChecklistSection taskId={task.id} />
      </fieldset>
      {canComment && <CommentsSection taskId={task.id} />}
      <ActivitySection taskId={task.id} role={role} />
    </div>
  );
}
