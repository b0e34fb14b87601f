import { GripVertical } from 'lucide-react';
import { type PointerEvent, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import type { TimelineTask } from '../../../../domain/schemas/timeline';
import { Button } from '../../../components/ui/button';
import { dayLabel } from '../timeline-layout';

export interface UnscheduledListProps {
  tasks: readonly TimelineTask[];
  total: number;
  today: string;
  /** The day under a point of the chart, or null outside it. */
  dayAtPoint: (clientX: number, clientY: number) => string | null;
  /** Gives the task `day` as its start and due date. */
  onSchedule: (task: TimelineTask, day: string) => void;
}

interface Carried {
  task: TimelineTask;
  x: number;
  y: number;
  day: string | null;
}

/**
 * 'Unscheduled': the open tasks with no dates (the newest 100, and how many more), beside the chart. Each can be
 * dragged onto the chart (the day it is dropped on becomes its start and due date) or, from the keyboard, given today
 * with its 'Schedule' button.
 */
export function UnscheduledList({ tasks, total, today, dayAtPoint, onSchedule }: UnscheduledListProps) {
  const [carried, setCarried] = useState<Carried | null>(null);
  const carrying = useRef<TimelineTask | null>(null);
  const more = total - tasks.length;

  const onPointerDown = (task: TimelineTask) => (e: PointerEvent<HTMLElement>) => {
    if (e.button !== 0 || (e.target as HTMLElement).closest('button')) return;
    e.preventDefault();
    e.currentTarget.setPointerCapture(e.pointerId);
    carrying.current = task;
    setCarried({ task, x: e.clientX, y: e.clientY, day: null });
  };
  const onPointerMove = (e: PointerEvent<HTMLElement>) => {
    const task = carrying.current;
    if (task) setCarried({ task, x: e.clientX, y: e.clientY, day: dayAtPoint(e.clientX, e.clientY) });
  };
  const onPointerUp = (e: PointerEvent<HTMLElement>) => {
    const task = carrying.current;
    carrying.current = null;
    setCarried(null);
    const day = task && dayAtPoint(e.clientX, e.clientY);
    if (task && day) onSchedule(task, day);
  };

  return (
    <section aria-labelledby="timeline-unscheduled" className="min-w-0">
      <h2 id="timeline-unscheduled" className="mb-2 text-base font-semibold">
        Unscheduled
      </h2>
      {tasks.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-300">Every open task has a date.</p>
      ) : (
        <ul aria-label="Unscheduled tasks" className="space-y-1.5 lg:max-h-[calc(100vh-17rem)] lg:overflow-y-auto">
          {tasks.map((task) => (
            <li
              key={task.id}
              onPointerDown={onPointerDown(task)}
              onPointerMove={onPointerMove}
              onPointerUp={onPointerUp}
              onPointerCancel={() => {
                carrying.current = null;
                setCarried(null);
              }}
              className="flex cursor-grab touch-none items-center gap-2 rounded-lg border border-slate-200 bg-white px-2 py-1.5 text-sm dark:border-slate-700 dark:bg-slate-900"
            >
              <GripVertical className="h-4 w-4 shrink-0 text-slate-500 dark:text-slate-400" aria-hidden />
              <span className="min-w-0 flex-1 truncate" title={task.title}>
                {task.title}
              </span>
              <Button variant="secondary" size="sm" aria-label={`Schedule ${task.title}`} onClick={() => onSchedule(task, today)}>
                Schedule
              </Button>
            </li>
          ))}
        </ul>
      )}
      {more > 0 && <p className="mt-2 text-sm text-slate-600 dark:text-slate-300">{more} more</p>}
      {carried &&
        createPortal(
          <div
            aria-hidden
            className="pointer-events-none fixed z-50 max-w-64 truncate rounded-md bg-slate-900 px-2 py-1 text-xs text-white shadow-lg dark:bg-slate-100 dark:text-slate-900"
            style={{ left: carried.x + 12, top: carried.y + 8 }}
          >
            {carried.task.title}
            {carried.day ? ` → ${dayLabel(carried.day, today)}` : ''}
          </div>,
          document.body,
        )}
    </section>
  );
}
