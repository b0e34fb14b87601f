// The one place that decides which Chromium the browser tests (and the screenshots) drive, in this
// order: CHROMIUM_PATH; a chromium / chromium-browser / google-chrome / google-chrome-stable on the
// PATH; the browser `npx playwright install chromium` put in Playwright's cache. Run on its own
// (`node scripts/find-chromium.mjs`) it prints the path, or one line on how to get a browser and
// exits 1, so `npm test` stops before any test when there is none.
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { pathToFileURL } from 'node:url';

const ON_PATH = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];

export const HOW_TO_GET_ONE =
  'install one with `npx playwright install chromium` (or the system package: `apt-get install chromium`), or set CHROMIUM_PATH to a Chromium or Chrome executable';

/** Flags for Chromium in a container: no sandbox (no user namespaces), no GPU, nothing phoning home. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

function isExecutable(file) {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

async function playwrightsOwn() {
  try {
    const { chromium } = await import('@playwright/test');
    const file = chromium.executablePath();
    return file && existsSync(file) ? file : null;
  } catch {
    return null;
  }
}

/** `{ path }` of the browser to use, or `{ error }`: one line saying why there is none and how to get one. */
export async function findChromium(env = process.env) {
  if (env.CHROMIUM_PATH) {
    if (isExecutable(env.CHROMIUM_PATH)) return { path: env.CHROMIUM_PATH };
    return {
      error: `No browser for the browser tests: CHROMIUM_PATH=${env.CHROMIUM_PATH} is not an executable file; ${HOW_TO_GET_ONE}.`,
    };
  }
  for (const dir of (env.PATH ?? '').split(delimiter).filter(Boolean)) {
    for (const name of ON_PATH) {
      const file = join(dir, name);
      if (isExecutable(file)) return { path: file };
    }
  }
  const own = await playwrightsOwn();
  if (own) return { path: own };
  return {
    error: `No browser for the browser tests: no Chromium or Chrome on the PATH or in Playwright's cache; ${HOW_TO_GET_ONE}.`,
  };
}

/** The browser's path; with none, prints the one line and exits 1 (nothing has started yet). */
export async function chromiumOrExit(env = process.env) {
  const found = await findChromium(env);
  if ('path' in found) return found.path;
  console.error(found.error);
  process.exit(1);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(`browser tests use ${await chromiumOrExit()}`);
}
