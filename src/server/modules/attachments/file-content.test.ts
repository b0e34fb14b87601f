import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import { FileInspector, FileTooLargeError, isRasterImage } from './file-content';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

async function inspect(chunks: Buffer[], max = 1024 * 1024): Promise<{ type: string; size: number; out: Buffer }> {
  const inspector = new FileInspector(max);
  const out: Buffer[] = [];
  await pipeline(Readable.from(chunks), inspector, async (source: AsyncIterable<Buffer>) => {
    for await (const chunk of source) out.push(chunk);
  });
  return { type: await inspector.contentType(), size: inspector.size, out: Buffer.concat(out) };
}

describe('FileInspector', () => {
  it('passes the bytes through unchanged and counts them', async () => {
    const chunks = [Buffer.from('abc'), Buffer.from('def')];
    const r = await inspect(chunks);
    expect(r.out.toString()).toBe('abcdef');
    expect(r.size).toBe(6);
  });

  it('reads a known format from its bytes', async () => {
    expect((await inspect([PNG])).type).toBe('image/png');
    expect((await inspect([PNG.subarray(0, 5), PNG.subarray(5)])).type).toBe('image/png');
  });

  it('calls UTF-8 text without NULs text/plain, even with a character split across chunks', async () => {
    const text = Buffer.from('héllo wörld ✓');
    expect((await inspect([text.subarray(0, 2), text.subarray(2)])).type).toBe('text/plain');
    expect((await inspect([Buffer.from('<html><script>x</script></html>')])).type).toBe('text/plain');
  });

  it('calls anything else application/octet-stream: NULs, invalid UTF-8 (anywhere), a cut character, nothing', async () => {
    expect((await inspect([Buffer.from('a\u0000b')])).type).toBe('application/octet-stream');
    expect((await inspect([Buffer.from('fine text'), Buffer.from([0xff, 0xfe, 0x41])])).type).toBe('application/octet-stream');
    expect((await inspect([Buffer.from('ends in é').subarray(0, -1)])).type).toBe('application/octet-stream');
    expect((await inspect([])).type).toBe('application/octet-stream');
  });

  it('fails the stream once over its limit', async () => {
    await expect(inspect([Buffer.alloc(600), Buffer.alloc(600)], 1000)).rejects.toBeInstanceOf(FileTooLargeError);
    expect((await inspect([Buffer.alloc(500), Buffer.alloc(500)], 1000)).size).toBe(1000);
  });
});

describe('isRasterImage', () => {
  it('is true for PNG, JPEG, GIF and WebP only (not SVG)', () => {
    for (const t of ['image/png', 'image/jpeg', 'image/gif', 'image/webp']) expect(isRasterImage(t)).toBe(true);
    for (const t of ['image/svg+xml', 'text/html', 'application/pdf', 'image/tiff']) expect(isRasterImage(t)).toBe(false);
  });
});
