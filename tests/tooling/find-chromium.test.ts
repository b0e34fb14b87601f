import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findChromium } from '../../scripts/find-chromium.mjs';

const ROOT = resolve(import.meta.dirname, '..', '..');
const scratch = mkdtempSync(join(tmpdir(), 'crewboard-browser-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function fakeBrowser(path: string): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, '#!/bin/sh\n');
  chmodSync(path, 0o755);
  return path;
}

/** No browser anywhere: nothing on the PATH, an empty Playwright cache. */
const NOWHERE = { PATH: '', PLAYWRIGHT_BROWSERS_PATH: join(scratch, 'empty-cache'), CHROMIUM_PATH: undefined };

function node(args: string[], env: Record<string, string | undefined>) {
  const run = spawnSync(process.execPath, args, {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, ...env, CI: '' },
    timeout: 60_000,
  });
  return { status: run.status, stdout: run.stdout, lines: run.stderr.split('\n').filter((l) => l.trim()) };
}

describe('the browser the tests use', () => {
  it("is CHROMIUM_PATH, then a Chromium or Chrome on the PATH, then the one in Playwright's cache", async () => {
    const chrome = fakeBrowser(join(scratch, 'a', 'google-chrome'));
    const chromium = fakeBrowser(join(scratch, 'b', 'chromium'));
    const own = fakeBrowser(join(scratch, 'own'));
    const path = `${dirname(chrome)}:${dirname(chromium)}`;
    expect(await findChromium({ ...NOWHERE, PATH: path, CHROMIUM_PATH: own })).toEqual({ path: own });
    expect(await findChromium({ ...NOWHERE, PATH: path })).toEqual({ path: chrome });
    expect(await findChromium({ ...NOWHERE, PATH: dirname(chromium) })).toEqual({ path: chromium });

    // Where Playwright's cache would hold its Chromium (`npx playwright install chromium`).
    const cache = join(scratch, 'cache');
    const expected = node(['-e', "import('@playwright/test').then((m) => console.log(m.chromium.executablePath()))"], {
      PLAYWRIGHT_BROWSERS_PATH: cache,
    }).stdout.trim();
    expect(expected.startsWith(cache)).toBe(true);
    fakeBrowser(expected);
    const found = node(['scripts/find-chromium.mjs'], { ...NOWHERE, PLAYWRIGHT_BROWSERS_PATH: cache });
    expect(found.status).toBe(0);
    expect(found.stdout).toContain(expected);
  });

  it('is never a CHROMIUM_PATH that names no file, even with a browser on the PATH', async () => {
    const chromium = fakeBrowser(join(scratch, 'c', 'chromium'));
    const found = await findChromium({ ...NOWHERE, PATH: dirname(chromium), CHROMIUM_PATH: '/nonexistent' });
    expect(found).toEqual({ error: expect.stringContaining('CHROMIUM_PATH=/nonexistent') });
  });

  for (const [name, env] of [
    ['no browser anywhere', NOWHERE],
    ['CHROMIUM_PATH names no file', { ...NOWHERE, CHROMIUM_PATH: '/nonexistent' }],
  ] as const) {
    it(`with ${name}, the browser tests stop before the web server and any test, with one line on how to get one`, () => {
      const port = String(39_000 + Math.floor(Math.random() * 1000));
      const run = node(['node_modules/@playwright/test/cli.js', 'test'], { ...env, E2E_PORT: port });
      expect(run.status).toBe(1);
      expect(run.lines).toHaveLength(1);
      expect(run.lines[0]).toMatch(
        /^No browser for the browser tests: .*npx playwright install chromium.*apt-get install chromium/,
      );
      expect(run.stdout).not.toMatch(/WebServer|Running \d+ tests?/);
      // scripts/e2e-server.mjs makes .e2e/<port> first thing: it never ran.
      expect(existsSync(join(ROOT, '.e2e', port))).toBe(false);
    });
  }

  it('npm test checks for the browser first, before the typecheck and every suite', () => {
    const run = node(['scripts/find-chromium.mjs'], NOWHERE);
    expect(run.status).toBe(1);
    expect(run.lines).toHaveLength(1);
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.test).toMatch(/^node scripts\/find-chromium\.mjs && /);
  });
});
