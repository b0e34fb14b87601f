import { describe, expect, it } from 'vitest';
import { formatDuration, formatElapsed, loggedSummary, parseDuration, timerMinutes } from './durations';

describe('parseDuration', () => {
  it("reads the issue's forms and their usual variants as minutes", () => {
    const cases: [string, number][] = [
      ['1h 30m', 90],
      ['1h30m', 90],
      ['90m', 90],
      ['90 min', 90],
      ['1.5h', 90],
      ['1,5h', 90],
      ['2 hours', 120],
      ['45 minutes', 45],
      ['1:30', 90],
      ['0:05', 5],
      ['2', 120],
      ['0.25', 15],
      ['  1H 5M ', 65],
      ['30m 1h', 90],
      ['1.01h', 61],
    ];
    for (const [text, minutes] of cases) expect(parseDuration(text), text).toBe(minutes);
  });

  it('says null for what is not a duration, or is nothing', () => {
    for (const text of ['', ' ', 'abc', '1x', 'h', '1h 2h', '1:75', '-1h', '0', '0m', '0.001h', '1h 30', '1..5h']) {
      expect(parseDuration(text), text).toBeNull();
    }
  });
});

describe('formatDuration', () => {
  it('writes hours and minutes, leaving out a zero part', () => {
    expect(formatDuration(200)).toBe('3h 20m');
    expect(formatDuration(120)).toBe('2h');
    expect(formatDuration(45)).toBe('45m');
    expect(formatDuration(0)).toBe('0m');
    expect(formatDuration(-5)).toBe('0m');
    expect(formatDuration(89.6)).toBe('1h 30m');
  });

  it('reads back what it writes', () => {
    for (const minutes of [1, 59, 60, 61, 200, 1440]) expect(parseDuration(formatDuration(minutes))).toBe(minutes);
  });
});

describe('timers', () => {
  it('log whole minutes, rounded, and nothing under a minute', () => {
    expect(timerMinutes(0)).toBe(0);
    expect(timerMinutes(59_999)).toBe(0);
    expect(timerMinutes(60_000)).toBe(1);
    expect(timerMinutes(89_999)).toBe(1);
    expect(timerMinutes(90_000)).toBe(2);
    expect(timerMinutes(3 * 3_600_000 + 20 * 60_000)).toBe(200);
  });

  it('show the elapsed time as a clock', () => {
    expect(formatElapsed(7)).toBe('0:07');
    expect(formatElapsed(725)).toBe('12:05');
    expect(formatElapsed(3723)).toBe('1:02:03');
    expect(formatElapsed(-3)).toBe('0:00');
  });
});

describe('loggedSummary', () => {
  it('says the logged time against the estimate the team uses', () => {
    expect(loggedSummary(200, { minutes: 300, points: null })).toBe('Logged 3h 20m of 5h estimate');
    expect(loggedSummary(200, { minutes: null, points: null })).toBe('Logged 3h 20m');
    expect(loggedSummary(120, { minutes: null, points: 1 })).toBe('Logged 2h · 1 point');
    expect(loggedSummary(0, { minutes: null, points: 5 })).toBe('Logged 0m · 5 points');
  });
});
