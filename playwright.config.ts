import { defineConfig, devices } from '@playwright/test';
import { CHROMIUM_ARGS, chromiumOrExit } from './scripts/find-chromium.mjs';

const port = Number(process.env.E2E_PORT || 3100);
export const baseURL = `http://127.0.0.1:${port}`;

/**
 * The browser scripts/find-chromium.mjs finds (CHROMIUM_PATH, the PATH, Playwright's cache). With
 * none, the run stops here with one line on how to get one: before the web server and any test.
 * The perf specs (TASKS_PERF, TIMELINE_PERF) time what a user's browser does, so they drive the full
 * browser; the rest take the headless shell when it is installed.
 */
const measuring = Boolean(process.env.TASKS_PERF || process.env.TIMELINE_PERF);
export const chromiumLaunch = {
  executablePath: await chromiumOrExit(process.env, { headlessShell: !measuring }),
  args: CHROMIUM_ARGS,
};

export default defineConfig({
  testDir: 'tests/e2e',
  // Generous: CI shares two cores between the server, PostgreSQL and two browsers.
  timeout: 120_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: process.env.CI ? 2 : 2,
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL,
    // Recording a trace costs the page a DOM snapshot at every action; record only the retry of a failure.
    trace: 'on-first-retry',
    screenshot: 'only-on-failure',
    launchOptions: chromiumLaunch,
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], launchOptions: chromiumLaunch } }],
  webServer: {
    command: 'node scripts/e2e-server.mjs',
    url: `${baseURL}/api/health`,
    timeout: 120_000,
    reuseExistingServer: false,
    env: { E2E_PORT: String(port) },
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
