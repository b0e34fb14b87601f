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
import { isManager } from '../../../../domain/permissions';
import { createTaskInput, parseTags, type TaskDto } from '../../../../domain/schemas/task';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { SelectField, TextAreaField, TextField } from '../../../components/ui/field';
import { Modal } from '../../../components/ui/modal';
import { ApiError } from '../../../lib/api-client';
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
  if (task.creatorId !== userId && !isManager(team.data?.myRole)) return null;
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
          onError: (error) => {
            console.error('Failed to delete task', error);
            toast.error(MSG.taskDeleteFailed);
          },
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
  const { values, errors, setErrors, setField, setValues } = useFormState<TaskFormValues>(initial);
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
    const parsed = createTaskInput.safeParse(payload);
    if (!parsed.success) {
      const fieldErrors: Record<string, string> = {};
      for (const issue of parsed.error.issues) fieldErrors[String(issue.path[0])] ??= issue.message;
      setErrors(fieldErrors);
      return;
    }
    onSavingChange(true);
    try {
      if (task) {
        const { description, assigneeId, ...rest } = parsed.data;
        await update.mutateAsync({
          id: task.id,
          input: { ...rest, description: description ?? null, assigneeId: assigneeId ?? null, version: task.version },
        });
        toast.success(MSG.taskUpdated);
      } else {
        await create.mutateAsync(parsed.data);
        toast.success(MSG.taskCreated);
      }
      onSaved();
    } catch (error) {
      // Save failures are logged and the modal stays open (spec §8).
      console.error(task ? 'Failed to update task' : 'Failed to create task', error);
      if (error instanceof ApiError && error.code === 'conflict') {
        toast.error(MSG.staleEdit);
        onSaved();
        return;
      }
      if (error instanceof ApiError && Object.keys(error.fields).length > 0) setErrors(error.fields);
      toast.error(task ? MSG.taskUpdateFailed : MSG.taskCreateFailed);
    } finally {
      onSavingChange(false);
    }
  };

  return (
    <form id={formId} noValidate onSubmit={onSubmit} className="grid gap-4 sm:grid-cols-2">
      <TextField
        label="Title"
        className="sm:col-span-2"
        value={values.title}
        onChange={(e) => setField('title', e.target.value)}
        error={errors.title}
        maxLength={200}
        autoFocus
        placeholder="What needs to be done?"
      />
      <TextAreaField
        label="Description"
        className="sm:col-span-2"
        value={values.description}
        onChange={(e) => setField('description', e.target.value)}
        error={errors.description}
        rows={3}
      />
      <SelectField
        label="Project"
        value={values.projectId}
        onChange={(e) => setField('projectId', e.target.value)}
        error={errors.projectId}
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
        value={values.assigneeId}
        onChange={(e) => setField('assigneeId', e.target.value)}
        error={errors.assigneeId}
      >
        <option value="">Unassigned</option>
        {members.map((m) => (
          <option key={m.userId} value={m.userId}>
            {m.user.fullName}
          </option>
        ))}
      </SelectField>
      <SelectField label="Status" value={values.status} onChange={(e) => setField('status', e.target.value as TaskStatus)}>
        {TASK_STATUSES.map((s) => (
          <option key={s} value={s}>
            {TASK_STATUS_LABELS[s]}
          </option>
        ))}
      </SelectField>
      <SelectField
        label="Priority"
        value={values.priority}
        onChange={(e) => setField('priority', e.target.value as TaskPriority)}
      >
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
        value={values.dueDate}
        onChange={(e) => setField('dueDate', e.target.value)}
        error={errors.dueDate}
      />
      <TextField
        label="Tags"
        value={values.tags}
        onChange={(e) => setField('tags', e.target.value)}
        error={errors.tags}
        placeholder="frontend, bug, urgent"
        hint="Separate tags with commas"
      />
    </form>
  );
}
