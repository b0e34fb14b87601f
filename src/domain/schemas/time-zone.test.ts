import { describe, expect, it } from 'vitest';
import { isTimeZone, timeZoneInput, timeZoneLabel, timeZoneList, wallClock, zoneOrUtc } from './time-zone';

describe('time zones', () => {
  it('knows the IANA names this engine lists, and UTC', () => {
    expect(timeZoneList()).toContain('Europe/Paris');
    expect(timeZoneList()).toContain('UTC');
    expect(timeZoneList()).toEqual([...timeZoneList()].sort());
    for (const zone of [
      'Europe/Paris',
      'America/Argentina/Buenos_Aires',
      'Asia/Kolkata',
      'America/Port-au-Prince',
      'UTC',
      'Etc/GMT+5',
    ])
      expect(isTimeZone(zone), zone).toBe(true);
  });

  it('refuses offsets, other spellings and made-up names', () => {
    for (const value of ['+01:00', 'europe/paris', 'Mars/Olympus_Mons', '', 'Europe/Paris ', '../etc/passwd', 'Etc/GMT+99']) {
      expect(isTimeZone(value), value).toBe(false);
    }
    expect(timeZoneInput.safeParse('x'.repeat(65)).success).toBe(false);
  });

  it('shows a zone with spaces', () => expect(timeZoneLabel('America/New_York')).toBe('America/New York'));
});

describe('zoneOrUtc', () => {
  it('keeps a zone the engine knows, and reads none or an unknown one as UTC', () => {
    expect(zoneOrUtc('Europe/Paris')).toBe('Europe/Paris');
    expect(zoneOrUtc('Asia/Kolkata')).toBe('Asia/Kolkata');
    for (const zone of [null, undefined, '', 'Mars/Olympus_Mons', 'europe/paris', '+01:00'])
      expect(zoneOrUtc(zone), String(zone)).toBe('UTC');
  });
});

describe('wallClock', () => {
  it('reads the local date, hour, minute and ISO weekday', () => {
    // 2025-01-15 (a Wednesday) 23:30 UTC is Thursday 08:30 in Tokyo (UTC+9) and 18:30 on Wednesday in New York (UTC-5).
    const at = new Date('2025-01-15T23:30:45.900Z');
    expect(wallClock(at, 'Asia/Tokyo')).toEqual({
      date: '2025-01-16',
      year: 2025,
      month: 1,
      day: 16,
      hour: 8,
      minute: 30,
      second: 45,
      weekday: 4,
      asUtcMs: Date.UTC(2025, 0, 16, 8, 30, 45),
    });
    expect(wallClock(at, 'America/New_York')).toMatchObject({ date: '2025-01-15', hour: 18, minute: 30, weekday: 3 });
    expect(wallClock(at.getTime(), 'Asia/Kolkata')).toMatchObject({ date: '2025-01-16', hour: 5, minute: 0 });
    // Sunday is 7, midnight is hour 0 (never 24).
    expect(wallClock(new Date('2025-01-19T00:00:00Z'), 'UTC')).toMatchObject({ date: '2025-01-19', hour: 0, weekday: 7 });
    expect(wallClock(new Date('2025-01-18T23:00:00Z'), 'Europe/Paris')).toMatchObject({
      date: '2025-01-19',
      hour: 0,
      weekday: 7,
    });
  });

  it('reads an invalid or missing zone as UTC', () => {
    const at = new Date('2025-07-01T06:15:00Z');
    const utc = wallClock(at, 'UTC');
    expect(utc).toMatchObject({ date: '2025-07-01', hour: 6, minute: 15, weekday: 2 });
    for (const zone of ['Mars/Olympus_Mons', 'europe/paris', '', null, undefined])
      expect(wallClock(at, zone), String(zone)).toEqual(utc);
  });

  it('follows the clocks across daylight saving changes', () => {
    // Paris springs forward on 2025-03-30: 01:59:59 UTC+1, then 03:00 UTC+2 (02:xx never shows).
    expect(wallClock(new Date('2025-03-30T00:59:59Z'), 'Europe/Paris')).toMatchObject({ hour: 1, minute: 59, second: 59 });
    expect(wallClock(new Date('2025-03-30T01:00:00Z'), 'Europe/Paris')).toMatchObject({ date: '2025-03-30', hour: 3, minute: 0 });
    // And falls back on 2025-10-26: 02:30 shows twice, an hour apart.
    const first = wallClock(new Date('2025-10-26T00:30:00Z'), 'Europe/Paris');
    const second = wallClock(new Date('2025-10-26T01:30:00Z'), 'Europe/Paris');
    expect([first.hour, first.minute, second.hour, second.minute]).toEqual([2, 30, 2, 30]);
    expect(first.asUtcMs - Date.parse('2025-10-26T00:30:00Z')).toBe(7_200_000);
    expect(second.asUtcMs - Date.parse('2025-10-26T01:30:00Z')).toBe(3_600_000);
    // New York: the hour after 01:59 EST on 2025-03-09 is 03:00 EDT.
    expect(wallClock(new Date('2025-03-09T07:00:00Z'), 'America/New_York')).toMatchObject({ hour: 3, minute: 0 });
    // A zone that skips midnight (Santiago springs forward at 24:00 on 2025-09-06): the day starts at 01:00.
    expect(wallClock(new Date('2025-09-07T04:00:00Z'), 'America/Santiago')).toMatchObject({ date: '2025-09-07', hour: 1 });
  });

  it('reads whole seconds before 1970 too', () => {
    expect(wallClock(-1, 'UTC')).toMatchObject({ date: '1969-12-31', hour: 23, minute: 59, second: 59, asUtcMs: -1000 });
  });
});
