import { describe, expect, it } from 'vitest';
import { TIME_MINUTES_INVALID } from '../../../../../domain/schemas/time';
import { cardTimeLabel, cardTimeText } from '../card-time';
import { estimateDraft, loggedPercent, parseEntryMinutes, parseEstimate, taskLoggedSummary } from './time-model';

const task = (over: Partial<Parameters<typeof cardTimeText>[0]> = {}) => ({
  loggedMinutes: 0,
  subtaskLoggedMinutes: 0,
  estimateMinutes: null,
  estimatePoints: null,
  ...over,
});

describe('taskLoggedSummary', () => {
  it('adds the sub-tasks’ minutes to the task’s own', () => {
    expect(taskLoggedSummary(task({ loggedMinutes: 140, subtaskLoggedMinutes: 60, estimateMinutes: 300 }), 'time')).toBe(
      'Logged 3h 20m of 5h estimate',
    );
    expect(taskLoggedSummary(task({ loggedMinutes: 90 }), 'time')).toBe('Logged 1h 30m');
  });

  it('shows the team’s unit only', () => {
    const both = task({ loggedMinutes: 60, estimateMinutes: 300, estimatePoints: 3 });
    expect(taskLoggedSummary(both, 'points')).toBe('Logged 1h · 3 points');
    expect(taskLoggedSummary(task({ loggedMinutes: 60, estimatePoints: 3 }), 'time')).toBe('Logged 1h');
  });
});

describe('loggedPercent', () => {
  it('is the share of a time estimate, beyond 100 when over it, null without one', () => {
    expect(loggedPercent(task({ loggedMinutes: 90, subtaskLoggedMinutes: 60, estimateMinutes: 300 }), 'time')).toBe(50);
    expect(loggedPercent(task({ loggedMinutes: 600, estimateMinutes: 300 }), 'time')).toBe(200);
    expect(loggedPercent(task({ loggedMinutes: 90 }), 'time')).toBeNull();
    expect(loggedPercent(task({ estimateMinutes: 300, estimatePoints: 2 }), 'points')).toBeNull();
  });
});

describe('cardTimeText', () => {
  it('shows logged / estimate when either is set', () => {
    expect(cardTimeText(task({ loggedMinutes: 90, estimateMinutes: 300 }))).toBe('1h 30m / 5h');
    expect(cardTimeText(task({ estimateMinutes: 300 }))).toBe('0m / 5h');
    expect(cardTimeText(task({ loggedMinutes: 60, subtaskLoggedMinutes: 30, estimatePoints: 3 }))).toBe('1h 30m · 3 pts');
    expect(cardTimeText(task({ estimatePoints: 1 }))).toBe('0m · 1 pt');
    expect(cardTimeText(task({ loggedMinutes: 45 }))).toBe('45m');
    expect(cardTimeText(task())).toBeNull();
  });

  it('reads as a sentence', () => {
    expect(cardTimeLabel(task({ loggedMinutes: 90, estimateMinutes: 300 }))).toBe('Logged 1h 30m of 5h estimate');
    expect(cardTimeLabel(task({ loggedMinutes: 90, estimatePoints: 3 }))).toBe('Logged 1h 30m · 3 points');
  });
});

describe('parseEntryMinutes', () => {
  it('accepts what the issue lists', () => {
    for (const text of ['1h 30m', '90m', '1.5h']) expect(parseEntryMinutes(text)).toEqual({ ok: true, value: 90 });
  });

  it('says what a duration looks like, and that an entry is at most a day', () => {
    expect(parseEntryMinutes('soon')).toEqual({ ok: false, message: TIME_MINUTES_INVALID });
    expect(parseEntryMinutes('')).toEqual({ ok: false, message: TIME_MINUTES_INVALID });
    expect(parseEntryMinutes('25h')).toEqual({ ok: false, message: 'An entry is at most 24 hours' });
    expect(parseEntryMinutes('24h')).toEqual({ ok: true, value: 1440 });
  });
});

describe('parseEstimate / estimateDraft', () => {
  it('reads hours and minutes, empty as none', () => {
    expect(parseEstimate('5h', 'time')).toEqual({ ok: true, value: 300 });
    expect(parseEstimate('  ', 'time')).toEqual({ ok: true, value: null });
    expect(parseEstimate('later', 'time')).toEqual({ ok: false, message: TIME_MINUTES_INVALID });
    expect(parseEstimate('20000h', 'time').ok).toBe(false);
  });

  it('reads points in halves', () => {
    expect(parseEstimate('3', 'points')).toEqual({ ok: true, value: 3 });
    expect(parseEstimate('2,5', 'points')).toEqual({ ok: true, value: 2.5 });
    expect(parseEstimate('2.3', 'points').ok).toBe(false);
    expect(parseEstimate('-1', 'points').ok).toBe(false);
    expect(parseEstimate('many', 'points').ok).toBe(false);
  });

  it('writes back what it reads', () => {
    const t = task({ estimateMinutes: 90, estimatePoints: 2.5 });
    expect(estimateDraft(t, 'time')).toBe('1h 30m');
    expect(estimateDraft(t, 'points')).toBe('2.5');
    expect(parseEstimate(estimateDraft(t, 'time'), 'time')).toEqual({ ok: true, value: 90 });
    expect(estimateDraft(task(), 'time')).toBe('');
  });
});
