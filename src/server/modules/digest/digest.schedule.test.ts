import { describe, expect, it } from 'vitest';
import { digestWindow } from './digest.schedule';

describe('digestWindow', () => {
  it('is due from 08:00 local time to the end of the local day', () => {
    // 06:59 UTC is 07:59 in Paris (winter, UTC+1); 07:00 UTC is 08:00.
    expect(digestWindow(new Date('2025-01-15T06:59:59Z'), 'Europe/Paris')).toBeNull();
    expect(digestWindow(new Date('2025-01-15T07:00:00Z'), 'Europe/Paris')).toEqual({
      day: '2025-01-15',
      since: new Date('2025-01-14T23:00:00Z'),
    });
    expect(digestWindow(new Date('2025-01-15T22:59:59Z'), 'Europe/Paris')?.day).toBe('2025-01-15');
    expect(digestWindow(new Date('2025-01-15T23:00:00Z'), 'Europe/Paris')).toBeNull();
  });

  it('reads the local day, not the UTC one, west and east of Greenwich', () => {
    // 03:00 UTC on the 16th is 22:00 on the 15th in New York (UTC-5): the 15th's digest.
    expect(digestWindow(new Date('2025-01-16T03:00:00Z'), 'America/New_York')).toEqual({
      day: '2025-01-15',
      since: new Date('2025-01-15T05:00:00Z'),
    });
    // 23:30 UTC on the 15th is 08:30 on the 16th in Tokyo (UTC+9).
    expect(digestWindow(new Date('2025-01-15T23:30:00Z'), 'Asia/Tokyo')).toEqual({
      day: '2025-01-16',
      since: new Date('2025-01-15T15:00:00Z'),
    });
    // Half-hour zones too: 02:30 UTC is 08:00 in Kolkata (UTC+5:30).
    expect(digestWindow(new Date('2025-01-15T02:29:00Z'), 'Asia/Kolkata')).toBeNull();
    expect(digestWindow(new Date('2025-01-15T02:30:00Z'), 'Asia/Kolkata')?.since).toEqual(new Date('2025-01-14T18:30:00Z'));
  });

  it('reads no zone, and a zone the engine does not know, as UTC', () => {
    expect(digestWindow(new Date('2025-01-15T07:59:00Z'), null)).toBeNull();
    expect(digestWindow(new Date('2025-01-15T08:00:00Z'), null)).toEqual({
      day: '2025-01-15',
      since: new Date('2025-01-15T00:00:00Z'),
    });
    expect(digestWindow(new Date('2025-01-15T08:00:00Z'), 'Mars/Olympus_Mons')).toEqual(
      digestWindow(new Date('2025-01-15T08:00:00Z'), 'UTC'),
    );
  });

  it('follows daylight saving time: 08:00 in Paris is 06:00 UTC in summer', () => {
    expect(digestWindow(new Date('2025-07-01T05:59:00Z'), 'Europe/Paris')).toBeNull();
    expect(digestWindow(new Date('2025-07-01T06:00:00Z'), 'Europe/Paris')?.since).toEqual(new Date('2025-06-30T22:00:00Z'));
  });
});
