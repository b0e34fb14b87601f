import { describe, expect, it } from 'vitest';
import { isTimeZone, timeZoneInput, timeZoneLabel, timeZoneList } from './time-zone';

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
