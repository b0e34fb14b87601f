import { describe, expect, it } from 'vitest';
import type { TimelineTask } from '../../../domain/schemas/timeline';
import {
  barName,
  buildRows,
  dayAtX,
  dayX,
  earlyStarts,
  headerCells,
  keepOrder,
  rangeText,
  shiftDates,
  timelineWindow,
  visibleRange,
} from './timeline-layout';

const P1 = '00000000-0000-4000-8000-000000000001';
const P2 = '00000000-0000-4000-8000-000000000002';
let n = 0;
const task = (over: Partial<TimelineTask> = {}): TimelineTask => {
  n += 1;
  return {
    id: `10000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    title: `Task ${n}`,
    projectId: P1,
    parentId: null,
    startDate: '2026-12-03',
    dueDate: '2026-12-07',
    status: 'todo',
    statusCategory: 'unstarted',
    priority: 'medium',
    assigneeId: null,
    version: 1,
    ...over,
  };
};
const projects = [
  { id: P1, name: 'Apollo' },
  { id: P2, name: 'Zephyr' },
];

describe('timelineWindow', () => {
  it('draws six weeks at Week, four months at Month, a year at Quarter, each within the route’s 400 days', () => {
    const week = timelineWindow('week', '2026-12-03', 1);
    expect([week.from, week.to]).toEqual(['2026-11-23', '2027-01-03']);
    expect(week.width).toBe(42 * 44);
    const month = timelineWindow('month', '2026-12-03', 1);
    expect([month.from, month.to, month.title]).toEqual(['2026-11-01', '2027-02-28', 'Nov 2026 – Feb 2027']);
    const quarter = timelineWindow('quarter', '2026-12-03', 1);
    expect([quarter.from, quarter.to]).toEqual(['2026-07-01', '2027-06-30']);
  });

  it('puts a day at its x and finds it back', () => {
    const w = timelineWindow('week', '2026-12-03', 1);
    expect(dayX(w, '2026-11-23')).toBe(0);
    expect(dayX(w, '2026-11-26')).toBe(3 * 44);
    expect(dayAtX(w, 3 * 44 + 43)).toBe('2026-11-26');
    expect(dayAtX(w, 4 * 44)).toBe('2026-11-27');
  });

  it('heads the Quarter zoom with quarters over months', () => {
    const { top, bottom } = headerCells(timelineWindow('quarter', '2026-12-03', 1), 1);
    expect(top.map((c) => c.label)).toEqual(['Q3 2026', 'Q4 2026', 'Q1 2027', 'Q2 2027']);
    expect(bottom).toHaveLength(12);
    expect(bottom[0]).toMatchObject({ label: 'Jul', x: 0, width: 31 * 4 });
  });
});

describe('buildRows', () => {
  it('groups by project, puts sub-tasks under their parent, and hides what a collapsed row holds', () => {
    const parent = task({ title: 'Parent' });
    const child = task({ title: 'Child', parentId: parent.id });
    const grandchild = task({ title: 'Grandchild', parentId: child.id });
    const other = task({ title: 'Other', projectId: P2 });
    // A sub-task whose parent is outside the window stands at the top level.
    const orphan = task({ title: 'Orphan', parentId: '20000000-0000-4000-8000-000000000000' });
    const tasks = [parent, child, grandchild, orphan, other];
    const names = (collapsed: string[]) =>
      buildRows(tasks, projects, new Set(collapsed)).map((r) =>
        r.kind === 'project' ? `# ${r.project.name} (${r.count})` : `${'-'.repeat(r.depth)}${r.task.title}`,
      );
    expect(names([])).toEqual(['# Apollo (4)', 'Parent', '-Child', '--Grandchild', 'Orphan', '# Zephyr (1)', 'Other']);
    expect(names([child.id])).toEqual(['# Apollo (4)', 'Parent', '-Child', 'Orphan', '# Zephyr (1)', 'Other']);
    expect(names([P1])).toEqual(['# Apollo (4)', '# Zephyr (1)', 'Other']);
  });
});

describe('earlyStarts', () => {
  it('marks a task that starts on or before its blocker’s last day, and not one that starts after', () => {
    const blocker = task({ title: 'Blocker', startDate: '2026-12-01', dueDate: '2026-12-05' });
    const early = task({ startDate: '2026-12-05', dueDate: '2026-12-09' });
    const late = task({ startDate: '2026-12-06', dueDate: '2026-12-09' });
    const diamond = task({ startDate: null, dueDate: '2026-12-04' });
    const marks = earlyStarts(
      [blocker, early, late, diamond],
      [early, late, diamond].map((t) => ({ taskId: t.id, blockedById: blocker.id })),
    );
    expect([...marks.keys()]).toEqual([early.id, diamond.id]);
    expect(marks.get(early.id)).toEqual(['Blocker']);
  });
});

describe('shiftDates and the words', () => {
  it('moves both dates, or one end, and refuses an end past the other', () => {
    const t = { startDate: '2026-12-03', dueDate: '2026-12-07' };
    expect(shiftDates(t, 'move', 3)).toEqual({ startDate: '2026-12-06', dueDate: '2026-12-10' });
    expect(shiftDates(t, 'end', -4)).toEqual({ startDate: '2026-12-03', dueDate: '2026-12-03' });
    expect(shiftDates(t, 'end', -5)).toBeNull();
    expect(shiftDates(t, 'start', 5)).toBeNull();
    // A diamond moves its one date; its end stretched makes a bar from its day.
    expect(shiftDates({ startDate: null, dueDate: '2026-12-07' }, 'move', -1)).toEqual({
      startDate: null,
      dueDate: '2026-12-06',
    });
    expect(shiftDates({ startDate: null, dueDate: '2026-12-07' }, 'end', 2)).toEqual({
      startDate: '2026-12-07',
      dueDate: '2026-12-09',
    });
  });

  it('names a bar as the issue’s example does, with the year only when it is not this one', () => {
    const t = task({ title: 'Write spec', startDate: '2026-12-03', dueDate: '2026-12-07' });
    expect(barName(t, '2026-11-28', false)).toBe('Write spec, 3 Dec to 7 Dec');
    expect(barName(t, '2027-01-02', true)).toBe('Write spec, 3 Dec 2026 to 7 Dec 2026, starts before its blocker ends');
    expect(barName({ ...t, startDate: null }, '2026-11-28', false)).toBe('Write spec, due 7 Dec');
    expect(rangeText('2026-12-06', '2026-12-10', '2026-11-28')).toBe('6 Dec – 10 Dec');
  });
});

describe('keepOrder and visibleRange', () => {
  it('keeps the rows where they were and puts a new task after the one the answer puts before it', () => {
    const [a, b, c, d] = [task(), task(), task(), task()];
    expect(keepOrder([a.id, b.id, c.id], [b, a, d, c]).map((t) => t.id)).toEqual([a.id, d.id, b.id, c.id]);
    expect(keepOrder([], [b, a]).map((t) => t.id)).toEqual([b.id, a.id]);
  });

  it('draws the rows in view and the overscan around them', () => {
    expect(visibleRange(0, 360, 36, 2000, 5)).toEqual({ start: 0, end: 15 });
    expect(visibleRange(36_000, 360, 36, 2000, 5)).toEqual({ start: 995, end: 1015 });
    expect(visibleRange(71_900, 360, 36, 2000, 5)).toEqual({ start: 1992, end: 2000 });
  });
});
