import { useQueryClient } from '@tanstack/react-query';
import { Repeat } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { shortDayLabel } from '../../../../../domain/calendar';
import { REPEAT_MODE_LABELS } from '../../../../../domain/constants';
import { describeRepeat } from '../../../../../domain/recurrence';
import type { RepeatInput } from '../../../../../domain/schemas/repeat';
import type { TaskDto } from '../../../../../domain/schemas/task';
import { localTimeZone } from '../../../../../domain/schemas/time-zone';
import { Button } from '../../../../components/ui/button';
import { errorText, isError, logError } from '../../../../lib/errors';
import { useTask } from '../../api/get-task';
import { invalidateTasks } from '../../api/prefetch-board';
import { updateTask } from '../../api/save-task';
import { taskDetailKeys } from '../../api/task-detail-keys';
import { choiceOf, type RepeatChoice, repeatAnchor, repeatInputOf, sameRepeat } from '../../repeat-choice';
import { RepeatPicker } from '../repeat-picker';

/** The section's texts. */
export const REPEAT_TEXT = {
  stop: 'Stop repeating',
  stopped: 'Stopped repeating',
  saved: 'Repeat saved',
  failed: 'The repeat could not be saved',
  stale: 'Someone else changed this task meanwhile: the repeat was not saved. Try again.',
  noMore: 'No more dates',
  partOfSeries: 'Part of a repeating series.',
} as const;

export interface RepeatSectionProps {
  task: TaskDto;
  /** The repeat saved: the version the save was sent with and the task the server returned (the form's next version). */
  onSaved?: (sentVersion: number, saved: TaskDto) => void;
}

/**
 * The task page's 'Repeat' (issue 39): what the rule says ('Repeats weekly on Monday'), the mode and the next date, with
 * 'Stop repeating'; and the menus to make it repeat or change how, each change saved at once (PATCH /api/tasks/:id
 * with `repeat` and the task's version), as the custom fields are. A task that handed its series on to a newer one says
 * it was part of one.
 */
export function RepeatSection({ task: opened, onSaved }: RepeatSectionProps) {
  const headingId = useId();
  const qc = useQueryClient();
  const task = useTask(opened.id, true).data ?? opened;
  const anchor = repeatAnchor(task.dueDate);
  const saved = choiceOf(task.repeat, anchor);
  const [pending, setPending] = useState<RepeatChoice | null>(null);
  const [error, setError] = useState<string | undefined>();
  const [status, setStatus] = useState('');
  const newest = useRef(0);
  const menus = useRef<HTMLDivElement>(null);
  const refocus = useRef(false);
  // 'Stop repeating' goes with what it stopped: focus moves on to the menu, which now says 'Does not repeat'.
  useEffect(() => {
    if (!refocus.current || task.repeat) return;
    refocus.current = false;
    if (document.activeElement === document.body) menus.current?.querySelector('select')?.focus();
  }, [task.repeat]);

  const send = async (input: RepeatInput | null, shown: RepeatChoice, done: string) => {
    const cached = qc.getQueryData<TaskDto>(taskDetailKeys.task(task.id))?.version ?? task.version;
    const sent = Math.max(cached, newest.current);
    setPending(shown);
    setError(undefined);
    setStatus('Saving…');
    try {
      const answer = await updateTask(task.id, { repeat: input, version: sent });
      newest.current = Math.max(newest.current, answer.version);
      qc.setQueryData(taskDetailKeys.task(task.id), answer);
      onSaved?.(sent, answer);
      setStatus(done);
      refocus.current = input === null;
    } catch (failure) {
      logError(REPEAT_TEXT.failed, failure);
      setError(isError(failure, 'stale_edit') ? REPEAT_TEXT.stale : errorText(failure, REPEAT_TEXT.failed));
      setStatus('');
    } finally {
      setPending(null);
      void invalidateTasks(qc);
    }
  };

  const change = (choice: RepeatChoice) => {
    // One save at a time: a change while one is under way is not taken (the menus show the one being saved).
    if (pending || sameRepeat(choice, saved, anchor)) return;
    // A series keeps the zone it was made in; a new one takes this browser's.
    const input = repeatInputOf(choice, anchor, task.repeat?.timezone ?? localTimeZone());
    void send(input, choice, input ? REPEAT_TEXT.saved : REPEAT_TEXT.stopped);
  };
  const stop = () => {
    if (!pending) void send(null, choiceOf(null, anchor), REPEAT_TEXT.stopped);
  };

  const repeat = task.repeat;
  return (
    <section aria-labelledby={headingId} className="space-y-3" data-testid="repeat-section">
      <h3 id={headingId} className="text-base font-semibold text-slate-900 dark:text-slate-100">
        Repeat
      </h3>
      {repeat ? (
        <div className="flex flex-wrap items-start justify-between gap-3 rounded-lg border border-slate-200 px-3 py-2 dark:border-slate-700">
          <div className="flex min-w-0 items-start gap-2">
            <Repeat className="mt-0.5 h-4 w-4 shrink-0 text-brand-700 dark:text-brand-100" aria-hidden />
            <div className="min-w-0 text-sm">
              <p className="font-medium text-slate-900 dark:text-slate-100" data-testid="repeat-summary">
                {describeRepeat(repeat.rule)}
              </p>
              <p className="text-slate-600 dark:text-slate-300">
                {REPEAT_MODE_LABELS[repeat.mode]} ·{' '}
                {repeat.nextDate ? (
                  <span data-testid="repeat-next">
                    Next: <time dateTime={repeat.nextDate}>{shortDayLabel(repeat.nextDate)}</time>
                  </span>
                ) : (
                  REPEAT_TEXT.noMore
                )}
              </p>
            </div>
          </div>
          <Button variant="secondary" size="sm" onClick={stop} aria-busy={pending?.preset === 'none' || undefined}>
            {REPEAT_TEXT.stop}
          </Button>
        </div>
      ) : (
        task.seriesId && <p className="text-sm text-slate-600 dark:text-slate-300">{REPEAT_TEXT.partOfSeries}</p>
      )}
      <div ref={menus} className="grid gap-3 sm:grid-cols-2">
        <RepeatPicker value={pending ?? saved} anchor={anchor} onChange={change} error={error} />
      </div>
      <p role="status" className="sr-only">
        {status}
      </p>
    </section>
  );
}
