// The one place that decides which Chromium the browser tests (and the screenshots) drive, in this
// order: CHROMIUM_PATH; a chromium-headless-shell on the PATH (Debian's package of that name: the same
// Blink without the browser's window, what Playwright itself runs headless); a chromium /
// chromium-browser / google-chrome / google-chrome-stable on the PATH; the browser `npx playwright
// install chromium` put in Playwright's cache. Run on its own
// (`node scripts/find-chromium.mjs`) it prints the path, or one line on how to get a browser and
// exits 1, so `npm test` stops before any test when there is none.
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { pathToFileURL } from 'node:url';

const ON_PATH = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];

/**
 * Headless Chromium without the browser around it (no window, no tab strip, no profile UI): the end-to-end suite's
 * pages render in the same Blink at about a seventh less CPU (two spec files, 120 against 140 s of CPU on two cores).
 * Taken first when present; `{ headlessShell: false }` asks for the full browser (the cold-load measures, whose
 * figure is of a user's browser, and the test of the full browser's flags).
 */
const HEADLESS_SHELL = 'chromium-headless-shell';

export const HOW_TO_GET_ONE =
  'install one with `npx playwright install chromium` (or the system package: `apt-get install chromium`), or set CHROMIUM_PATH to a Chromium or Chrome executable';

/**
 * The features Playwright turns off at launch (playwright-core's chromiumSwitches.ts, as of 1.64). Chromium keeps the last
 * `--disable-features` it is given, so ours must repeat them; tests/tooling/find-chromium.test.ts fails when Playwright's
 * list gains one this lacks.
 */
export const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
];

/**
 * Each browser context of a headless Chromium 156 opens its own window, and each window two WebUI renderers for the
 * address bar's suggestion popups (chrome://omnibox-popup.top-chrome/) that a test never shows: about 0.8 s of CPU a
 * context, measured over 10 contexts (18-22 s of CPU with them, 10-12 s without). The end-to-end suite makes a few
 * hundred contexts on two cores.
 */
export const UNUSED_UI_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'];

/** Flags for Chromium in a container: no sandbox (no user namespaces), no GPU, nothing phoning home, no unused UI. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...UNUSED_UI_FEATURES].join(',')}`,
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
export async function findChromium(env = process.env, { headlessShell = true } = {}) {
  if (env.CHROMIUM_PATH) {
    if (isExecutable(env.CHROMIUM_PATH)) return { path: env.CHROMIUM_PATH };
    return {
      error: `No browser for the browser tests: CHROMIUM_PATH=${env.CHROMIUM_PATH} is not an executable file; ${HOW_TO_GET_ONE}.`,
    };
  }
  const dirs = (env.PATH ?? '').split(delimiter).filter(Boolean);
  if (headlessShell) {
    for (const dir of dirs) {
      const file = join(dir, HEADLESS_SHELL);
      if (isExecutable(file)) return { path: file };
    }
  }
  for (const dir of dirs) {
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
export async function chromiumOrExit(env = process.env, options = {}) {
  const found = await findChromium(env, options);
  if ('path' in found) return found.path;
  console.error(found.error);
  process.exit(1);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(`browser tests use ${await chromiumOrExit()}`);
}
