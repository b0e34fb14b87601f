import { type FormEvent, useId, useRef, useState } from 'react';
import { countSubtasks, subtaskProgress } from '../../../../../domain/hierarchy';
import type { TaskDto } from '../../../../../domain/schemas/task';
import { mapStatusToProject } from '../../../../../domain/workflow';
import {
  compactRowClass,
  DragGrip,
  type MoveDirection,
  MoveButtons,
  SortableListFrame,
  useSortableList,
  useSortableRow,
} from '../../../../components/sortable-list';
import { TaskStatusChip } from '../../../../components/task-visuals';
import { Button } from '../../../../components/ui/button';
import { inputClass } from '../../../../components/ui/field';
import { ProgressBar } from '../../../../components/ui/progress-bar';
import { cn } from '../../../../lib/cn';
import { toastError } from '../../../../lib/errors';
import { useProjectStatuses } from '../../../../lib/queries/statuses';
import { useWorkRights } from '../../../../lib/use-work-rights';
import { useAddSubtask, useReorderSubtasks, useSubtasks } from '../../api/get-subtasks';
import { TaskLink } from './task-link';

export interface SubtasksSectionProps {
  task: Pick<TaskDto, 'id' | 'projectId'>;
}

/**
 * The task's sub-tasks (issue 37): each a link to its page with its status and assignee, the progress 'n/m'
 * (completed ÷ all but canceled, the card's rule), 'Add sub-task' (Enter adds and keeps the field for the next one),
 * and reordering by the grip or the Move up / Move down buttons. A viewer or a guest adds no sub-task (issue 41: a
 * sub-task is a new task in the project, which they may not create), so they are not offered 'Add sub-task'.
 */
export function SubtasksSection({ task }: SubtasksSectionProps) {
  const headingId = useId();
  const { data, isPending, isError, refetch } = useSubtasks(task.id);
  const reorder = useReorderSubtasks(task.id);
  const canAdd = useWorkRights().canCreateTask(task.projectId);
  const subtasks = data ?? [];
  const counts = countSubtasks(subtasks.map((t) => t.statusCategory));
  const sortable = useSortableList({
    items: subtasks,
    nameOf: (t) => t.title,
    onReorder: (ids) => reorder.mutate(ids),
  });

  return (
    <section aria-labelledby={headingId} className="space-y-3" data-testid="subtasks-section">
      <div className="flex items-center justify-between gap-2">
        <h3 id={headingId} className="text-base font-semibold text-slate-900 dark:text-slate-100">
          Sub-tasks
        </h3>
        {counts.total > 0 && (
          <span className="text-sm tabular-nums text-slate-600 dark:text-slate-300" data-testid="subtask-progress">
            <span aria-hidden>{subtaskProgress(counts)}</span>
            <span className="sr-only">
              {counts.done} of {counts.total} sub-tasks done
            </span>
          </span>
        )}
      </div>
      {counts.total > 0 && <ProgressBar value={(counts.done / counts.total) * 100} label="Sub-task progress" />}

      {isPending ? (
        <div className="space-y-2" role="status">
          <span className="sr-only">Loading sub-tasks…</span>
          {[0, 1].map((i) => (
            <div key={i} aria-hidden className="h-4 w-2/3 animate-pulse rounded bg-slate-200 dark:bg-slate-700" />
          ))}
        </div>
      ) : isError ? (
        <div className="flex items-center gap-3 text-sm text-slate-700 dark:text-slate-200">
          <p>Could not load the sub-tasks.</p>
          <Button variant="secondary" size="sm" onClick={() => void refetch()}>
            Retry
          </Button>
        </div>
      ) : subtasks.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-300">No sub-tasks yet.</p>
      ) : (
        <SortableListFrame sortable={sortable} label="Sub-tasks">
          {subtasks.map((subtask, index) => (
            <SubtaskRow
              key={subtask.id}
              subtask={subtask}
              isFirst={index === 0}
              isLast={index === subtasks.length - 1}
              canMove={!reorder.isPending}
              onMove={(direction) => sortable.move(subtask, direction)}
            />
          ))}
        </SortableListFrame>
      )}

      {canAdd && <AddSubtaskForm parent={task} disabled={isPending || isError} />}
      <p role="status" className="sr-only">
        {sortable.announcement}
      </p>
    </section>
  );
}

/** 'Add sub-task': Enter adds the title and keeps the field, empty and focused, for the next one. */
function AddSubtaskForm({ parent, disabled }: { parent: SubtasksSectionProps['task']; disabled: boolean }) {
  const [title, setTitle] = useState('');
  const inputRef = useRef<HTMLInputElement>(null);
  const add = useAddSubtask(parent);
  const statuses = useProjectStatuses(parent.projectId).data;
  // A new sub-task starts in the project's first not-started status.
  const status = statuses ? mapStatusToProject({ category: 'unstarted' }, statuses)?.key : undefined;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const trimmed = title.trim();
    if (!trimmed || !status) return;
    add.mutate(
      { title: trimmed, status },
      {
        onError: (error) => {
          toastError(error, 'Failed to add the sub-task');
          setTitle((now) => now || trimmed);
        },
      },
    );
    setTitle('');
    inputRef.current?.focus();
  };
  return (
    <form onSubmit={submit} className="flex gap-2">
      <input
        ref={inputRef}
        type="text"
        aria-label="Add sub-task"
        placeholder="Add sub-task"
        value={title}
        maxLength={200}
        onChange={(e) => setTitle(e.target.value)}
        disabled={disabled}
        className={cn(inputClass, 'h-9 py-1.5')}
      />
      <Button
        type="submit"
        variant="secondary"
        size="sm"
        className="h-9 shrink-0"
        disabled={disabled || !status || !title.trim()}
      >
        Add
      </Button>
    </form>
  );
}

interface SubtaskRowProps {
  subtask: TaskDto;
  isFirst: boolean;
  isLast: boolean;
  canMove: boolean;
  onMove: (direction: MoveDirection) => void;
}

function SubtaskRow({ subtask, isFirst, isLast, canMove, onMove }: SubtaskRowProps) {
  const row = useSortableRow(subtask.id, canMove);
  const isClosed = subtask.statusCategory === 'completed' || subtask.statusCategory === 'canceled';
  return (
    <li
      ref={row.rowRef}
      data-sortable={subtask.id}
      style={row.style}
      className={compactRowClass(row, 'flex-wrap gap-x-2 gap-y-1')}
    >
      <DragGrip row={row} />
      <TaskLink
        taskId={subtask.id}
        className={cn('min-w-0 flex-1 basis-32 text-sm', isClosed && 'line-through decoration-slate-400')}
      >
        {subtask.title}
      </TaskLink>
      <span className="flex shrink-0 items-center gap-2">
        <TaskStatusChip task={subtask} />
        <span className="max-w-[8rem] truncate text-xs text-slate-600 dark:text-slate-300">
          {subtask.assignee?.fullName ?? 'Unassigned'}
        </span>
        <MoveButtons name={subtask.title} isFirst={isFirst} isLast={isLast} canMove={canMove} onMove={onMove} />
      </span>
    </li>
  );
}
