import { describe, expect, it } from 'vitest';
import { normaliseHref } from './link-policy';

describe('normaliseHref', () => {
  it('adds https to a bare host and refuses other schemes', () => {
    expect(normaliseHref('example.org/x')).toBe('https://example.org/x');
    expect(normaliseHref('mailto:a@b.org')).toBe('mailto:a@b.org');
    expect(normaliseHref('javascript:alert(1)')).toBeNull();
    expect(normaliseHref('  ')).toBeNull();
  });
});
