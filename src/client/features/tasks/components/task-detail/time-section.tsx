import { useQueryClient } from '@tanstack/react-query';
import { Pencil, Play, Square, Trash2 } from 'lucide-react';
import { type FormEvent, type KeyboardEvent, type RefObject, useEffect, useId, useRef, useState } from 'react';
import { type EstimateUnit, TIME_LIMITS } from '../../../../../domain/constants';
import { localIsoDate } from '../../../../../domain/dates';
import { formatDuration, formatElapsed } from '../../../../../domain/durations';
import { canEditTimeEntry } from '../../../../../domain/permissions';
import type { TaskDto } from '../../../../../domain/schemas/task';
import type { TimeEntryDto } from '../../../../../domain/schemas/time';
import { isTimeEntryDay, TIME_DATE_INVALID } from '../../../../../domain/time-errors';
import { RowIconButton } from '../../../../components/sortable-list';
import { Button } from '../../../../components/ui/button';
import { inputClass } from '../../../../components/ui/field';
import { ProgressBar } from '../../../../components/ui/progress-bar';
import { ApiError } from '../../../../lib/api-client';
import { cn } from '../../../../lib/cn';
import { errorText, isError, logError } from '../../../../lib/errors';
import {
  useDeleteTimeEntry,
  useElapsedSeconds,
  useLogTime,
  useStartTimer,
  useStopTimer,
  useTaskTimeEntries,
  useTimer,
  useUpdateTimeEntry,
} from '../../../../lib/queries/time';
import { useAuthStore } from '../../../../stores/auth-store';
import { useTaskProjects } from '../../api/get-projects';
import { useTask } from '../../api/get-task';
import { useTaskTeam } from '../../api/get-teams';
import { invalidateTasks } from '../../api/prefetch-board';
import { updateTask } from '../../api/save-task';
import { taskDetailKeys } from '../../api/task-detail-keys';
import { formatLongDate } from '../task-meta';
import { estimateDraft, estimateIn, loggedPercent, parseEntryMinutes, parseEstimate, taskLoggedSummary } from './time-model';

export interface TimeSectionProps {
  task: TaskDto;
  /** The estimate saved: the version the save was sent with and the task the server returned (the form's next version). */
  onSaved?: (sentVersion: number, saved: TaskDto) => void;
}

/**
 * The task page's 'Time' (issue 39): what is logged against the estimate (the sub-tasks' time included), the estimate
 * in the team's unit, the timer, 'Log time' and the entries (edited or deleted by their author and the team's owners
 * and admins; the server checks again).
 */
export function TimeSection({ task: opened, onSaved }: TimeSectionProps) {
  const headingId = useId();
  const task = useTask(opened.id, true).data ?? opened;
  const projects = useTaskProjects();
  const teamId = projects.data?.find((p) => p.id === task.projectId)?.teamId;
  const team = useTaskTeam(teamId).data;
  const unit: EstimateUnit = team?.estimateUnit ?? 'time';
  const percent = loggedPercent(task, unit);
  // 'Log time''s duration: where focus goes when the entry whose button had it is deleted.
  const logDurationRef = useRef<HTMLInputElement>(null);

  return (
    <section aria-labelledby={headingId} className="space-y-3" data-testid="time-section">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id={headingId} className="text-base font-semibold text-slate-900 dark:text-slate-100">
          Time
        </h3>
        <TimerControl task={task} />
      </div>
      <div className="space-y-1.5">
        <p className="text-sm text-slate-800 dark:text-slate-100" data-testid="time-summary">
          {taskLoggedSummary(task, unit)}
        </p>
        {percent !== null && <ProgressBar value={percent} label="Time logged against the estimate" />}
        {task.subtaskLoggedMinutes > 0 && (
          <p className="text-xs text-slate-600 dark:text-slate-300">
            Includes {formatDuration(task.subtaskLoggedMinutes)} on sub-tasks
          </p>
        )}
      </div>
      <EstimateField key={`${task.id}-${unit}`} task={task} unit={unit} onSaved={onSaved} />
      <LogTimeForm taskId={task.id} durationRef={logDurationRef} />
      <EntryList taskId={task.id} role={team?.myRole} afterDelete={logDurationRef} />
    </section>
  );
}

/**
 * 'Start timer', or 'Stop timer' with the elapsed time while this task's timer runs: one button that changes its name,
 * so that the keyboard's focus stays on it. While a start or stop is under way it refuses clicks (aria-disabled)
 * instead of being disabled: a disabled button drops its focus to the page.
 */
function TimerControl({ task }: { task: TaskDto }) {
  const timer = useTimer();
  const start = useStartTimer();
  const stop = useStopTimer();
  const running = timer.data?.taskId === task.id ? timer.data : null;
  const elapsed = useElapsedSeconds(running?.startedAt);
  const busy = start.isPending || stop.isPending || timer.isPending;
  // The button's new name is not announced by every screen reader: the start is said here (a stop says it in a toast).
  const [status, setStatus] = useState('');
  const toggle = () => {
    if (busy) return;
    if (running) stop.mutate(undefined, { onSuccess: () => setStatus('') });
    else start.mutate(task.id, { onSuccess: () => setStatus(`Timer started on ${task.title}`) });
  };
  const Icon = running ? Square : Play;
  return (
    <div className="flex items-center gap-2">
      <p role="status" className="sr-only">
        {status}
      </p>
      {running && (
        <span className="text-sm tabular-nums text-slate-700 dark:text-slate-200" data-testid="task-timer-elapsed">
          <span className="sr-only">Timer running: </span>
          {formatElapsed(elapsed)}
        </span>
      )}
      <Button
        variant="secondary"
        size="sm"
        onClick={toggle}
        aria-disabled={busy || undefined}
        className="aria-disabled:cursor-not-allowed aria-disabled:opacity-60"
      >
        <Icon className={cn('h-3.5 w-3.5', running && 'fill-current')} aria-hidden />
        {running ? 'Stop timer' : 'Start timer'}
      </Button>
    </div>
  );
}

/** The estimate, in the team's unit, saved on blur or Enter (PATCH /api/tasks/:id with the task's version). */
function EstimateField({ task, unit, onSaved }: { task: TaskDto; unit: EstimateUnit; onSaved?: TimeSectionProps['onSaved'] }) {
  const id = useId();
  const qc = useQueryClient();
  const saved = estimateDraft(task, unit);
  const [draft, setDraft] = useState(saved);
  const [seen, setSeen] = useState(saved);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  const newest = useRef(0);
  // A value changed elsewhere (a save, realtime) replaces the draft.
  if (saved !== seen) {
    setSeen(saved);
    setDraft(saved);
  }

  const commit = async () => {
    const parsed = parseEstimate(draft, unit);
    if (!parsed.ok) {
      setError(parsed.message);
      return;
    }
    setError(null);
    const current = estimateIn(task, unit);
    if (parsed.value === (unit === 'points' ? current.points : current.minutes)) return;
    const cached = qc.getQueryData<TaskDto>(taskDetailKeys.task(task.id))?.version ?? task.version;
    const sent = Math.max(cached, newest.current);
    setStatus('Saving…');
    try {
      const input = unit === 'points' ? { estimatePoints: parsed.value } : { estimateMinutes: parsed.value };
      const result = await updateTask(task.id, { ...input, version: sent });
      newest.current = Math.max(newest.current, result.version);
      qc.setQueryData(taskDetailKeys.task(task.id), result);
      onSaved?.(sent, result);
      setStatus('Estimate saved');
    } catch (e) {
      logError('Failed to save the estimate', e);
      setStatus('');
      setError(
        isError(e, 'stale_edit')
          ? 'Someone else changed this task meanwhile: the estimate was not saved. Try again.'
          : errorText(e, 'The estimate could not be saved'),
      );
    } finally {
      void invalidateTasks(qc);
    }
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key !== 'Enter') return;
    e.preventDefault();
    void commit();
  };
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  return (
    <div className="grid gap-1 sm:grid-cols-[minmax(0,9rem)_minmax(0,1fr)] sm:items-start sm:gap-3">
      <label htmlFor={id} className="text-sm font-medium text-slate-700 sm:pt-2 dark:text-slate-200">
        {unit === 'points' ? 'Estimate (points)' : 'Estimate'}
      </label>
      <div className="min-w-0 space-y-1">
        <input
          id={id}
          type="text"
          inputMode={unit === 'points' ? 'decimal' : undefined}
          className={cn(inputClass, 'max-w-48')}
          value={draft}
          placeholder={unit === 'points' ? '3' : '5h'}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : hintId}
          onChange={(e) => setDraft(e.target.value)}
          onBlur={() => void commit()}
          onKeyDown={onKeyDown}
        />
        {error ? (
          <p id={errorId} className="text-sm text-red-700 dark:text-red-400">
            {error}
          </p>
        ) : (
          <p id={hintId} className="text-xs text-slate-600 dark:text-slate-300">
            {unit === 'points' ? 'Story points, such as 3 or 2.5' : 'Such as 5h, 2h 30m or 90m'}
          </p>
        )}
        <p role="status" className="sr-only">
          {status}
        </p>
      </div>
    </div>
  );
}

type EntryField = 'duration' | 'date' | 'note';

/** What is wrong with an entry's fields: the field it is about (where it shows, and focus goes) and what to say. */
interface EntryError {
  field: EntryField;
  message: string;
}

/** A refused entry's message on its field (the server's `minutes` is the duration), else its reason's text. */
function entryError(error: unknown, fallback: string): EntryError {
  if (error instanceof ApiError) {
    const { minutes, date, note } = error.fields;
    if (minutes) return { field: 'duration', message: minutes };
    if (date) return { field: 'date', message: date };
    if (note) return { field: 'note', message: note };
  }
  return { field: 'duration', message: errorText(error, fallback) };
}

interface EntryDraft {
  duration: string;
  date: string;
  note: string;
}

/**
 * The fields of an entry (new or edited): a duration, a day, a note, and the message of what was refused, under the
 * form, named by the field it is about; each refusal (a new object) takes focus to that field.
 */
function EntryFields({
  draft,
  onChange,
  error,
  durationRef,
  autoFocus = false,
}: {
  draft: EntryDraft;
  onChange: (next: EntryDraft) => void;
  error: EntryError | null;
  durationRef?: RefObject<HTMLInputElement | null>;
  /** The duration takes focus when the fields appear (an entry opened for editing). */
  autoFocus?: boolean;
}) {
  const id = useId();
  const errorId = `${id}-error`;
  const ownDurationRef = useRef<HTMLInputElement>(null);
  const dateRef = useRef<HTMLInputElement>(null);
  const noteRef = useRef<HTMLInputElement>(null);
  const durationInput = durationRef ?? ownDurationRef;
  const refs = useRef({ duration: durationInput, date: dateRef, note: noteRef });
  refs.current.duration = durationInput;
  useEffect(() => {
    if (error) refs.current[error.field].current?.focus();
  }, [error]);
  const invalid = (field: EntryField) => ({
    'aria-invalid': error?.field === field ? true : undefined,
    'aria-describedby': error?.field === field ? errorId : undefined,
  });
  const labelClass = 'block text-xs font-medium text-slate-700 dark:text-slate-200';
  return (
    <div className="grid grid-cols-2 gap-2 sm:grid-cols-[minmax(0,7rem)_minmax(0,10rem)_minmax(0,1fr)]">
      <div className="space-y-1">
        <label htmlFor={`${id}-duration`} className={labelClass}>
          Duration
        </label>
        <input
          ref={durationInput}
          id={`${id}-duration`}
          type="text"
          className={cn(inputClass, 'h-9 py-1.5')}
          placeholder="1h 30m"
          value={draft.duration}
          // An entry opened for editing: focus follows the Edit button the form replaced (as the checklist's rename).
          autoFocus={autoFocus}
          {...invalid('duration')}
          onChange={(e) => onChange({ ...draft, duration: e.target.value })}
        />
      </div>
      <div className="space-y-1">
        <label htmlFor={`${id}-date`} className={labelClass}>
          Date
        </label>
        <input
          ref={dateRef}
          id={`${id}-date`}
          type="date"
          required
          className={cn(inputClass, 'h-9 py-1.5 dark:[color-scheme:dark]')}
          value={draft.date}
          {...invalid('date')}
          onChange={(e) => onChange({ ...draft, date: e.target.value })}
        />
      </div>
      <div className="col-span-2 space-y-1 sm:col-span-1">
        <label htmlFor={`${id}-note`} className={labelClass}>
          Note <span className="font-normal text-slate-600 dark:text-slate-300">(optional)</span>
        </label>
        <input
          ref={noteRef}
          id={`${id}-note`}
          type="text"
          className={cn(inputClass, 'h-9 py-1.5')}
          maxLength={TIME_LIMITS.noteMax}
          value={draft.note}
          {...invalid('note')}
          onChange={(e) => onChange({ ...draft, note: e.target.value })}
        />
      </div>
      {error && (
        <p id={errorId} className="col-span-2 text-sm text-red-700 sm:col-span-3 dark:text-red-400">
          {error.message}
        </p>
      )}
    </div>
  );
}

/** An entry's day as the server takes it (a cleared date field is empty; a date field gives the year 0001 too). */
const isEntryDate = (date: string) => /^\d{4}-\d{2}-\d{2}$/.test(date) && isTimeEntryDay(date);

/** The entry a draft stands for, or what is wrong with it. */
function readDraft(
  draft: EntryDraft,
): { ok: true; value: { date: string; minutes: number; note: string | null } } | { ok: false; error: EntryError } {
  const minutes = parseEntryMinutes(draft.duration);
  if (!minutes.ok) return { ok: false, error: { field: 'duration', message: minutes.message } };
  if (!isEntryDate(draft.date)) return { ok: false, error: { field: 'date', message: TIME_DATE_INVALID } };
  return { ok: true, value: { date: draft.date, minutes: minutes.value, note: draft.note.trim() || null } };
}

/** 'Log time' by hand: a duration ('1h 30m', '90m', '1.5h'), a day (today unless changed), an optional note. */
function LogTimeForm({ taskId, durationRef }: { taskId: string; durationRef: RefObject<HTMLInputElement | null> }) {
  const headingId = useId();
  const log = useLogTime(taskId);
  const [draft, setDraft] = useState<EntryDraft>(() => ({ duration: '', date: localIsoDate(), note: '' }));
  const [error, setError] = useState<EntryError | null>(null);
  const [status, setStatus] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const read = readDraft(draft);
    if (!read.ok) {
      setError(read.error);
      return;
    }
    setError(null);
    log.mutate(read.value, {
      onSuccess: (entry) => {
        setDraft((d) => ({ ...d, duration: '', note: '' }));
        setStatus(`Logged ${formatDuration(entry.minutes)}`);
      },
      onError: (err) => {
        logError('Failed to log time', err);
        setError(entryError(err, 'The time could not be logged'));
      },
    });
  };
  return (
    <form onSubmit={submit} aria-labelledby={headingId} className="space-y-2" noValidate>
      <h4 id={headingId} className="text-sm font-semibold text-slate-900 dark:text-slate-100">
        Log time
      </h4>
      <EntryFields draft={draft} onChange={setDraft} error={error} durationRef={durationRef} />
      <Button type="submit" variant="secondary" size="sm" isLoading={log.isPending}>
        Log time
      </Button>
      <p role="status" className="sr-only">
        {status}
      </p>
    </form>
  );
}

const byNewest = (a: TimeEntryDto, b: TimeEntryDto) => b.date.localeCompare(a.date) || b.createdAt.localeCompare(a.createdAt);

/**
 * The task's entries, newest day first. Focus is never dropped on the page: an edit form takes it to its duration and
 * gives it back to the entry's Edit button when it closes; a deleted entry's button hands it to 'Log time'.
 */
function EntryList({
  taskId,
  role,
  afterDelete,
}: {
  taskId: string;
  role: Parameters<typeof canEditTimeEntry>[0];
  afterDelete: RefObject<HTMLInputElement | null>;
}) {
  const userId = useAuthStore((s) => s.user?.id) ?? '';
  const { data, isPending, isError: failed, refetch } = useTaskTimeEntries(taskId);
  const remove = useDeleteTimeEntry();
  const [editing, setEditing] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  const listRef = useRef<HTMLUListElement>(null);
  // The entry whose edit form just closed: its Edit button (rendered again in the form's place) takes focus back.
  const [refocus, setRefocus] = useState<string | null>(null);
  useEffect(() => {
    if (refocus === null || editing !== null) return;
    listRef.current?.querySelector<HTMLButtonElement>(`[data-entry-id="${refocus}"] [data-entry-edit]`)?.focus();
    setRefocus(null);
  }, [refocus, editing]);
  if (isPending) {
    return (
      <p role="status" className="text-sm text-slate-600 dark:text-slate-300">
        Loading time entries…
      </p>
    );
  }
  if (failed) {
    return (
      <div className="flex items-center gap-3 text-sm text-slate-700 dark:text-slate-200">
        <p>Could not load the time entries.</p>
        <Button variant="secondary" size="sm" onClick={() => void refetch()}>
          Retry
        </Button>
      </div>
    );
  }
  const entries = [...data].sort(byNewest);
  return (
    <div className="space-y-1">
      {entries.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-300">No time logged yet.</p>
      ) : (
        <ul
          ref={listRef}
          aria-label="Time entries"
          className="divide-y divide-slate-200 dark:divide-slate-700"
          data-testid="time-entries"
        >
          {entries.map((entry) =>
            editing === entry.id ? (
              <li key={entry.id} className="py-2">
                <EntryEditForm
                  entry={entry}
                  onDone={(message) => {
                    setEditing(null);
                    setRefocus(entry.id);
                    if (message) setStatus(message);
                  }}
                />
              </li>
            ) : (
              <EntryRow
                key={entry.id}
                entry={entry}
                canEdit={canEditTimeEntry(role, userId, entry)}
                onEdit={() => setEditing(entry.id)}
                onDelete={() =>
                  remove.mutate(entry.id, {
                    onSuccess: () => {
                      setStatus(`Deleted the entry of ${formatDuration(entry.minutes)}`);
                      afterDelete.current?.focus();
                    },
                  })
                }
              />
            ),
          )}
        </ul>
      )}
      <p role="status" className="sr-only">
        {status}
      </p>
    </div>
  );
}

function EntryRow({
  entry,
  canEdit,
  onEdit,
  onDelete,
}: {
  entry: TimeEntryDto;
  canEdit: boolean;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const duration = formatDuration(entry.minutes);
  const day = formatLongDate(entry.date);
  const name = `${duration} on ${day} by ${entry.userName}`;
  return (
    <li className="flex items-start gap-2 py-2" data-testid="time-entry" data-entry-id={entry.id}>
      <div className="min-w-0 flex-1 text-sm">
        <p className="flex flex-wrap items-baseline gap-x-2 text-slate-800 dark:text-slate-100">
          <span className="font-semibold tabular-nums">{duration}</span>
          <span className="font-medium">{entry.userName}</span>
          <time dateTime={entry.date} className="text-slate-600 dark:text-slate-300">
            {day}
          </time>
        </p>
        {entry.note && <p className="break-words text-slate-700 dark:text-slate-200">{entry.note}</p>}
      </div>
      {canEdit && (
        <div className="flex shrink-0 items-center">
          <RowIconButton label={`Edit entry: ${name}`} hint="Edit" onClick={onEdit} data-entry-edit="">
            <Pencil className="h-3.5 w-3.5" aria-hidden />
          </RowIconButton>
          <RowIconButton label={`Delete entry: ${name}`} hint="Delete" onClick={onDelete}>
            <Trash2 className="h-3.5 w-3.5" aria-hidden />
          </RowIconButton>
        </div>
      )}
    </li>
  );
}

/**
 * An entry edited in place: Save sends what changed (PATCH /api/time-entries/:id), Cancel or Escape leaves it (Escape
 * leaves the edit, not the task's dialog).
 */
function EntryEditForm({ entry, onDone }: { entry: TimeEntryDto; onDone: (status?: string) => void }) {
  const update = useUpdateTimeEntry();
  const formRef = useRef<HTMLFormElement>(null);
  const [draft, setDraft] = useState<EntryDraft>({
    duration: formatDuration(entry.minutes),
    date: entry.date,
    note: entry.note ?? '',
  });
  const [error, setError] = useState<EntryError | null>(null);
  // The dialog listens for Escape on the document in the capture phase: this listens before it, on the window.
  const onDoneRef = useRef(onDone);
  onDoneRef.current = onDone;
  useEffect(() => {
    const onKeyDown = (e: globalThis.KeyboardEvent) => {
      if (e.key !== 'Escape' || !(e.target instanceof Node) || !formRef.current?.contains(e.target)) return;
      e.stopPropagation();
      e.preventDefault();
      onDoneRef.current();
    };
    window.addEventListener('keydown', onKeyDown, { capture: true });
    return () => window.removeEventListener('keydown', onKeyDown, { capture: true });
  }, []);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const read = readDraft(draft);
    if (!read.ok) {
      setError(read.error);
      return;
    }
    update.mutate(
      { id: entry.id, patch: read.value },
      {
        onSuccess: (saved) => onDone(`Saved the entry of ${formatDuration(saved.minutes)}`),
        onError: (err) => {
          logError('Failed to save a time entry', err);
          setError(entryError(err, 'The entry could not be saved'));
        },
      },
    );
  };
  return (
    <form ref={formRef} onSubmit={submit} aria-label="Edit time entry" className="space-y-2" noValidate>
      <EntryFields draft={draft} onChange={setDraft} error={error} autoFocus />
      <div className="flex gap-2">
        <Button type="submit" size="sm" isLoading={update.isPending}>
          Save
        </Button>
        <Button variant="secondary" size="sm" onClick={() => onDone()}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
