/**
 * Tasks with a start and a later due date span their days on the calendar (issue 37): a bar per week row they touch,
 * continued across rows. Pure, so the layout is tested without a browser.
 */
import { compareDayTasks } from '../../../../domain/calendar';
import type { StatusCategory } from '../../../../domain/workflow';

export interface SpanTask {
  id: string;
  title: string;
  statusCategory: StatusCategory;
  priority: string;
  startDate: string | null;
  dueDate: string | null;
}

/** A task drawn as a bar: both dates, the start before the due day (a one-day task stays a chip on its day). */
export const spansDays = (t: Pick<SpanTask, 'startDate' | 'dueDate'>): boolean =>
  t.startDate !== null && t.dueDate !== null && t.startDate < t.dueDate;

export interface SpanSegment<T> {
  task: T;
  /** The column (0–6) the bar starts in, and how many days of the row it covers. */
  column: number;
  length: number;
  /** Its line among the row's bars (0 on top). */
  lane: number;
  /** The task goes on before this row's first day / after its last day (the bar's end is drawn open). */
  continuesBefore: boolean;
  continuesAfter: boolean;
  /** The first of the task's bars shown: the one a keyboard reaches (the others repeat it for the eye). */
  isFirst: boolean;
}

export interface WeekSpans<T> {
  /** Bars within `maxLanes`, in lane order. */
  segments: SpanSegment<T>[];
  /** Lines the row's bars take (at most `maxLanes`). */
  lanes: number;
  /** Per column, the spanning tasks that did not fit in `maxLanes` (told by the day's '+N more'). */
  hidden: T[][];
}

/**
 * Each week row's bars: every spanning task overlapping the row, cut to it, laid in lanes (earliest start first, then
 * longer first, then the day order), a lane per bar that fits beside the others; past `maxLanes`, left out of the row.
 */
export function layoutSpans<T extends SpanTask>(
  tasks: readonly T[],
  weeks: readonly string[][],
  maxLanes: number,
): WeekSpans<T>[] {
  const spanning = tasks.filter(spansDays);
  const shown = new Set<string>();
  return weeks.map((week) => {
    const first = week[0]!;
    const last = week[week.length - 1]!;
    const cut = spanning
      .filter((t) => t.startDate! <= last && t.dueDate! >= first)
      .map((task) => {
        const from = task.startDate! < first ? first : task.startDate!;
        const to = task.dueDate! > last ? last : task.dueDate!;
        const column = week.indexOf(from);
        return { task, column, length: week.indexOf(to) - column + 1, from, to };
      })
      .sort((a, b) => a.column - b.column || b.length - a.length || compareDayTasks(a.task, b.task));
    const laneEnds: number[] = [];
    const segments: SpanSegment<T>[] = [];
    const hidden: T[][] = week.map(() => []);
    for (const s of cut) {
      let lane = laneEnds.findIndex((end) => end < s.column);
      if (lane < 0) lane = laneEnds.length;
      if (lane >= maxLanes) {
        for (let c = s.column; c < s.column + s.length; c++) hidden[c]!.push(s.task);
        continue;
      }
      laneEnds[lane] = s.column + s.length - 1;
      segments.push({
        task: s.task,
        column: s.column,
        length: s.length,
        lane,
        continuesBefore: s.task.startDate! < first,
        continuesAfter: s.task.dueDate! > last,
        isFirst: !shown.has(s.task.id),
      });
      shown.add(s.task.id);
    }
    return { segments: segments.sort((a, b) => a.lane - b.lane || a.column - b.column), lanes: laneEnds.length, hidden };
  });
}

/** The day a spanning task is listed under in the agenda (its first shown day); others by their due day. */
export const agendaDayOf = (t: Pick<SpanTask, 'startDate' | 'dueDate'>, from: string): string | null =>
  spansDays(t) ? (t.startDate! < from ? from : t.startDate) : t.dueDate;

/**
 * The dates a chip dropped on `dueDate` gets: a one-day task (its start on its due day) takes its start along; any
 * other start stays, unless the new due day comes before it (the start then comes to that day: start ≤ due).
 */
export function movedDates(
  task: Pick<SpanTask, 'startDate' | 'dueDate'>,
  dueDate: string,
): { dueDate: string; startDate?: string } {
  if (task.startDate === null) return { dueDate };
  if (task.startDate === task.dueDate || task.startDate > dueDate) return { dueDate, startDate: dueDate };
  return { dueDate };
}
