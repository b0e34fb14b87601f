import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { chromium } from '@playwright/test';
import {
  CHROMIUM_ARGS,
  chromiumOrExit,
  findChromium,
  PLAYWRIGHT_DISABLED_FEATURES,
  UNUSED_UI_FEATURES,
} from '../../scripts/find-chromium.mjs';

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

    // The headless shell first, wherever on the PATH; the full browser when asked for.
    const shell = fakeBrowser(join(scratch, 'd', 'chromium-headless-shell'));
    const withShell = `${path}:${dirname(shell)}`;
    expect(await findChromium({ ...NOWHERE, PATH: withShell })).toEqual({ path: shell });
    expect(await findChromium({ ...NOWHERE, PATH: withShell }, { headlessShell: false })).toEqual({ path: chrome });
    expect(await findChromium({ ...NOWHERE, PATH: withShell, CHROMIUM_PATH: own })).toEqual({ path: own });

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

describe('the flags the tests launch it with', () => {
  it('repeat every feature Playwright disables (Chromium keeps only the last --disable-features)', () => {
    const bundle = readFileSync(join(ROOT, 'node_modules/playwright-core/lib/coreBundle.js'), 'utf8');
    const list = /disabledFeatures = \[([\s\S]*?)\]\.filter/.exec(bundle)?.[1];
    expect(list, "playwright-core's disabledFeatures list").toBeDefined();
    const theirs = [...(list ?? '').replace(/\/\/.*$/gm, '').matchAll(/"([A-Za-z]+)"/g)].map((m) => m[1]);
    expect(theirs.length).toBeGreaterThan(5);
    expect(PLAYWRIGHT_DISABLED_FEATURES).toEqual(expect.arrayContaining(theirs));
    expect(CHROMIUM_ARGS.filter((arg) => arg.startsWith('--disable-features='))).toHaveLength(1);
  });

  it("leave a browser context without the address bar's popup renderers", async () => {
    /** The chrome:// WebUI pages a context's window loads, with the given flags. */
    async function webUiOf(args: string[]): Promise<string[]> {
      // The full browser's windows carry the address bar (the headless shell has none to leave out).
      const browser = await chromium.launch({
        executablePath: await chromiumOrExit(process.env, { headlessShell: false }),
        args,
      });
      try {
        const page = await (await browser.newContext()).newPage();
        await page.goto('data:text/html,<h1>probe</h1>');
        const { targetInfos } = (await (await browser.newBrowserCDPSession()).send('Target.getTargets')) as {
          targetInfos: { type: string; url: string }[];
        };
        return targetInfos.filter((t) => t.url.startsWith('chrome://')).map((t) => t.url);
      } finally {
        await browser.close();
      }
    }
    const without = CHROMIUM_ARGS.map((arg) =>
      arg.startsWith('--disable-features=') ? `--disable-features=${PLAYWRIGHT_DISABLED_FEATURES.join(',')}` : arg,
    );
    expect(UNUSED_UI_FEATURES.length).toBeGreaterThan(0);
    expect((await webUiOf(without)).some((url) => url.startsWith('chrome://omnibox-popup'))).toBe(true);
    expect(await webUiOf(CHROMIUM_ARGS)).toEqual([]);
  });
});
