import { describe, expect, it } from 'vitest';
import { Throttle } from './throttle';

describe('Throttle', () => {
  it('says yes once per interval and key', () => {
    const t = new Throttle(1000);
    expect(t.due('a', 0)).toBe(true);
    expect(t.due('a', 999)).toBe(false);
    expect(t.due('b', 999)).toBe(true);
    expect(t.due('a', 1000)).toBe(true);
    expect(t.due('a', 1500)).toBe(false);
  });

  it('forgets everything when it holds too many keys, so memory stays bounded', () => {
    const t = new Throttle(1000, 2);
    t.due('a', 0);
    t.due('b', 0);
    // A third key clears the map: 'a' is due again although its interval has not passed.
    expect(t.due('c', 1)).toBe(true);
    expect(t.due('a', 2)).toBe(true);
  });
});
