import { describe, expect, it } from 'vitest';
import { TIMER_TOO_SHORT } from '../../../domain/durations';
import { replacedTimerText, stoppedTimerText } from './time';

const stopped = (minutes: number) => ({ taskId: 't', taskTitle: 'Write the report', minutes, entry: null });

describe('timer texts', () => {
  it('says what a stopped timer logged, or that it logged nothing', () => {
    expect(stoppedTimerText(stopped(25))).toBe('Logged 25m on "Write the report"');
    expect(stoppedTimerText(stopped(0))).toBe(TIMER_TOO_SHORT);
  });

  it('says what the timer a new one replaced logged', () => {
    expect(replacedTimerText(stopped(90))).toBe('Stopped the timer on "Write the report": logged 1h 30m');
    expect(replacedTimerText(stopped(0))).toBe('Stopped the timer on "Write the report": less than a minute, nothing logged');
  });
});
