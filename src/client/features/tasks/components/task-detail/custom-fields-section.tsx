import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type KeyboardEvent, useEffect, useId, useMemo, useRef, useState } from 'react';
import {
  type CustomFieldDef,
  type CustomFieldValue,
  fieldAppliesTo,
  validateFieldValue,
} from '../../../../../domain/custom-fields';
import type { TaskDto } from '../../../../../domain/schemas/task';
import { inputClass } from '../../../../components/ui/field';
import { cn } from '../../../../lib/cn';
import { errorText, isError, logError } from '../../../../lib/errors';
import { ApiError } from '../../../../lib/api-client';
import { myFieldsQueryOptions } from '../../../../lib/queries/custom-fields';
import { useTaskProjects } from '../../api/get-projects';
import { useTask } from '../../api/get-task';
import { useTaskTeam } from '../../api/get-teams';
import { invalidateTasks } from '../../api/prefetch-board';
import { updateTask } from '../../api/save-task';
import { taskDetailKeys } from '../../api/task-detail-keys';

/**
 * Custom field values (issue 38) on the task page and in the task form: one row per field of the task's team that
 * applies to its project (domain `fieldAppliesTo`: archived fields hidden), in the team's order, each with the editor
 * its type needs.
 */

export interface Member {
  userId: string;
  fullName: string;
}

const byPosition = (a: CustomFieldDef, b: CustomFieldDef) => a.position - b.position;

/** The fields of a project's team that apply to it, in order (none until the project and the fields are known). */
export function useProjectFields(projectId: string | null | undefined): {
  fields: CustomFieldDef[];
  teamId: string | undefined;
  members: Member[];
} {
  const projects = useTaskProjects();
  const teamId = projects.data?.find((p) => p.id === projectId)?.teamId;
  const all = useQuery(myFieldsQueryOptions()).data;
  const fields = useMemo(
    () =>
      teamId && projectId && all ? all.filter((f) => f.teamId === teamId && fieldAppliesTo(f, projectId)).sort(byPosition) : [],
    [all, teamId, projectId],
  );
  const team = useTaskTeam(fields.length > 0 ? teamId : undefined).data;
  const members = useMemo(() => (team?.members ?? []).map((m) => ({ userId: m.userId, fullName: m.user.fullName })), [team]);
  return { fields, teamId, members };
}

/** A value as the server would store it, or the field's message (the same texts as the server's 400). */
export function checkValue(
  field: CustomFieldDef,
  value: CustomFieldValue | null | undefined,
): { ok: true; value: CustomFieldValue | null } | { ok: false; message: string } {
  if (typeof value === 'number' && Number.isNaN(value)) return { ok: false, message: `${field.name} must be a number` };
  return validateFieldValue(field, value ?? null, () => true);
}

const isNaNValue = (v: CustomFieldValue | null | undefined) => typeof v === 'number' && Number.isNaN(v);
/** A value as a comparable string (a number that is not one included). */
const keyOf = (v: CustomFieldValue | null | undefined) => (isNaNValue(v) ? 'NaN' : JSON.stringify(v ?? null));
/** The same value (a number that is not one is never the same as anything: its message must show). */
const sameValue = (a: CustomFieldValue | null | undefined, b: CustomFieldValue | null | undefined) =>
  !isNaNValue(a) && !isNaNValue(b) && JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** A text, URL, number or date field's text while it is edited. */
const toDraft = (value: CustomFieldValue | null | undefined): string =>
  value === null || value === undefined || typeof value === 'boolean' || Array.isArray(value) ? '' : String(value);

/** The draft as the value it stands for (a number that is not one stays NaN, for its message). */
function fromDraft(field: CustomFieldDef, draft: string): CustomFieldValue | null {
  const text = draft.trim();
  if (text === '') return null;
  if (field.type === 'number') return Number(text.replace(',', '.'));
  return field.type === 'text' ? draft : text;
}

export interface CustomFieldEditorProps {
  field: CustomFieldDef;
  value: CustomFieldValue | null | undefined;
  /**
   * A new value: text, URL, number and date fields on blur or Enter (Escape puts the value back), the others at once.
   * With `live`, text fields on every change too (the task form keeps them in its state).
   */
  onCommit: (value: CustomFieldValue | null) => void;
  members: Member[];
  live?: boolean;
  id: string;
  /** The id of the row's label (multi-select: the group's name). */
  labelId: string;
  describedBy?: string;
  invalid?: boolean;
  disabled?: boolean;
}

/** The editor a field's type needs: a text, URL, number or date input, a select, checkboxes, a person select. */
export function CustomFieldEditor(props: CustomFieldEditorProps) {
  const { field, value, onCommit, members, id, labelId, describedBy, invalid, disabled } = props;
  const common = {
    id,
    disabled,
    'aria-describedby': describedBy,
    'aria-invalid': invalid || undefined,
  };
  switch (field.type) {
    case 'select':
    case 'person': {
      const options =
        field.type === 'select'
          ? field.options.map((o) => ({ value: o.id, label: o.name }))
          : members.map((m) => ({ value: m.userId, label: m.fullName }));
      const current = typeof value === 'string' ? value : '';
      // A person no longer in the team still shows, by id, until it is changed.
      if (current && !options.some((o) => o.value === current)) options.push({ value: current, label: current });
      return (
        <select
          {...common}
          className={inputClass}
          value={current}
          onChange={(e) => onCommit(e.target.value === '' ? null : e.target.value)}
        >
          <option value="">None</option>
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      );
    }
    case 'multi_select': {
      const chosen = new Set(Array.isArray(value) ? value : []);
      const toggle = (optionId: string, on: boolean) => {
        const next = field.options.filter((o) => (o.id === optionId ? on : chosen.has(o.id))).map((o) => o.id);
        onCommit(next.length > 0 ? next : null);
      };
      return (
        <div
          id={id}
          role="group"
          aria-labelledby={labelId}
          aria-describedby={describedBy}
          className="flex flex-wrap gap-x-4 gap-y-1 py-1"
        >
          {field.options.length === 0 && <span className="text-sm text-slate-600 dark:text-slate-300">No options</span>}
          {field.options.map((o) => (
            <label key={o.id} className="inline-flex items-center gap-2 text-sm text-slate-800 dark:text-slate-100">
              <input
                type="checkbox"
                className="h-4 w-4 rounded border-slate-400 accent-brand-600"
                checked={chosen.has(o.id)}
                disabled={disabled}
                onChange={(e) => toggle(o.id, e.target.checked)}
              />
              <span aria-hidden className="h-2.5 w-2.5 shrink-0 rounded-full" style={{ backgroundColor: o.color }} />
              {o.name}
            </label>
          ))}
        </div>
      );
    }
    case 'checkbox':
      return (
        <div className="flex h-9 items-center">
          <input
            {...common}
            type="checkbox"
            className="h-4 w-4 rounded border-slate-400 accent-brand-600"
            checked={value === true}
            onChange={(e) => onCommit(e.target.checked ? true : null)}
          />
        </div>
      );
    default:
      return <DraftInput {...props} />;
  }
}

/** Text, URL, number and date: a draft saved on blur or Enter, Escape puts the saved value back. */
function DraftInput({ field, value, onCommit, live, id, describedBy, invalid, disabled }: CustomFieldEditorProps) {
  const [draft, setDraft] = useState(() => toDraft(value));
  // A value changed elsewhere (a save, realtime) replaces the draft, unless the draft already says it.
  const valueKey = keyOf(value);
  const [seen, setSeen] = useState(valueKey);
  if (valueKey !== seen) {
    setSeen(valueKey);
    if (keyOf(fromDraft(field, draft)) !== valueKey) setDraft(toDraft(value));
  }
  const commit = () => {
    const next = fromDraft(field, draft);
    if (!sameValue(next, value)) onCommit(next);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter' && !live) {
      e.preventDefault();
      commit();
    }
  };
  // Escape undoes this field's edit and leaves the dialog open: the dialog listens on the document in the capture
  // phase, so this listens before it, on the window, while there is an edit to undo.
  const inputRef = useRef<HTMLInputElement>(null);
  const saved = toDraft(value);
  const dirty = !live && draft !== saved;
  useEffect(() => {
    if (!dirty) return;
    const onEscape = (e: globalThis.KeyboardEvent) => {
      if (e.key !== 'Escape' || e.target !== inputRef.current) return;
      e.stopPropagation();
      e.preventDefault();
      setDraft(saved);
    };
    window.addEventListener('keydown', onEscape, { capture: true });
    return () => window.removeEventListener('keydown', onEscape, { capture: true });
  }, [dirty, saved]);
  const type = field.type === 'date' ? 'date' : field.type === 'url' ? 'url' : 'text';
  return (
    <div className="flex items-center gap-2">
      <input
        ref={inputRef}
        id={id}
        type={type}
        disabled={disabled}
        aria-describedby={describedBy}
        aria-invalid={invalid || undefined}
        inputMode={field.type === 'number' ? 'decimal' : undefined}
        className={cn(inputClass, field.type === 'date' && 'dark:[color-scheme:dark]')}
        value={draft}
        placeholder={field.type === 'url' ? 'https://' : undefined}
        onChange={(e) => {
          setDraft(e.target.value);
          if (live) onCommit(fromDraft(field, e.target.value));
        }}
        onBlur={live ? undefined : commit}
        onKeyDown={onKeyDown}
      />
      {field.type === 'number' && field.unit && (
        <span className="shrink-0 text-sm text-slate-600 dark:text-slate-300">{field.unit}</span>
      )}
    </div>
  );
}

export interface CustomFieldRowProps extends Omit<CustomFieldEditorProps, 'id' | 'labelId' | 'describedBy' | 'invalid'> {
  error?: string | null;
  /** 'Saving…' while a value is on its way. */
  status?: string | null;
}

/** A field's row: its name, its editor, and the message of a refused value (it names the field). */
export function CustomFieldRow({ error, status, ...editor }: CustomFieldRowProps) {
  const id = useId();
  const labelId = `${id}-label`;
  const errorId = `${id}-error`;
  const isGroup = editor.field.type === 'multi_select';
  return (
    <div
      className="grid gap-1 sm:grid-cols-[minmax(0,9rem)_minmax(0,1fr)] sm:items-start sm:gap-3"
      data-testid="custom-field-row"
    >
      {isGroup ? (
        <span id={labelId} className="pt-1 text-sm font-medium break-words text-slate-700 dark:text-slate-200">
          {editor.field.name}
        </span>
      ) : (
        <label id={labelId} htmlFor={id} className="text-sm font-medium break-words text-slate-700 sm:pt-2 dark:text-slate-200">
          {editor.field.name}
        </label>
      )}
      <div className="min-w-0 space-y-1">
        <CustomFieldEditor
          {...editor}
          id={id}
          labelId={labelId}
          describedBy={error ? errorId : undefined}
          invalid={Boolean(error)}
        />
        {error && (
          <p id={errorId} className="text-sm text-red-700 dark:text-red-400">
            {error}
          </p>
        )}
        <p role="status" className="sr-only">
          {status}
        </p>
      </div>
    </div>
  );
}

export interface CustomFieldsSectionProps {
  task: TaskDto;
  /** A value saved: the version the save was sent with and the task the server returned (the form's next version). */
  onSaved?: (sentVersion: number, saved: TaskDto) => void;
}

/**
 * The task page's 'Custom fields' (only when its project has fields): each value edited in place and saved alone
 * (PATCH /api/tasks/:id with `fields` and the task's version). The new value shows at once; a refused one goes back
 * and the server's message (naming the field) shows at its row.
 */
export function CustomFieldsSection({ task: opened, onSaved }: CustomFieldsSectionProps) {
  const headingId = useId();
  const qc = useQueryClient();
  const task = useTask(opened.id, true).data ?? opened;
  const { fields, members } = useProjectFields(task.projectId);
  const [pending, setPending] = useState<Record<string, CustomFieldValue | null>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [status, setStatus] = useState<Record<string, string>>({});
  // One save at a time, each against the newest version known (the previous save's answer), so that a blur's save and
  // the next control's change do not both send the same version.
  const queue = useRef<Promise<void>>(Promise.resolve());
  const newest = useRef(0);
  if (fields.length === 0) return null;

  const save = async (field: CustomFieldDef, raw: CustomFieldValue | null) => {
    const checked = checkValue(field, raw);
    if (!checked.ok) {
      setErrors((e) => ({ ...e, [field.id]: checked.message }));
      return;
    }
    setErrors(({ [field.id]: _, ...rest }) => rest);
    setPending((p) => ({ ...p, [field.id]: checked.value }));
    setStatus((s) => ({ ...s, [field.id]: 'Saving…' }));
    const run = queue.current.then(() => send(field, checked.value));
    queue.current = run;
    await run;
  };

  const send = async (field: CustomFieldDef, value: CustomFieldValue | null) => {
    const cached = qc.getQueryData<TaskDto>(taskDetailKeys.task(task.id))?.version ?? task.version;
    const sent = Math.max(cached, newest.current);
    try {
      const saved = await updateTask(task.id, { fields: { [field.id]: value }, version: sent });
      newest.current = Math.max(newest.current, saved.version);
      qc.setQueryData(taskDetailKeys.task(task.id), saved);
      onSaved?.(sent, saved);
      setStatus((s) => ({ ...s, [field.id]: `${field.name} saved` }));
    } catch (error) {
      logError('Failed to save a custom field', error);
      const message = isError(error, 'stale_edit')
        ? 'Someone else changed this task meanwhile: the value was not saved. Try again.'
        : error instanceof ApiError && error.fields.fields
          ? error.fields.fields
          : errorText(error, `${field.name} could not be saved`);
      setErrors((e) => ({ ...e, [field.id]: message }));
      setStatus(({ [field.id]: _, ...rest }) => rest);
    } finally {
      setPending(({ [field.id]: _, ...rest }) => rest);
      void invalidateTasks(qc);
    }
  };

  return (
    <section aria-labelledby={headingId} className="space-y-3" data-testid="custom-fields-section">
      <h3 id={headingId} className="text-base font-semibold text-slate-900 dark:text-slate-100">
        Custom fields
      </h3>
      <div className="space-y-3">
        {fields.map((field) => (
          <CustomFieldRow
            key={field.id}
            field={field}
            value={field.id in pending ? pending[field.id] : task.fields?.[field.id]}
            members={members}
            onCommit={(v) => void save(field, v)}
            error={errors[field.id]}
            status={status[field.id]}
          />
        ))}
      </div>
    </section>
  );
}
