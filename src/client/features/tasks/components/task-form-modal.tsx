import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import type { TaskPriority } from '../../../../domain/constants';
import { MSG } from '../../../../domain/messages';
import { validateStartDate } from '../../../../domain/dates';
import { ERROR_MESSAGES } from '../../../../domain/errors';
import { canAssignTask, canContribute, canDeleteTask, canRestructureTask } from '../../../../domain/permissions';
import { createTaskInput, parseTags, type TaskDto } from '../../../../domain/schemas/task';
import { Markdown } from '../../../components/markdown';
import { DEFAULT_STATUSES, mapStatusToProject } from '../../../../domain/workflow';
import { PRIORITY_OPTIONS, workflowStatusOptions } from '../../../components/task-visuals';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { TextAreaField, TextField } from '../../../components/ui/field';
import { Modal, ModalActions } from '../../../components/ui/modal';
import { named, OptionsSelect } from '../../../components/ui/options-select';
import { Spinner } from '../../../components/ui/spinner';
import { cn } from '../../../lib/cn';
import { isError, toastError } from '../../../lib/errors';
import { useProjectStatuses } from '../../../lib/queries/statuses';
import { saveForm } from '../../../lib/save-form';
import { useFormState } from '../../../lib/use-form-state';
import { useWorkRights } from '../../../lib/use-work-rights';
import { useAuthStore } from '../../../stores/auth-store';
import { useTaskProjects } from '../api/get-projects';
import { findCachedTask, useTask } from '../api/get-task';
import { useTaskTeam } from '../api/get-teams';
import { UUID } from '../api/prefetch-board';
import { useCreateTask, useDeleteTask, useUpdateTask } from '../api/save-task';
import { useSubtreeCount } from '../api/get-subtasks';
import { toastIfBlocked } from '../api/move-task';
import { openSubtaskCount } from '../../../../domain/hierarchy';
import { useCompleteSubtasksPrompt } from './task-detail/complete-subtasks-dialog';
import { TaskDetailPanel } from './task-detail/task-detail-panel';
import { checkValue, CustomFieldRow, useProjectFields } from './task-detail/custom-fields-section';
import type { CustomFieldValue } from '../../../../domain/custom-fields';
import { TaskStructureBanner } from './task-detail/task-structure-banner';
import { localTimeZone } from '../../../../domain/schemas/time-zone';
import { NO_REPEAT, type RepeatChoice, repeatAnchor, repeatInputOf } from '../repeat-choice';
import { RepeatPicker } from './repeat-picker';

export interface TaskFormModalProps {
  open: boolean;
  onClose: () => void;
  /** Edit mode when given: the task's full view (its page, /tasks/:id). */
  taskId?: string | null;
  /** A status key of the project the task is created in (a board column's). */
  initialStatus?: string;
  initialProjectId?: string;
  /** A new task's due date (YYYY-MM-DD), e.g. the calendar day it was added on. */
  initialDueDate?: string;
}

/**
 * The New Task / Edit Task modal (spec §5 'Task form'). For an existing task it is the task's full view: the form,
 * and beside it (below it on narrow screens) its files, checklist, comments and activity.
 */
export function TaskFormModal({ taskId, ...props }: TaskFormModalProps) {
  return taskId ? <TaskPageModal {...props} taskId={taskId} /> : <TaskEditor {...props} task={null} />;
}

/**
 * An existing task by id: from the board's cache, else fetched (a shared link, a reload). The form keeps the task as
 * it was when it opened (its version is what a save checks against), whatever refetches happen meanwhile — a delete
 * refetches it into a 404 before the modal closes.
 */
function TaskPageModal({ open, onClose, taskId }: Omit<TaskFormModalProps, 'taskId'> & { taskId: string }) {
  const qc = useQueryClient();
  const isId = UUID.test(taskId);
  const query = useTask(taskId, open && isId);
  // The task as it is when the modal opens (the newest the caches hold, else the fetched one), kept while it closes.
  const [opened, setOpened] = useState<TaskDto | null>(null);
  const [openedFor, setOpenedFor] = useState<string | null>(null);
  const openKey = open ? taskId : null;
  if (openKey !== openedFor) {
    setOpenedFor(openKey);
    if (openKey) setOpened(findCachedTask(qc, taskId)?.task ?? null);
  }
  if (open && query.data?.id === taskId && opened?.id !== taskId) setOpened(query.data);
  const task = opened?.id === taskId ? opened : null;
  if (task) return <TaskEditor open={open} onClose={onClose} task={task} />;
  const isNotFound = !isId || isError(query.error, 'not_found') || isError(query.error, 'validation_failed');
  return (
    <Modal
      open={open}
      onClose={onClose}
      title={isNotFound ? 'Task not found' : 'Edit Task'}
      size="md"
      footer={
        isNotFound || query.isError ? (
          <>
            {!isNotFound && (
              <Button variant="secondary" onClick={() => void query.refetch()}>
                Retry
              </Button>
            )}
            <Button onClick={onClose}>Back to tasks</Button>
          </>
        ) : undefined
      }
    >
      {!isId || query.isError ? (
        <p className="text-sm text-slate-700 dark:text-slate-200">
          {isNotFound ? 'This task does not exist, or you do not have access to it.' : MSG.loadFailed}
        </p>
      ) : (
        <Spinner label="Loading task..." />
      )}
    </Modal>
  );
}

function TaskEditor({
  open,
  onClose,
  task,
  initialStatus,
  initialProjectId,
  initialDueDate,
}: Omit<TaskFormModalProps, 'taskId'> & { task: TaskDto | null }) {
  const formId = useId();
  const [isSaving, setSaving] = useState(false);
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const isEdit = Boolean(task);
  // A task the caller may not change (issue 41: a viewer, a guest on a task not assigned to them) opens read-only.
  const rights = useWorkRights();
  const readOnly = task !== null && !rights.canEditTask(task);
  // The version the form saves against: the opened task's, moved on by each custom field the page saved in place on
  // top of it (so those saves do not make the form's own save a stale edit).
  const versionRef = useRef<number | null>(null);
  const onFieldSaved = (sent: number, saved: TaskDto) => {
    if (task && sent === (versionRef.current ?? task.version)) versionRef.current = saved.version;
  };
  const form = (
    <TaskForm
      versionRef={versionRef}
      key={task?.id ?? 'new'}
      formId={formId}
      task={task ?? null}
      initialStatus={initialStatus}
      initialProjectId={initialProjectId}
      initialDueDate={initialDueDate}
      onSaved={onClose}
      onSavingChange={setSaving}
      readOnly={readOnly}
    />
  );
  return (
    <>
      <Modal
        open={open && !confirmingDelete}
        onClose={onClose}
        title={readOnly ? TASK_READ_ONLY_TEXT.title : isEdit ? 'Edit Task' : 'Create New Task'}
        size={isEdit ? 'xl' : 'lg'}
        footer={
          <>
            {isEdit && <DeleteSlot task={task!} onDelete={() => setConfirmingDelete(true)} />}
            {readOnly ? (
              <Button onClick={onClose}>{TASK_READ_ONLY_TEXT.close}</Button>
            ) : (
              <ModalActions onCancel={onClose} type="submit" form={formId} isLoading={isSaving}>
                {isEdit ? 'Update Task' : 'Create Task'}
              </ModalActions>
            )}
          </>
        }
      >
        {readOnly && (
          <p className="mb-4 rounded-lg border border-slate-200 bg-slate-50 px-3 py-2 text-sm text-slate-700 dark:border-slate-700 dark:bg-slate-800 dark:text-slate-200">
            {TASK_READ_ONLY_TEXT.notice}
          </p>
        )}
        {task && <TaskStructureBanner key={task.id} task={task} />}
        {task ? (
          <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
            <div className="min-w-0">{form}</div>
            <div className="min-w-0 border-t border-slate-200 pt-5 lg:border-t-0 lg:border-l lg:pl-6 lg:pt-0 dark:border-slate-700">
              <TaskDetailPanel task={task} onFieldSaved={onFieldSaved} readOnly={readOnly} />
            </div>
          </div>
        ) : (
          form
        )}
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

/** What a task the caller may only read says (issue 41). */
export const TASK_READ_ONLY_TEXT = {
  title: 'View Task',
  close: 'Close',
  notice: 'You can view this task but not change it.',
} as const;

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
  // Its sub-tasks go with it (the whole subtree, canceled ones too): the question says how many.
  const subtree = useSubtreeCount(task.id, open);
  const withSubtasks = subtree.data
    ? ` This also deletes its ${subtree.data} ${subtree.data === 1 ? 'sub-task' : 'sub-tasks'}.`
    : '';
  return (
    <ConfirmDialog
      open={open}
      title="Delete Task"
      message={`Are you sure you want to delete "${task.title}"?${withSubtasks} This cannot be undone.`}
      confirmLabel="Delete"
      isLoading={remove.isPending || (open && subtree.isPending)}
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
  /** A status key of the chosen project's workflow. */
  status: string;
  priority: TaskPriority;
  assigneeId: string;
  dueDate: string;
  startDate: string;
  tags: string;
  /** Custom field values chosen in the form (a new task's; the task page edits an existing one's in place). */
  fields: Record<string, CustomFieldValue | null>;
}

interface TaskFormProps {
  formId: string;
  /** The version an edit is saved against when custom fields were saved since the task opened. */
  versionRef: { current: number | null };
  task: TaskDto | null;
  /** A status key of the project the task is created in (a board column's). */
  initialStatus?: string;
  initialProjectId?: string;
  initialDueDate?: string;
  onSaved: () => void;
  onSavingChange: (saving: boolean) => void;
  /** The caller may not change the task: every field shows, none takes input. */
  readOnly?: boolean;
}

function TaskForm({
  formId,
  versionRef,
  task,
  initialStatus,
  initialProjectId,
  initialDueDate,
  onSaved,
  onSavingChange,
  readOnly = false,
}: TaskFormProps) {
  const projects = useTaskProjects();
  const userId = useAuthStore((s) => s.user?.id ?? '');
  // A new task goes only into a project where the caller adds work (not one of a team they view or are a guest of).
  const projectOptions = useMemo(
    () => (task ? projects.data : projects.data?.filter((p) => canContribute(p.myRole))),
    [task, projects.data],
  );
  const initial = useMemo<TaskFormValues>(
    () => ({
      title: task?.title ?? '',
      description: task?.description ?? '',
      projectId: task?.projectId ?? initialProjectId ?? '',
      status: task?.status ?? initialStatus ?? 'todo',
      priority: task?.priority ?? 'medium',
      assigneeId: task?.assigneeId ?? '',
      dueDate: task?.dueDate ?? initialDueDate ?? '',
      startDate: task?.startDate ?? '',
      tags: task?.tags.join(', ') ?? '',
      fields: {},
    }),
    [task, initialStatus, initialProjectId, initialDueDate],
  );
  const form = useFormState<TaskFormValues>(initial);
  const { values, setValues, bind } = form;
  const create = useCreateTask();
  const update = useUpdateTask();
  const prompt = useCompleteSubtasksPrompt();
  // The task's live counts: sub-tasks added on its page since it opened count too.
  const live = useTask(task?.id ?? '', Boolean(task)).data ?? task;

  // Default project: the first one, once they have loaded.
  const defaulted = useRef(false);
  useEffect(() => {
    if (defaulted.current || !projectOptions) return;
    defaulted.current = true;
    const first = projectOptions[0];
    if (!values.projectId && first) setValues((v) => ({ ...v, projectId: first.id }));
  }, [projectOptions, values.projectId, setValues]);

  const project = projects.data?.find((p) => p.id === values.projectId);
  // The chosen project's statuses (the default four until they load, or with no project chosen).
  const statuses = useProjectStatuses(values.projectId || null).data;
  const workflow = values.projectId && statuses ? statuses : DEFAULT_STATUSES;
  const statusOptions = useMemo(() => workflowStatusOptions(workflow), [workflow]);
  // A status the chosen project does not have becomes its nearest one there (as a move to that project would).
  useEffect(() => {
    if (!statuses || statuses.some((s) => s.key === values.status)) return;
    const own = task && task.projectId === values.projectId ? task : null;
    const category = own?.statusCategory ?? DEFAULT_STATUSES.find((s) => s.key === values.status)?.category ?? 'unstarted';
    const mapped = mapStatusToProject({ key: values.status, category }, statuses);
    if (mapped) setValues((v) => ({ ...v, status: mapped.key }));
  }, [statuses, values.status, values.projectId, task, setValues]);
  const team = useTaskTeam(project?.teamId);
  // A guest keeps their task assigned to themselves, and leaves it in its project (issue 41).
  const role = project?.myRole;
  // (A read-only form shows the task as it is: every choice stays, none can be made.)
  const limited = task !== null && !readOnly;
  const assigneeOptions = (team.data?.members ?? [])
    .filter((m) => !limited || canAssignTask(role, userId, m.userId))
    .map((m) => ({ value: m.userId, label: m.user.fullName }));
  const mayUnassign = !limited || canAssignTask(role, userId, null);
  const mayMove = !task || canRestructureTask(role);

  // An assignee who is not in the newly chosen project's team is dropped.
  useEffect(() => {
    if (team.data && values.assigneeId && !team.data.members.some((m) => m.userId === values.assigneeId)) {
      setValues((v) => ({ ...v, assigneeId: '' }));
    }
  }, [team.data, values.assigneeId, setValues]);

  // A new task's custom fields: those of the chosen project's team that apply to it.
  const custom = useProjectFields(task ? null : values.projectId);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const setFieldValue = (id: string, value: CustomFieldValue | null) => {
    form.setField('fields', { ...values.fields, [id]: value });
    setFieldErrors(({ [id]: _, ...rest }) => rest);
  };
  // A new task's 'Repeat' (issue 39), anchored at its due date as typed; an existing task's is its page's (RepeatSection).
  const [repeat, setRepeat] = useState<RepeatChoice>(NO_REPEAT);
  const repeatInput = task ? null : repeatInputOf(repeat, repeatAnchor(values.dueDate), localTimeZone());

  // The domain's rule (dates.ts), told as soon as both dates are set; else the form's or the server's message.
  const startError = validateStartDate(values.startDate || null, values.dueDate || null).ok
    ? form.errors.startDate
    : ERROR_MESSAGES.start_after_due;

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    // Custom fields: only those set, each checked as the server will (its message names the field).
    const chosen: Record<string, CustomFieldValue> = {};
    const refused: Record<string, string> = {};
    for (const field of custom.fields) {
      const checked = checkValue(field, values.fields[field.id]);
      if (!checked.ok) refused[field.id] = checked.message;
      else if (checked.value !== null) chosen[field.id] = checked.value;
    }
    setFieldErrors(refused);
    const payload = {
      title: values.title,
      ...(values.description.trim() ? { description: values.description } : {}),
      ...(values.projectId ? { projectId: values.projectId } : {}),
      status: values.status,
      priority: values.priority,
      ...(values.assigneeId ? { assigneeId: values.assigneeId } : {}),
      dueDate: values.dueDate || null,
      startDate: values.startDate || null,
      tags: parseTags(values.tags),
      ...(!task && Object.keys(chosen).length > 0 ? { fields: chosen } : {}),
      ...(repeatInput ? { repeat: repeatInput } : {}),
    };
    const body = form.validate(createTaskInput, payload);
    if (!body || Object.keys(refused).length > 0) return;
    // Start on or before due: the server's rule, told under the field before asking it (startError shows it).
    if (!validateStartDate(body.startDate, body.dueDate).ok) return;
    // An edit sends a cleared description or assignee as null, and never the parent (the form has no field for it: the
    // parsed body's `parentId: null` would take a sub-task out from under its parent).
    const { description, assigneeId, parentId: _parentId, ...rest } = body;
    // Completing a task with open sub-tasks asks whether to complete them too; closing the question cancels the save.
    const category = workflow.find((s) => s.key === values.status)?.category;
    const completes = task && task.statusCategory !== 'completed' && category === 'completed';
    const openCount = completes && live ? openSubtaskCount(live.subtaskCounts) : 0;
    const completeSubtasks = openCount > 0 && task ? await prompt.ask(task.title, openCount) : false;
    if (completeSubtasks === null) return;
    const request = task
      ? () =>
          update
            .mutateAsync({
              id: task.id,
              input: {
                ...rest,
                description: description ?? null,
                assigneeId: assigneeId ?? null,
                version: versionRef.current ?? task.version,
                ...(completeSubtasks ? { completeSubtasks } : {}),
              },
            })
            .then((saved) => toastIfBlocked(task, saved))
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
    <form id={formId} noValidate onSubmit={onSubmit}>
      <fieldset disabled={readOnly} className="grid min-w-0 gap-4 sm:grid-cols-2">
        <TextField
          label="Title"
          className="sm:col-span-2"
          {...bind('title')}
          maxLength={200}
          autoFocus
          placeholder="What needs to be done?"
        />
        <DescriptionField isEdit={Boolean(task?.description)} readOnly={readOnly} {...bind('description')} />
        <OptionsSelect
          label="Project"
          {...bind('projectId')}
          disabled={!mayMove}
          emptyOption="Select a project"
          options={named(projectOptions)}
        />
        <OptionsSelect
          label="Assignee"
          {...bind('assigneeId')}
          emptyOption={mayUnassign ? 'Unassigned' : undefined}
          options={assigneeOptions}
        />
        <OptionsSelect label="Status" {...bind('status')} options={statusOptions} />
        <OptionsSelect label="Priority" {...bind('priority')} options={PRIORITY_OPTIONS} />
        <TextField
          label="Start Date"
          type="date"
          className="dark:[&_input]:[color-scheme:dark]"
          {...bind('startDate')}
          error={startError}
        />
        <TextField label="Due Date" type="date" className="dark:[&_input]:[color-scheme:dark]" {...bind('dueDate')} />
        {!task && (
          <RepeatPicker value={repeat} anchor={repeatAnchor(values.dueDate)} onChange={setRepeat} error={form.errors.repeat} />
        )}
        <TextField
          label="Tags"
          className="sm:col-span-2"
          {...bind('tags')}
          placeholder="frontend, bug, urgent"
          hint="Separate tags with commas"
        />
        {custom.fields.length > 0 && (
          <fieldset className="space-y-3 sm:col-span-2" data-testid="form-custom-fields">
            <legend className="mb-2 text-sm font-semibold text-slate-900 dark:text-slate-100">Custom fields</legend>
            {custom.fields.map((field) => (
              <CustomFieldRow
                key={field.id}
                field={field}
                value={values.fields[field.id]}
                members={custom.members}
                live
                onCommit={(v) => setFieldValue(field.id, v)}
                error={fieldErrors[field.id] ?? (form.errors.fields?.startsWith(field.name) ? form.errors.fields : null)}
              />
            ))}
            {form.errors.fields && !custom.fields.some((f) => form.errors.fields?.startsWith(f.name)) && (
              <p className="text-sm text-red-700 dark:text-red-400">{form.errors.fields}</p>
            )}
          </fieldset>
        )}
      </fieldset>
      {prompt.dialog}
    </form>
  );
}

interface DescriptionFieldProps {
  /** An existing task with a description: shown rendered until a click (or Edit) turns it into the text field. */
  isEdit: boolean;
  /** Shown rendered, never turned into the text field (the caller may not change the task). */
  readOnly?: boolean;
  name: string;
  value: string;
  error?: string;
  onChange: TextAreaFieldChange;
}
type TextAreaFieldChange = NonNullable<Parameters<typeof TextAreaField>[0]['onChange']>;

/** The description: Markdown, rendered when the modal opens on a task, the text field once one edits it. */
function DescriptionField({ isEdit, readOnly = false, ...field }: DescriptionFieldProps) {
  const labelId = useId();
  const [isEditing, setEditing] = useState(!isEdit);
  const focusOnEdit = useRef(false);
  const edit = () => {
    if (readOnly) return;
    focusOnEdit.current = true;
    setEditing(true);
  };
  if (isEditing) {
    return <TextAreaField label="Description" className="sm:col-span-2" {...field} rows={4} autoFocus={focusOnEdit.current} />;
  }
  return (
    <div className="space-y-1 sm:col-span-2">
      <div className="flex items-center justify-between gap-2">
        <span id={labelId} className="block text-sm font-medium text-slate-700 dark:text-slate-200">
          Description
        </span>
        {!readOnly && (
          <Button variant="link" className="text-xs" aria-label="Edit description" onClick={edit}>
            Edit
          </Button>
        )}
      </div>
      {/* A click on the text (not on a link in it) edits it too; the Edit button is the keyboard's way. */}
      {/* biome-ignore lint/a11y/useKeyWithClickEvents: the Edit button above does the same by keyboard */}
      <div
        role="group"
        aria-labelledby={labelId}
        className={cn(
          'rounded-lg border border-slate-300 px-3 py-2 dark:border-slate-600',
          !readOnly && 'cursor-text hover:border-slate-400 dark:hover:border-slate-500',
        )}
        onClick={(e) => {
          if (!(e.target as Element).closest('a')) edit();
        }}
      >
        <Markdown source={field.value} />
      </div>
    </div>
  );
}
