import { type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { formatDuration, parseDuration } from '../../../../domain/durations';
import type { TimeEntryDto } from '../../../../domain/schemas/time';
import { TIME_LIMITS } from '../../../../domain/constants';
import { TIME_MINUTES_INVALID } from '../../../../domain/schemas/time';
import { cn } from '../../../lib/cn';
import { type CellEdit, cellEdit } from '../timesheet-data';
import { TEXT } from '../timesheet-text';

const LIMITS = { max: TIME_LIMITS.entryMinutesMax, invalid: TIME_MINUTES_INVALID, tooLong: TEXT.tooLong };

export interface TimesheetCellProps {
  entries: TimeEntryDto[];
  /** 'Write the report, Monday, Mar 03': the input's accessible name. */
  label: string;
  /** An empty cell takes a new entry (only on the caller's own timesheet: an entry is logged by its author). */
  canCreate: boolean;
  /** The cell's one entry may be changed or deleted (its author, or an owner or admin of its team). */
  canEdit: boolean;
  isToday: boolean;
  /** Carries out an edit; rejects when the server refused it (the cell then shows what it held). */
  onEdit: (edit: Exclude<CellEdit, { kind: 'none' | 'invalid' }>) => Promise<void>;
  onInvalid: (message: string | null) => void;
}

const cellBase = 'h-9 w-full min-w-[4.5rem] rounded-md px-2 text-right text-sm tabular-nums';

/**
 * One day of one task: its minutes as a duration, typed in place ('1h 30m', '90m', '1.5h'); Enter or leaving the field
 * saves (empty deletes), Escape puts back what it held. A day with several entries shows their sum, read-only.
 */
export function TimesheetCell({ entries, label, canCreate, canEdit, isToday, onEdit, onInvalid }: TimesheetCellProps) {
  const total = entries.reduce((n, e) => n + e.minutes, 0);
  const shown = entries.length ? formatDuration(total) : '';
  const [text, setText] = useState(shown);
  const [invalid, setInvalid] = useState(false);
  const [saving, setSaving] = useState(false);
  // Enter then leaving the field commits twice before the entries come back: the second must not log the time again.
  const inFlight = useRef(false);
  const saved = useRef<string | null>(null);
  useEffect(() => {
    setText(shown);
    setInvalid(false);
    saved.current = null;
  }, [shown]);

  if (entries.length > 1) {
    return (
      <span
        className={cn(cellBase, 'flex items-center justify-end text-slate-800 dark:text-slate-100')}
        title={TEXT.severalEntries(entries.length)}
      >
        {shown}
        <span className="sr-only">
          {' '}
          ({label}: {TEXT.severalEntries(entries.length)})
        </span>
      </span>
    );
  }

  const editable = entries.length === 1 ? canEdit : canCreate;
  const commit = async () => {
    if (inFlight.current || text === saved.current) return;
    const edit = cellEdit(entries, text, parseDuration, LIMITS);
    if (edit.kind === 'invalid') {
      setInvalid(true);
      onInvalid(`${label}: ${edit.message}`);
      return;
    }
    setInvalid(false);
    onInvalid(null);
    if (edit.kind === 'none') {
      setText(shown);
      return;
    }
    inFlight.current = true;
    setSaving(true);
    try {
      await onEdit(edit);
      saved.current = text;
    } catch {
      setText(shown);
    } finally {
      inFlight.current = false;
      setSaving(false);
    }
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      void commit();
    } else if (e.key === 'Escape' && text !== shown) {
      e.preventDefault();
      setText(shown);
      setInvalid(false);
      onInvalid(null);
    }
  };

  return (
    <input
      type="text"
      inputMode="text"
      autoComplete="off"
      aria-label={label}
      aria-invalid={invalid || undefined}
      aria-busy={saving || undefined}
      disabled={!editable}
      value={text}
      placeholder={editable ? '–' : ''}
      onChange={(e) => setText(e.target.value)}
      onFocus={(e) => e.currentTarget.select()}
      onBlur={() => void commit()}
      onKeyDown={onKeyDown}
      className={cn(
        cellBase,
        'border border-transparent bg-transparent text-slate-900 placeholder:text-slate-500 hover:border-slate-300',
        'focus-visible:border-brand-600 focus-visible:bg-white focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-brand-600',
        'dark:text-slate-100 dark:placeholder:text-slate-400 dark:hover:border-slate-600 dark:focus-visible:bg-slate-900',
        'disabled:cursor-default disabled:hover:border-transparent',
        'aria-[invalid=true]:border-red-600 dark:aria-[invalid=true]:border-red-400',
        isToday && 'font-medium',
        saving && 'opacity-60',
      )}
    />
  );
}
