import { describe, expect, it } from 'vitest';
import { contentDisposition, sanitizeFileName } from './file-name';

describe('sanitizeFileName', () => {
  it('keeps the last path segment only, whatever the separator', () => {
    expect(sanitizeFileName('../../etc/passwd')).toBe('passwd');
    expect(sanitizeFileName('C:\\Users\\me\\report.pdf')).toBe('report.pdf');
  });

  it('drops control, bidi-override and zero-width characters, and trims', () => {
    expect(sanitizeFileName(' evil\u202egnp.exe ')).toBe('evilgnp.exe');
    expect(sanitizeFileName('a\u0000b\r\nc\u200b.txt')).toBe('abc.txt');
  });

  it('cuts at 255 characters, never inside a character', () => {
    expect(sanitizeFileName('x'.repeat(400))).toHaveLength(255);
    const emoji = sanitizeFileName('😀'.repeat(300));
    expect([...emoji]).toHaveLength(255);
    // No lone surrogate (half an emoji).
    expect(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(emoji)).toBe(false);
  });

  it('names a file `file` when nothing is left', () => {
    for (const raw of [undefined, '', '   ', '..', '.', 'dir/', '\u0001']) expect(sanitizeFileName(raw)).toBe('file');
  });

  it('keeps Unicode (NFC) and ordinary punctuation', () => {
    expect(sanitizeFileName('re\u0301sume\u0301 (v2) — final.pdf')).toBe('résumé (v2) — final.pdf');
  });
});

describe('contentDisposition', () => {
  it('gives an ASCII fallback and the exact UTF-8 name (RFC 6266 / 8187)', () => {
    expect(contentDisposition('attachment', 'résumé "x" 100%.pdf')).toBe(
      `attachment; filename="r_sum_ _x_ 100_.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%22x%22%20100%25.pdf`,
    );
    expect(contentDisposition('inline', "it's (1).png")).toBe(
      `inline; filename="it's (1).png"; filename*=UTF-8''it%27s%20%281%29.png`,
    );
  });
});
