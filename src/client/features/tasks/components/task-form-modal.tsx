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
import { TextAreaField, TextField } from '../../../components/ui/field';
import { Modal, ModalActions } from '../../../components/ui/modal';
import { labelled, named, OptionsSelect } from '../../../components/ui/options-select';
import { isError, toastError } from '../../../lib/errors';
import { saveForm } from '../../../lib/save-form';
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
            <ModalActions onCancel={onClose} type="submit" form={formId} isLoading={isSaving}>
              {isEdit ? 'Update Task' : 'Create Task'}
            </ModalActions>
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

function DeleteTaskDialog({
  task,
  open,
  onCancel,
  onDeleted,
}: {
  task: TaskDto;
  open: boolean;
  onCancel: () => void;
  onDeleted: () => void;
}) {
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
  const assigneeOptions = (team.data?.members ?? []).map((m) => ({ value: m.userId, label: m.user.fullName }));

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
    // An edit sends a cleared description or assignee as null.
    const { description, assigneeId, ...rest } = body;
    const request = task
      ? () =>
          update.mutateAsync({
            id: task.id,
            input: { ...rest, description: description ?? null, assigneeId: assigneeId ?? null, version: task.version },
          })
      : () => create.mutateAsync(body);
    const texts = task
      ? { saved: MSG.taskUpdated, failed: MSG.taskUpdateFailed }
      : { saved: MSG.taskCreated, failed: MSG.taskCreateFailed };
    // Someone else saved first: the form shows a version that is gone, so it closes.
    const onFailed = (error: unknown) => isError(error, 'stale_edit') && onSaved();
    onSavingChange(true);
    const saved = await saveForm(form, request, texts, { onFailed });
    onSavingChange(false);
    if (saved) onSaved();
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
      <TextAreaField label="Description" className="sm:col-span-2" {...bind('description')} rows={3} />
      <OptionsSelect label="Project" {...bind('projectId')} emptyOption="Select a project" options={named(projects.data)} />
      <OptionsSelect label="Assignee" {...bind('assigneeId')} emptyOption="Unassigned" options={assigneeOptions} />
      <OptionsSelect label="Status" {...bind('status')} options={labelled(TASK_STATUSES, TASK_STATUS_LABELS)} />
      <OptionsSelect label="Priority" {...bind('priority')} options={labelled(TASK_PRIORITIES, TASK_PRIORITY_LABELS)} />
      <TextField label="Due Date" type="date" className="dark:[&_input]:[color-scheme:dark]" {...bind('dueDate')} />
      <TextField label="Tags" {...bind('tags')} placeholder="frontend, bug, urgent" hint="Separate tags with commas" />
    </form>
  );
}
