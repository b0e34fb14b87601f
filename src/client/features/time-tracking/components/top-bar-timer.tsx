import { Square, Timer } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { formatElapsed } from '../../../../domain/durations';
import { useElapsedSeconds, useStopTimer, useTimer } from '../../../lib/queries/time';

/**
 * The caller's running timer in the top bar (issue 39): the elapsed time, ticking each second, and the task's title,
 * a link to the task, and a stop button. Read from GET /api/me/timer, so it is there after a reload and on another
 * device (the realtime `timer.changed` refreshes it). Nothing shows while no timer runs. At 390 px the title gives
 * way, and the icon: the elapsed time and the stop button stay, the search keeps the most room it can.
 *
 * Stopped from here, the timer goes and its focused button with it: focus moves on to the top bar's next control (as if
 * the button had been tabbed past) instead of falling to the page's start.
 */
export function TopBarTimer() {
  const { data: timer } = useTimer();
  const stop = useStopTimer();
  const elapsed = formatElapsed(useElapsedSeconds(timer?.startedAt));
  const sectionRef = useRef<HTMLElement>(null);
  const refocus = useRef<HTMLElement | null>(null);
  useEffect(() => {
    if (timer || !refocus.current) return;
    // Unless the person has moved on meanwhile (focus is somewhere, not lost with the removed button).
    const active = document.activeElement;
    if (!active || active === document.body) refocus.current.focus();
    refocus.current = null;
  }, [timer]);
  if (!timer) return null;
  const onStop = () => {
    // Under way: the click is refused (aria-disabled) rather than the button disabled, which would drop its focus.
    if (stop.isPending) return;
    const section = sectionRef.current;
    refocus.current = section?.contains(document.activeElement) ? nextFocusable(section) : null;
    stop.mutate(undefined, {
      onError: () => {
        refocus.current = null;
      },
    });
  };
  const taskLink = `/tasks/${encodeURIComponent(timer.taskId)}?project=${encodeURIComponent(timer.projectId)}`;
  return (
    <section
      ref={sectionRef}
      aria-label="Running timer"
      className="flex min-w-0 shrink items-center rounded-lg border border-brand-600/40 bg-brand-50 text-brand-700 dark:border-indigo-400/40 dark:bg-indigo-950 dark:text-indigo-100"
      data-testid="top-bar-timer"
    >
      <Link
        to={taskLink}
        className="flex min-w-0 items-center gap-1.5 rounded-l-lg py-1.5 pl-2 pr-1.5 text-sm hover:bg-brand-100 dark:hover:bg-indigo-900"
        title={`Timer running on ${timer.taskTitle}`}
      >
        <Timer className="hidden h-4 w-4 shrink-0 sm:block" aria-hidden />
        <span className="sr-only">Timer running on {timer.taskTitle}: </span>
        <span className="font-semibold tabular-nums" data-testid="top-bar-timer-elapsed">
          {elapsed}
        </span>
        <span aria-hidden className="hidden max-w-40 truncate md:inline">
          {timer.taskTitle}
        </span>
      </Link>
      <button
        type="button"
        onClick={onStop}
        aria-disabled={stop.isPending || undefined}
        aria-label={`Stop timer on ${timer.taskTitle}`}
        title="Stop timer"
        className="flex h-8 w-8 shrink-0 items-center justify-center rounded-r-lg border-l border-brand-600/30 hover:bg-brand-100 aria-disabled:opacity-60 dark:border-indigo-400/30 dark:hover:bg-indigo-900"
      >
        <Square className="h-3.5 w-3.5 fill-current" aria-hidden />
      </button>
    </section>
  );
}

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** The first control after `section` in its header (else the last before it): where focus goes when it is removed. */
function nextFocusable(section: HTMLElement): HTMLElement | null {
  const bar = section.closest('header') ?? document.body;
  const all = [...bar.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => !section.contains(el));
  const after = all.find((el) => section.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING);
  return after ?? all.at(-1) ?? null;
}
