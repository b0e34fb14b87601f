import { describe, expect, it } from 'vitest';
import { DEFAULT_STATUSES } from './workflow';
import {
  addMonths,
  agendaDays,
  arrowStep,
  calendarRange,
  cellDayLabel,
  endOfMonth,
  fitDay,
  inMonth,
  localeWeekStart,
  longDayLabel,
  parseCalendarDate,
  parseCalendarView,
  shiftDate,
  shortDayLabel,
  startOfWeekOn,
  tasksByDay,
  weekdayNames,
  weekTitle,
} from './calendar';

const task = (id: string, dueDate: string | null, extra: { status?: string; priority?: string; title?: string } = {}) => ({
  id,
  title: extra.title ?? id,
  statusCategory: DEFAULT_STATUSES.find((s) => s.key === (extra.status ?? 'todo'))!.category,
  priority: extra.priority ?? 'medium',
  dueDate,
});

describe('localeWeekStart', () => {
  it("reads the locale's first day of the week", () => {
    expect(localeWeekStart('de-DE')).toBe(1);
    expect(localeWeekStart('en-GB')).toBe(1);
    expect(localeWeekStart('en-US')).toBe(0);
    // Saturday in Egypt.
    expect(localeWeekStart('ar-EG')).toBe(6);
  });

  it('is Monday without a locale, for a tag that is not one, or where the runtime has no week info', () => {
    expect(localeWeekStart(undefined)).toBe(1);
    expect(localeWeekStart('')).toBe(1);
    expect(localeWeekStart('not a locale!')).toBe(1);
    const original = Intl.Locale;
    // A runtime whose Intl.Locale has neither getWeekInfo nor weekInfo.
    class Bare {
      constructor(readonly tag: string) {}
    }
    Object.defineProperty(Intl, 'Locale', { value: Bare, configurable: true, writable: true });
    try {
      expect(localeWeekStart('en-US')).toBe(1);
    } finally {
      Object.defineProperty(Intl, 'Locale', { value: original, configurable: true, writable: true });
    }
  });
});

describe('weeks', () => {
  it.each([
    // 2026-11-04 is a Wednesday.
    ['2026-11-04', 1, '2026-11-02'],
    ['2026-11-04', 0, '2026-11-01'],
    ['2026-11-04', 6, '2026-10-31'],
    // A Monday starts its own Monday week; a Sunday ends it.
    ['2026-11-02', 1, '2026-11-02'],
    ['2026-11-08', 1, '2026-11-02'],
    ['2026-11-08', 0, '2026-11-08'],
    // Across a year.
    ['2027-01-01', 1, '2026-12-28'],
  ] as const)('the week of %s starting on day %i begins %s', (date, start, expected) => {
    expect(startOfWeekOn(date, start)).toBe(expected);
  });

  it('weekday names start on the chosen day', () => {
    expect(weekdayNames(1, true)).toEqual(['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun']);
    expect(weekdayNames(0)).toEqual(['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday']);
  });
});

describe('months', () => {
  it('knows the last day of each month, leap years included', () => {
    expect(endOfMonth('2026-11-15')).toBe('2026-11-30');
    expect(endOfMonth('2026-12-01')).toBe('2026-12-31');
    expect(endOfMonth('2028-02-10')).toBe('2028-02-29');
    expect(endOfMonth('2100-02-10')).toBe('2100-02-28');
  });

  it('moves by months, keeping the day where the month has it', () => {
    expect(addMonths('2026-11-15', 1)).toBe('2026-12-15');
    expect(addMonths('2026-12-15', 1)).toBe('2027-01-15');
    expect(addMonths('2026-01-15', -1)).toBe('2025-12-15');
    expect(addMonths('2026-01-31', 1)).toBe('2026-02-28');
    expect(addMonths('2028-03-31', -1)).toBe('2028-02-29');
    expect(addMonths('2026-05-31', 12)).toBe('2027-05-31');
  });
});

describe('calendarRange', () => {
  it('a month view shows whole weeks from Monday, the neighbouring months’ days included', () => {
    // November 2026 starts on a Sunday and ends on a Monday.
    const r = calendarRange('month', '2026-11-18', 1);
    expect(r.title).toBe('November 2026');
    expect(r.from).toBe('2026-10-26');
    expect(r.to).toBe('2026-12-06');
    expect(r.weeks).toHaveLength(6);
    for (const week of r.weeks) expect(week).toHaveLength(7);
    expect(r.weeks[0]![0]).toBe('2026-10-26');
    expect(r.weeks[0]![6]).toBe('2026-11-01');
    expect(r.weeks.flat()).toContain('2026-11-30');
    expect(inMonth('2026-10-31', '2026-11-18')).toBe(false);
    expect(inMonth('2026-11-01', '2026-11-18')).toBe(true);
  });

  it('the same month with Sunday weeks', () => {
    const r = calendarRange('month', '2026-11-18', 0);
    expect(r.from).toBe('2026-11-01');
    expect(r.to).toBe('2026-12-05');
    expect(r.weeks).toHaveLength(5);
  });

  it('February 2027 from Monday is exactly four weeks', () => {
    const r = calendarRange('month', '2027-02-10', 1);
    expect([r.from, r.to, r.weeks.length]).toEqual(['2027-02-01', '2027-02-28', 4]);
  });

  it('a week view shows the week holding the date', () => {
    const r = calendarRange('week', '2026-11-04', 1);
    expect(r.weeks).toEqual([['2026-11-02', '2026-11-03', '2026-11-04', '2026-11-05', '2026-11-06', '2026-11-07', '2026-11-08']]);
    expect(r.title).toBe('Nov 2 – 8, 2026');
  });

  it('week titles name both months, and both years, when the week spans them', () => {
    expect(weekTitle('2026-10-26', '2026-11-01')).toBe('Oct 26 – Nov 1, 2026');
    expect(weekTitle('2026-12-28', '2027-01-03')).toBe('Dec 28, 2026 – Jan 3, 2027');
  });

  it('Previous and Next move a month or a week', () => {
    expect(shiftDate('month', '2026-01-31', 1)).toBe('2026-02-28');
    expect(shiftDate('month', '2026-01-15', -1)).toBe('2025-12-15');
    expect(shiftDate('week', '2026-12-30', 1)).toBe('2027-01-06');
    expect(shiftDate('week', '2026-11-04', -1)).toBe('2026-10-28');
  });
});

describe('labels and URL values', () => {
  it('names days in full and short', () => {
    expect(longDayLabel('2026-11-02')).toBe('Monday, November 2, 2026');
    expect(shortDayLabel('2026-11-02')).toBe('Mon, Nov 2');
    expect(cellDayLabel('2026-11-02')).toBe('2');
    expect(cellDayLabel('2026-12-01')).toBe('Dec 1');
  });

  it('accepts only real dates and the two views', () => {
    expect(parseCalendarDate('2026-11-02')).toBe('2026-11-02');
    expect(parseCalendarDate('2026-02-30')).toBeNull();
    expect(parseCalendarDate('2026-1-2')).toBeNull();
    expect(parseCalendarDate('<script>')).toBeNull();
    expect(parseCalendarDate(null)).toBeNull();
    expect(parseCalendarView('week')).toBe('week');
    expect(parseCalendarView('month')).toBe('month');
    expect(parseCalendarView('year')).toBe('month');
    expect(parseCalendarView(null)).toBe('month');
  });
});

describe('placing tasks', () => {
  const days = ['2026-11-02', '2026-11-03', '2026-11-04'];

  it('puts each task on its due date, as written (no time zone shift), leaving out undated and unseen ones', () => {
    const byDay = tasksByDay(
      [task('a', '2026-11-02'), task('b', '2026-11-04'), task('c', null), task('d', '2026-11-05'), task('e', '2026-11-02')],
      days,
    );
    expect([...byDay.keys()]).toEqual(days);
    expect(byDay.get('2026-11-02')!.map((t) => t.id)).toEqual(['a', 'e']);
    expect(byDay.get('2026-11-03')).toEqual([]);
    expect(byDay.get('2026-11-04')!.map((t) => t.id)).toEqual(['b']);
  });

  it('orders a day: open before completed, most urgent first, then by title', () => {
    const byDay = tasksByDay(
      [
        task('1', '2026-11-02', { title: 'Zeta', priority: 'low' }),
        task('2', '2026-11-02', { title: 'Alpha', priority: 'urgent', status: 'completed' }),
        task('3', '2026-11-02', { title: 'Beta', priority: 'urgent' }),
        task('4', '2026-11-02', { title: 'Alpha', priority: 'low' }),
        task('5', '2026-11-02', { title: 'Gamma', priority: 'high', status: 'review' }),
      ],
      days,
    );
    expect(byDay.get('2026-11-02')!.map((t) => t.id)).toEqual(['3', '5', '4', '1', '2']);
  });

  it('the agenda lists only the days with tasks, in date order', () => {
    const agenda = agendaDays([task('b', '2026-11-04'), task('a', '2026-11-02'), task('x', '2026-12-01')], days);
    expect(agenda.map((d) => [d.date, d.tasks.map((t) => t.id)])).toEqual([
      ['2026-11-02', ['a']],
      ['2026-11-04', ['b']],
    ]);
    expect(agendaDays([], days)).toEqual([]);
  });

  it.each([
    [0, 3, 0, 0],
    [3, 3, 3, 0],
    // One more than fits: the button takes the last line.
    [4, 3, 2, 2],
    [10, 3, 2, 8],
    [5, 1, 0, 5],
    [2, 0, 0, 2],
  ])('%i tasks in room for %i lines: %i shown, +%i more', (count, capacity, shown, more) => {
    expect(fitDay(count, capacity)).toEqual({ shown, more });
  });

  it('arrows move a day sideways and a week up and down', () => {
    expect(['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Enter'].map(arrowStep)).toEqual([-1, 1, -7, 7, null]);
  });
});
