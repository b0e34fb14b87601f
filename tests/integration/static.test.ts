// The built client as the server sends it: precompressed assets with immutable caching, and the
// app shell (index.html) revalidated on every load, also for client-side routes.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { setupTestApp } from '../helpers/app';

const clientDir = mkdtempSync(join(tmpdir(), 'crewboard-static-'));
const script = `console.log(${JSON.stringify('crewboard '.repeat(300))});`;
mkdirSync(join(clientDir, 'assets'));
writeFileSync(join(clientDir, 'index.html'), '<!doctype html><title>Crewboard</title><div id="root"></div>');
writeFileSync(join(clientDir, 'assets', 'app-abc123.js'), script);
writeFileSync(join(clientDir, 'assets', 'app-abc123.js.br'), brotliCompressSync(script));
writeFileSync(join(clientDir, 'assets', 'app-abc123.js.gz'), gzipSync(script));

const ctx = setupTestApp({ clientDir });
afterAll(() => rmSync(clientDir, { recursive: true, force: true }));

describe('static client files', () => {
  it('sends the brotli copy of an asset to a browser that accepts it, cached for good', async () => {
    const res = await ctx.app.inject({ url: '/assets/app-abc123.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.rawPayload.equals(brotliCompressSync(script))).toBe(true);
  });

  it('sends the gzip copy, or the plain file, to clients that cannot take brotli', async () => {
    const gz = await ctx.app.inject({ url: '/assets/app-abc123.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.rawPayload.equals(gzipSync(script))).toBe(true);
    const plain = await ctx.app.inject({ url: '/assets/app-abc123.js', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.payload).toBe(script);
  });

  it('revalidates the app shell, at / and at client-side routes, and answers API misses with JSON', async () => {
    for (const url of ['/', '/tasks', '/teams/some-team']) {
      const res = await ctx.app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(res.payload, url).toContain('<div id="root">');
    }
    const api = await ctx.app.inject({ url: '/api/nothing-here' });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ error: { code: 'not_found', message: 'Not found' } });
  });
});
