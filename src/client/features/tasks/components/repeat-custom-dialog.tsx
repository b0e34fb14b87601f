import { type FormEvent, useId, useState } from 'react';
import { describeRepeat, REPEAT_FREQUENCIES, RRULE_WEEKDAY_NAMES, RRULE_WEEKDAYS } from '../../../../domain/recurrence';
import { Button } from '../../../components/ui/button';
import { inputClass } from '../../../components/ui/field';
import { Modal } from '../../../components/ui/modal';
import { cn } from '../../../lib/cn';
import {
  buildCustomRule,
  type CustomRepeatField,
  type CustomRepeatState,
  customStateOf,
  FREQUENCY_UNITS,
  REPEAT_END_LABELS,
  REPEAT_ENDS,
} from '../repeat-choice';

export interface RepeatCustomDialogProps {
  open: boolean;
  /** What the task's dates start at (its due date, else today): the weekday and day of the month the rule defaults to. */
  anchor: string;
  /** The rule being changed, if any. */
  rule: string | null;
  onCancel: () => void;
  onDone: (rule: string) => void;
}

/**
 * 'Custom…' (issue 39): every N days, weeks, months or years; on chosen weekdays (weeks); ends never, on a date or after
 * N times. What the rule will say shows as it is built; Done checks the fields (repeat-choice.ts) and hands the rule on.
 */
export function RepeatCustomDialog({ open, anchor, rule, onCancel, onDone }: RepeatCustomDialogProps) {
  return (
    <Modal open={open} onClose={onCancel} title="Custom repeat" size="sm" footer={null}>
      {/* Mounted per opening: the fields start again from the rule each time. */}
      {open && <CustomRepeatForm anchor={anchor} rule={rule} onCancel={onCancel} onDone={onDone} />}
    </Modal>
  );
}

/** The form's inputs fill their row; these sit in a sentence ('Repeat every [2] [weeks]'). */
const inlineInput = inputClass.replace('block w-full', 'inline-block');
const numberInput = cn(inlineInput, 'w-20');

function CustomRepeatForm({ anchor, rule, onCancel, onDone }: Omit<RepeatCustomDialogProps, 'open'>) {
  const id = useId();
  const [state, setState] = useState<CustomRepeatState>(() => customStateOf(rule, anchor));
  const [errors, setErrors] = useState<Partial<Record<CustomRepeatField, string>>>({});
  const set = <K extends keyof CustomRepeatState>(key: K, value: CustomRepeatState[K]) => {
    setState((s) => ({ ...s, [key]: value }));
    setErrors({});
  };
  const built = buildCustomRule(state, anchor);
  const plural = state.interval.trim() !== '1';

  const submit = (e: FormEvent) => {
    e.preventDefault();
    // The dialog is portalled out of the task form in the page, not out of React's tree: its submit must not reach it.
    e.stopPropagation();
    if (built.ok) onDone(built.rule);
    else setErrors(built.errors);
  };
  const errorOf = (field: CustomRepeatField) =>
    errors[field] ? (
      <p id={`${id}-${field}-error`} className="text-sm text-red-700 dark:text-red-400">
        {errors[field]}
      </p>
    ) : null;
  const describedBy = (field: CustomRepeatField) => (errors[field] ? `${id}-${field}-error` : undefined);

  return (
    <form noValidate onSubmit={submit} className="space-y-4" aria-label="Custom repeat">
      <div className="space-y-1">
        <div className="flex flex-wrap items-center gap-2 text-sm text-slate-700 dark:text-slate-200">
          <label htmlFor={`${id}-interval`}>Repeat every</label>
          <input
            id={`${id}-interval`}
            type="number"
            inputMode="numeric"
            min={1}
            className={numberInput}
            value={state.interval}
            aria-invalid={Boolean(errors.interval) || undefined}
            aria-describedby={describedBy('interval')}
            onChange={(e) => set('interval', e.target.value)}
          />
          <label htmlFor={`${id}-unit`} className="sr-only">
            Unit
          </label>
          <select
            id={`${id}-unit`}
            className={cn(inlineInput, 'w-auto')}
            value={state.freq}
            onChange={(e) => set('freq', e.target.value as CustomRepeatState['freq'])}
          >
            {REPEAT_FREQUENCIES.map((f) => (
              <option key={f} value={f}>
                {plural ? FREQUENCY_UNITS[f].many : FREQUENCY_UNITS[f].one}
              </option>
            ))}
          </select>
        </div>
        {errorOf('interval')}
      </div>

      {state.freq === 'WEEKLY' && (
        <fieldset className="space-y-1" aria-describedby={describedBy('byDay')}>
          <legend className="mb-1 text-sm font-medium text-slate-700 dark:text-slate-200">On</legend>
          <div className="flex flex-wrap gap-1">
            {RRULE_WEEKDAYS.map((day) => {
              const checked = state.byDay.includes(day);
              return (
                <label
                  key={day}
                  title={RRULE_WEEKDAY_NAMES[day]}
                  className={cn(
                    'relative inline-flex h-10 w-10 cursor-pointer items-center justify-center rounded-full border text-sm font-medium has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-600',
                    checked
                      ? 'border-brand-600 bg-brand-600 text-white'
                      : 'border-slate-300 bg-white text-slate-800 hover:bg-slate-100 dark:border-slate-600 dark:bg-slate-800 dark:text-slate-100 dark:hover:bg-slate-700',
                  )}
                >
                  <input
                    type="checkbox"
                    className="sr-only"
                    checked={checked}
                    onChange={() => set('byDay', checked ? state.byDay.filter((d) => d !== day) : [...state.byDay, day])}
                  />
                  <span aria-hidden>{RRULE_WEEKDAY_NAMES[day].slice(0, 3)}</span>
                  <span className="sr-only">{RRULE_WEEKDAY_NAMES[day]}</span>
                </label>
              );
            })}
          </div>
          {errorOf('byDay')}
        </fieldset>
      )}
      {state.freq === 'MONTHLY' && (
        <p className="text-sm text-slate-600 dark:text-slate-300">
          On day {Number(anchor.slice(8, 10))}
          {Number(anchor.slice(8, 10)) > 28 ? ', or the last day of a shorter month' : ''}.
        </p>
      )}

      <fieldset className="space-y-2">
        <legend className="mb-1 text-sm font-medium text-slate-700 dark:text-slate-200">Ends</legend>
        {REPEAT_ENDS.map((end) => (
          <div key={end} className="flex flex-wrap items-center gap-2 text-sm text-slate-700 dark:text-slate-200">
            <input
              id={`${id}-end-${end}`}
              type="radio"
              name={`${id}-end`}
              className="h-4 w-4 accent-brand-600"
              checked={state.end === end}
              onChange={() => set('end', end)}
            />
            <label htmlFor={`${id}-end-${end}`} className="min-w-12">
              {REPEAT_END_LABELS[end]}
            </label>
            {end === 'on' && (
              <input
                type="date"
                aria-label="End date"
                className={cn(inlineInput, 'w-auto dark:[color-scheme:dark]')}
                value={state.until}
                disabled={state.end !== 'on'}
                aria-invalid={Boolean(errors.until) || undefined}
                aria-describedby={describedBy('until')}
                onChange={(e) => set('until', e.target.value)}
              />
            )}
            {end === 'after' && (
              <>
                <input
                  type="number"
                  inputMode="numeric"
                  min={1}
                  aria-label="Number of times"
                  className={numberInput}
                  value={state.count}
                  disabled={state.end !== 'after'}
                  aria-invalid={Boolean(errors.count) || undefined}
                  aria-describedby={describedBy('count')}
                  onChange={(e) => set('count', e.target.value)}
                />
                <span>times</span>
              </>
            )}
          </div>
        ))}
        {errorOf('until')}
        {errorOf('count')}
      </fieldset>

      <p
        className="rounded-lg bg-slate-100 px-3 py-2 text-sm text-slate-800 dark:bg-slate-800 dark:text-slate-100"
        aria-live="polite"
      >
        {built.ok ? describeRepeat(built.rule) : 'Fix the fields above to see the rule.'}
      </p>

      <div className="flex justify-end gap-2 border-t border-slate-200 pt-3 dark:border-slate-700">
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit">Done</Button>
      </div>
    </form>
  );
}
