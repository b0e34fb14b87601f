import { describe, expect, it } from 'vitest';
import { isAllowedHref, isAllowedImageSrc, normaliseHref } from './link-policy';

describe('isAllowedHref', () => {
  it.each(['https://example.org', 'http://example.org/a?b#c', 'mailto:a@example.org'])('allows %s', (href) => {
    expect(isAllowedHref(href)).toBe(true);
  });
  it.each([
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    ' javascript:alert(1)',
    'java\tscript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:x',
    '/relative',
    '//evil.example',
    'ftp://example.org',
    '',
  ])('refuses %j', (href) => {
    expect(isAllowedHref(href)).toBe(false);
  });
});

describe('normaliseHref', () => {
  it('adds https to a bare host and refuses other schemes', () => {
    expect(normaliseHref('example.org/x')).toBe('https://example.org/x');
    expect(normaliseHref('mailto:a@b.org')).toBe('mailto:a@b.org');
    expect(normaliseHref('javascript:alert(1)')).toBeNull();
    expect(normaliseHref('  ')).toBeNull();
  });
});

describe('isAllowedImageSrc', () => {
  const origin = 'https://crew.example';
  it('allows the app API paths only', () => {
    expect(isAllowedImageSrc('/api/notes/1/images/2', origin)).toBe(true);
    expect(isAllowedImageSrc('https://crew.example/api/files/x', origin)).toBe(true);
    expect(isAllowedImageSrc('https://tracker.example/pixel.gif', origin)).toBe(false);
    expect(isAllowedImageSrc('//tracker.example/p.gif', origin)).toBe(false);
    expect(isAllowedImageSrc('data:image/png;base64,AAAA', origin)).toBe(false);
    expect(isAllowedImageSrc('javascript:alert(1)', origin)).toBe(false);
    expect(isAllowedImageSrc('x', origin)).toBe(false);
  });
});
