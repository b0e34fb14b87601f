import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoFromPg } from './row-statements';

/** A timestamptz as PostgreSQL writes it in a session at `offset` ('+00', '+05:30', '-08'): trailing zeros of the fraction cut. */
function pgText(ms: number, micros: number, offset = '+00'): string {
  const shift =
    offset === '+00'
      ? 0
      : (offset.startsWith('-') ? -1 : 1) * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4, 6) || 0)) * 60_000;
  const iso = new Date(ms + shift).toISOString();
  const fraction = `${iso.slice(20, 23)}${String(micros).padStart(3, '0')}`.replace(/0+$/, '');
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}${fraction ? `.${fraction}` : ''}${offset}`;
}

describe('isoFromPg', () => {
  it('gives what new Date(text).toISOString() gives, for any time of a four-digit year and any fraction', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(1000, 0, 1), max: Date.UTC(9999, 11, 31) }),
        fc.integer({ min: 0, max: 999 }),
        fc.constantFrom('+00', '+05:30', '-08'),
        (ms, micros, offset) => {
          const text = pgText(ms, micros, offset);
          expect(isoFromPg(text)).toBe(new Date(text).toISOString());
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('cuts the fraction to milliseconds, never rounds, and pads a short one', () => {
    expect(isoFromPg('2026-11-27 15:51:02.999999+00')).toBe('2026-11-27T15:51:02.999Z');
    expect(isoFromPg('2026-11-27 15:51:02.1+00')).toBe('2026-11-27T15:51:02.100Z');
    expect(isoFromPg('2026-11-27 15:51:02+00')).toBe('2026-11-27T15:51:02.000Z');
    expect(isoFromPg('2026-11-27 15:51:02.5+05:30')).toBe('2026-11-27T10:21:02.500Z');
  });
});
