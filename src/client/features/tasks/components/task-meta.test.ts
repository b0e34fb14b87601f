import { addDays, format, parseISO } from 'date-fns';
import { describe, expect, it } from 'vitest';
import { formatCardDate } from './task-meta';

describe('formatCardDate', () => {
  it("writes every day of a leap year as date-fns' 'MMM dd' does", () => {
    const start = parseISO('2028-01-01');
    for (let i = 0; i < 366; i++) {
      const iso = format(addDays(start, i), 'yyyy-MM-dd');
      expect(formatCardDate(iso)).toBe(format(parseISO(iso), 'MMM dd'));
    }
  });

  it('reads the date as written, whatever the time zone', () => {
    expect(formatCardDate('2026-01-01')).toBe('Jan 01');
    expect(formatCardDate('2026-12-31')).toBe('Dec 31');
  });

  it('hands anything but a plain date to date-fns', () => {
    expect(formatCardDate('2026-03-05T10:00:00')).toBe('Mar 05');
  });
});
