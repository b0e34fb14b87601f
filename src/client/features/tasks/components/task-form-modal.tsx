import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import {
  TASK_PRIORITIES,
  TASK_PRIORITY_LABELS,
  TASK_STATUS_LABELS,
  TASK_STATUSES,
  type TaskPriority,
  type TaskStatus,
} from '../../../../domain/constants';
import { MSG } from '../../../../domain/messages';
import { canDeleteTask } from '../../../../domain/permissions';
import { createTaskInput, parseTags, type TaskDto } from '../../../../domain/schemas/task';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { SelectField, TextAreaField, TextField } from '../../../components/ui/field';
import { Modal } from '../../../components/ui/modal';
import { ApiError } from '../../../lib/api-client';
import { isError, toastError } from '../../../lib/errors';
import { useFormState } from '../../../lib/use-form-state';
import { useAuthStore } from '../../../stores/auth-store';
import { useTaskProjects } from '../api/get-projects';
import { useTaskTeam } from '../api/get-teams';
import { useCreateTask, useDeleteTask, useUpdateTask } from '../api/save-task';

export interface TaskFormModalProps {
  open: boolean;
  onClose: () => void;
  /** Edit mode when given. */
  task?: TaskDto | null;
  initialStatus?: TaskStatus;
  initialProjectId?: string;
}

/** The New Task / Edit Task modal (spec §5 'Task form'). */
export function TaskFormModal({ open, onClose, task, initialStatus, initialProjectId }: TaskFormModalProps) {
  const formId = useId();
  const [isSaving, setSaving] = useState(false);
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const isEdit = Boolean(task);
  return (
    <>
      <Modal
        open={open && !confirmingDelete}
        onClose={onClose}
        title={isEdit ? 'Edit Task' : 'Create New Task'}
        size="lg"
        footer={
          <>
            {isEdit && <DeleteSlot task={task!} onDelete={() => setConfirmingDelete(true)} />}
            <Button variant="secondary" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" form={formId} isLoading={isSaving}>
              {isEdit ? 'Update Task' : 'Create Task'}
            </Button>
          </>
        }
      >
        <TaskForm
          formId={formId}
          task={task ?? null}
          initialStatus={initialStatus}
          initialProjectId={initialProjectId}
          onSaved={onClose}
          onSavingChange={setSaving}
        />
      </Modal>
      {task && (
        <DeleteTaskDialog
          task={task}
          open={open && confirmingDelete}
          onCancel={() => setConfirmingDelete(false)}
          onDeleted={() => {
            setConfirmingDelete(false);
            onClose();
          }}
        />
      )}
    </>
  );
}

/** Delete shows for the task's creator and the team's owner/admins (the server checks again). */
function DeleteSlot({ task, onDelete }: { task: TaskDto; onDelete: () => void }) {
  const userId = useAuthStore((s) => s.user?.id);
  const projects = useTaskProjects();
  const teamId = projects.data?.find((p) => p.id === task.projectId)?.teamId;
  const team = useTaskTeam(teamId);
  if (!userId || !canDeleteTask(team.data?.myRole, userId, task)) return null;
  return (
    <Button variant="danger" className="mr-auto" onClick={onDelete}>
      Delete
    </Button>
  );
}

function DeleteTaskDialog({ task, open, onCancel, onDeleted }: { task: TaskDto; open: boolean; onCancel: () => void; onDeleted: () => void }) {
  const remove = useDeleteTask();
  return (
    <ConfirmDialog
      open={open}
      title="Delete Task"
      message={`Are you sure you want to delete "${task.title}"? This cannot be undone.`}
      confirmLabel="Delete"
      isLoading={remove.isPending}
      onCancel={onCancel}
      onConfirm={() =>
        remove.mutate(task.id, {
          onSuccess: () => {
            toast.success(MSG.taskDeleted);
            onDeleted();
          },
          onError: (error) => toastError(error, MSG.taskDeleteFailed),
        })
      }
    />
  );
}

interface TaskFormValues extends Record<string, unknown> {
  title: string;
  description: string;
  projectId: string;
  status: TaskStatus;
  priority: TaskPriority;
  assigneeId: string;
  dueDate: string;
  tags: string;
}

interface TaskFormProps {
  formId: string;
  task: TaskDto | null;
  initialStatus?: TaskStatus;
  initialProjectId?: string;
  onSaved: () => void;
  onSavingChange: (saving: boolean) => void;
}

function TaskForm({ formId, task, initialStatus, initialProjectId, onSaved, onSavingChange }: TaskFormProps) {
  const projects = useTaskProjects();
  const initial = useMemo<TaskFormValues>(
    () => ({
      title: task?.title ?? '',
      description: task?.description ?? '',
      projectId: task?.projectId ?? initialProjectId ?? '',
      status: task?.status ?? initialStatus ?? 'todo',
      priority: task?.priority ?? 'medium',
      assigneeId: task?.assigneeId ?? '',
      dueDate: task?.dueDate ?? '',
      tags: task?.tags.join(', ') ?? '',
    }),
    [task, initialStatus, initialProjectId],
  );
  const form = useFormState<TaskFormValues>(initial);
  const { values, setValues, bind } = form;
  const create = useCreateTask();
  const update = useUpdateTask();

  // Default project: the first one, once they have loaded.
  const defaulted = useRef(false);
  useEffect(() => {
    if (defaulted.current || !projects.data) return;
    defaulted.current = true;
    const first = projects.data[0];
    if (!values.projectId && first) setValues((v) => ({ ...v, projectId: first.id }));
  }, [projects.data, values.projectId, setValues]);

  const project = projects.data?.find((p) => p.id === values.projectId);
  const team = useTaskTeam(project?.teamId);
  const members = team.data?.members ?? [];

  // An assignee who is not in the newly chosen project's team is dropped.
  useEffect(() => {
    if (team.data && values.assigneeId && !team.data.members.some((m) => m.userId === values.assigneeId)) {
      setValues((v) => ({ ...v, assigneeId: '' }));
    }
  }, [team.data, values.assigneeId, setValues]);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const payload = {
      title: values.title,
      ...(values.description.trim() ? { description: values.description } : {}),
      ...(values.projectId ? { projectId: values.projectId } : {}),
      status: values.status,
      priority: values.priority,
      ...(values.assigneeId ? { assigneeId: values.assigneeId } : {}),
      dueDate: values.dueDate || null,
      tags: parseTags(values.tags),
    };
    const body = form.validate(createTaskInput, payload);
    if (!body) return;
    onSavingChange(true);
    try {
      if (task) {
        const { description, assigneeId, ...rest } = body;
        await update.mutateAsync({
          id: task.id,
          input: { ...rest, description: description ?? null, assigneeId: assigneeId ?? null, version: task.version },
        });
        toast.success(MSG.taskUpdated);
      } else {
        await create.mutateAsync(body);
        toast.success(MSG.taskCreated);
      }
      onSaved();
    } catch (error) {
      // Save failures are logged and the modal stays open (spec §8).
      if (error instanceof ApiError) form.showFieldErrors(error.fields);
      toastError(error, task ? MSG.taskUpdateFailed : MSG.taskCreateFailed);
      // Someone else saved first: the form shows a version that is gone, so it closes.
      if (isError(error, 'stale_edit')) onSaved();
    } finally {
      onSavingChange(false);
    }
  };

  return (
    <form id={formId} noValidate onSubmit={onSubmit} className="grid gap-4 sm:grid-cols-2">
      <TextField
        label="Title"
        className="sm:col-span-2"
        {...bind('title')}
        maxLength={200}
        autoFocus
        placeholder="What needs to be done?"
      />
      <TextAreaField
        label="Description"
        className="sm:col-span-2"
        {...bind('description')}
        rows={3}
      />
      <SelectField
        label="Project"
        {...bind('projectId')}
      >
        <option value="">Select a project</option>
        {projects.data?.map((p) => (
          <option key={p.id} value={p.id}>
            {p.name}
          </option>
        ))}
      </SelectField>
      <SelectField
        label="Assignee"
        {...bind('assigneeId')}
      >
        <option value="">Unassigned</option>
        {members.map((m) => (
          <option key={m.userId} value={m.userId}>
            {m.user.fullName}
          </option>
        ))}
      </SelectField>
      <SelectField label="Status" {...bind('status')}>
        {TASK_STATUSES.map((s) => (
          <option key={s} value={s}>
            {TASK_STATUS_LABELS[s]}
          </option>
        ))}
      </SelectField>
      <SelectField label="Priority" {...bind('priority')}>
        {TASK_PRIORITIES.map((p) => (
          <option key={p} value={p}>
            {TASK_PRIORITY_LABELS[p]}
          </option>
        ))}
      </SelectField>
      <TextField
        label="Due Date"
        type="date"
        className="dark:[&_input]:[color-scheme:dark]"
        {...bind('dueDate')}
      />
      <TextField
        label="Tags"
        {...bind('tags')}
        placeholder="frontend, bug, urgent"
        hint="Separate tags with commas"
      />
    </form>
  );
}
