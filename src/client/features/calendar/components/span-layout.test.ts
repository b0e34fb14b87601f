import { describe, expect, it } from 'vitest';
import { calendarRange } from '../../../../domain/calendar';
import { agendaDayOf, layoutSpans, movedDates, spansDays } from './span-layout';

const task = (id: string, startDate: string | null, dueDate: string | null, priority = 'medium') => ({
  id,
  title: id,
  statusCategory: 'unstarted' as const,
  priority,
  startDate,
  dueDate,
});

// November 2026 from Monday: Oct 26 – Dec 6, six rows.
const { weeks } = calendarRange('month', '2026-11-15', 1);

describe('spansDays', () => {
  it('is a bar only with both dates and the start before the due day', () => {
    expect(spansDays(task('a', '2026-11-02', '2026-11-04'))).toBe(true);
    expect(spansDays(task('b', '2026-11-04', '2026-11-04'))).toBe(false);
    expect(spansDays(task('c', null, '2026-11-04'))).toBe(false);
    expect(spansDays(task('d', '2026-11-04', null))).toBe(false);
  });
});

describe('layoutSpans', () => {
  it('cuts a span at each row it crosses, open where it goes on, the first bar the one a keyboard reaches', () => {
    // Wed Nov 4 to Tue Nov 17: rows 2 (Nov 2–8), 3 (Nov 9–15) and 4 (Nov 16–22).
    const rows = layoutSpans([task('a', '2026-11-04', '2026-11-17')], weeks, 2);
    const bars = rows.map((r) => r.segments.map((s) => [s.column, s.length, s.continuesBefore, s.continuesAfter, s.isFirst]));
    expect(bars).toEqual([[], [[2, 5, false, true, true]], [[0, 7, true, true, false]], [[0, 2, true, false, false]], [], []]);
  });

  it('clips a span that starts before the shown days, and ignores chips (one day, no start)', () => {
    const rows = layoutSpans(
      [task('early', '2026-10-01', '2026-10-27'), task('one', '2026-11-04', '2026-11-04'), task('due', null, '2026-11-04')],
      weeks,
      2,
    );
    expect(rows[0]!.segments.map((s) => [s.task.id, s.column, s.length, s.continuesBefore, s.isFirst])).toEqual([
      ['early', 0, 2, true, true],
    ]);
    expect(rows.slice(1).every((r) => r.segments.length === 0)).toBe(true);
  });

  it('lays overlapping bars in lanes, reuses a free lane, and leaves what does not fit to the days', () => {
    const rows = layoutSpans(
      [
        task('long', '2026-11-02', '2026-11-08'),
        task('mid', '2026-11-03', '2026-11-04', 'urgent'),
        task('late', '2026-11-05', '2026-11-06'),
        task('extra', '2026-11-03', '2026-11-05'),
      ],
      weeks,
      2,
    );
    const row = rows[1]!;
    expect(row.segments.map((s) => [s.task.id, s.lane, s.column])).toEqual([
      ['long', 0, 0],
      ['extra', 1, 1],
    ]);
    expect(row.lanes).toBe(2);
    // 'mid' (Nov 3–4) and 'late' (Nov 5–6) found no free lane: each of their days tells them.
    expect(row.hidden.map((list) => list.map((t) => t.id))).toEqual([[], ['mid'], ['mid'], ['late'], ['late'], [], []]);
  });
});

describe('agendaDayOf', () => {
  it('lists a span under its first shown day, a chip under its due day', () => {
    expect(agendaDayOf(task('a', '2026-11-04', '2026-11-17'), '2026-10-26')).toBe('2026-11-04');
    expect(agendaDayOf(task('a', '2026-10-01', '2026-11-17'), '2026-10-26')).toBe('2026-10-26');
    expect(agendaDayOf(task('b', null, '2026-11-17'), '2026-10-26')).toBe('2026-11-17');
  });
});

describe('movedDates', () => {
  it('takes a one-day task whole, keeps another start unless the due day passes it', () => {
    expect(movedDates({ startDate: null, dueDate: '2026-11-04' }, '2026-11-02')).toEqual({ dueDate: '2026-11-02' });
    expect(movedDates({ startDate: '2026-11-04', dueDate: '2026-11-04' }, '2026-11-09')).toEqual({
      dueDate: '2026-11-09',
      startDate: '2026-11-09',
    });
    expect(movedDates({ startDate: '2026-11-01', dueDate: '2026-11-04' }, '2026-11-09')).toEqual({ dueDate: '2026-11-09' });
    expect(movedDates({ startDate: '2026-11-03', dueDate: '2026-11-04' }, '2026-11-02')).toEqual({
      dueDate: '2026-11-02',
      startDate: '2026-11-02',
    });
  });
});
