import { mkdirSync } from 'node:fs';
import type { Page } from '@playwright/test';
import type { ProjectDto } from '../../src/domain/schemas/project';
import type { TaskDto } from '../../src/domain/schemas/task';
import type { TeamDto } from '../../src/domain/schemas/team';
import { apiAs, axeViolations, createUser, type E2EUser, expect, signIn, test } from './fixtures';

/**
 * The command palette (issue 23): Ctrl/Cmd+K, `/` or the top bar's search box; server results grouped by kind, the
 * commands that match, recent items; keyboard only; what another team holds never shows.
 */

const SHOTS = '/tmp/shots';
/** The speed probe's titles: one word each, sharing the prefix 'vex' (vexa … vext). */
const VEX = 'abcdefghijklmnopqrst'.split('').map((l) => `Vex${l}`);

const palette = (page: Page) => page.getByRole('dialog', { name: 'Search' });
const field = (page: Page) => palette(page).getByRole('combobox', { name: 'Search or type a command' });
const options = (page: Page) => palette(page).getByRole('option');

/** The app shell is there (the shortcuts listen from then on). */
const ready = (page: Page) => expect(page.getByPlaceholder('Search tasks, projects...')).toBeVisible();

async function start(page: Page, user: E2EUser) {
  await signIn(page, user);
  await ready(page);
}

interface World {
  olive: E2EUser;
  sid: E2EUser;
  task: TaskDto;
  secret: TaskDto;
}
let world: World;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ request }) => {
  const olive = await createUser(request, { fullName: 'Olive Owner' });
  const sid = await createUser(request, { fullName: 'Sid Stranger' });
  const team = await apiAs<TeamDto>(request, olive, 'post', '/api/teams', { name: 'Crew One' });
  const project = await apiAs<ProjectDto>(request, olive, 'post', '/api/projects', { name: 'Apollo', teamId: team.id });
  const task = await apiAs<TaskDto>(request, olive, 'post', '/api/tasks', {
    title: 'Quasar launch checklist',
    description: 'Count down from ten, then <b>go</b>.',
    projectId: project.id,
  });
  await apiAs(request, olive, 'post', '/api/tasks', { title: 'Fix login page', projectId: project.id });
  for (const title of VEX) await apiAs(request, olive, 'post', '/api/tasks', { title, projectId: project.id });
  // Another team's task with the same distinctive word.
  const elsewhere = await apiAs<TeamDto>(request, sid, 'post', '/api/teams', { name: 'Elsewhere' });
  const hidden = await apiAs<ProjectDto>(request, sid, 'post', '/api/projects', { name: 'Hidden', teamId: elsewhere.id });
  const secret = await apiAs<TaskDto>(request, sid, 'post', '/api/tasks', { title: 'Quasar secret plans', projectId: hidden.id });

  // The search route answers (another change builds it): without it, nothing below means anything.
  const probe = await request.get('/api/search?q=quasar', { headers: { authorization: `Bearer ${olive.accessToken}` } });
  expect(probe.status(), 'GET /api/search must answer').toBe(200);
  world = { olive, sid, task, secret };
});

test('Ctrl+K, part of a title: the task comes first, Enter opens it; another team’s task never shows', async ({
  browser,
  page,
}) => {
  const { olive, sid, task } = world;
  await start(page, olive);
  await page.keyboard.press('Control+k');
  await expect(field(page)).toBeFocused();
  await field(page).pressSequentially('quas');
  const first = options(page).first();
  await expect(first).toContainText('Quasar launch checklist');
  await expect(first).toHaveAttribute('aria-selected', 'true');
  // The match is marked, as text (the server's markers, never HTML).
  await expect(first.locator('mark').first()).toHaveText(/^quas/i);
  await expect(palette(page).getByText('Tasks', { exact: true })).toBeVisible();
  await expect(palette(page).getByRole('status')).toHaveText(/^\d+ results?$/);
  await expect(palette(page)).not.toContainText('secret');

  await page.keyboard.press('Enter');
  await expect(palette(page)).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`/tasks/${task.id}$`));
  await expect(page.getByRole('dialog', { name: 'Edit Task' }).getByLabel('Title')).toHaveValue('Quasar launch checklist');

  // With an empty field: the task is a recent item, above the commands.
  await page.keyboard.press('Escape');
  await expect(page).toHaveURL(/\/tasks$/);
  await page.keyboard.press('Control+k');
  await expect(options(page).first()).toContainText('Quasar launch checklist');
  await expect(options(page).filter({ hasText: 'Go to Dashboard' })).toBeVisible();
  await page.keyboard.press('Control+k');
  await expect(palette(page)).toBeHidden();

  // Sid, in another team, finds his own Quasar task and never Olive's.
  const sidContext = await browser.newContext();
  const sidPage = await sidContext.newPage();
  await start(sidPage, sid);
  await sidPage.getByPlaceholder('Search tasks, projects...').click();
  await field(sidPage).pressSequentially('quasar');
  await expect(options(sidPage).first()).toContainText('Quasar secret plans');
  await expect(palette(sidPage).getByRole('status')).toHaveText(/^\d+ results?$/);
  await expect(palette(sidPage)).not.toContainText('launch checklist');
  // Nor by the words of its description.
  await field(sidPage).fill('count down');
  await expect(palette(sidPage).getByRole('status')).toHaveText('No results');
  await sidContext.close();
});

test('keyboard only: `/` opens, arrows reach Go to Projects, Enter goes there; Escape closes and gives focus back', async ({
  page,
}) => {
  await start(page, world.olive);
  const nav = page.getByRole('navigation', { name: 'Main' });
  await nav.getByRole('link', { name: 'Teams' }).focus();
  await page.keyboard.press('/');
  await expect(field(page)).toBeFocused();
  const target = options(page).filter({ hasText: 'Go to Projects' });
  for (let i = 0; i < 30 && (await target.getAttribute('aria-selected')) !== 'true'; i++) {
    await page.keyboard.press('ArrowDown');
  }
  await expect(target).toHaveAttribute('aria-selected', 'true');
  await expect(field(page)).toHaveAttribute('aria-activedescendant', (await target.getAttribute('id')) ?? 'none');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/projects$/);
  await expect(palette(page)).toBeHidden();

  // Escape closes and focus returns where it was.
  const tasksLink = nav.getByRole('link', { name: 'Tasks' });
  await tasksLink.focus();
  await page.keyboard.press('/');
  await expect(field(page)).toBeFocused();
  await page.keyboard.type('dark');
  await expect(options(page).first()).toContainText('Dark theme');
  await page.keyboard.press('Escape');
  await expect(palette(page)).toBeHidden();
  await expect(tasksLink).toBeFocused();
  // A failed search says so (the commands stay), and Try again asks again.
  let failing = true;
  await page.route('**/api/search?*', (route) =>
    failing ? route.fulfill({ status: 400, json: { error: { code: 'validation_failed', message: 'No' } } }) : route.continue(),
  );
  await page.keyboard.press('/');
  await page.keyboard.type('quasar');
  await expect(palette(page).getByText('Search failed.')).toBeVisible();
  await expect(palette(page).getByRole('status')).toHaveText('Search failed');
  failing = false;
  await palette(page).getByRole('button', { name: 'Try again' }).click();
  await expect(options(page).first()).toContainText('Quasar launch checklist');
  await page.unroute('**/api/search?*');
  await page.keyboard.press('Escape');
  // Closed before Ctrl+K, as everywhere else in this test: once, with Ctrl+K sent at once after this Escape, the first
  // letters typed were lost (a CI rehearsal's field read 'roject').
  await expect(palette(page)).toBeHidden();

  // New Project and New Team open their forms on their pages.
  for (const [command, title, url] of [
    ['New Project', 'Create New Project', /\/projects$/],
    ['New Team', 'Create New Team', /\/teams$/],
  ] as const) {
    await page.keyboard.press('Control+k');
    // The field takes focus as the dialog opens: typing before that lost the first letter under load ('ew Project').
    await expect(field(page)).toBeFocused();
    await page.keyboard.type(command);
    await expect(options(page).first()).toContainText(command);
    await page.keyboard.press('Enter');
    const form = page.getByRole('dialog', { name: title });
    await expect(form).toBeVisible();
    await expect(page).toHaveURL(url);
    await form.getByRole('button', { name: 'Cancel' }).click();
    await expect(form).toBeHidden();
  }

  // `/` typed into a text field is a character, not the shortcut.
  await page.goto('/projects');
  await page.getByLabel('Search projects').pressSequentially('a/b');
  await expect(page.getByLabel('Search projects')).toHaveValue('a/b');
  await expect(palette(page)).toBeHidden();
});

test('axe: no violations with results shown, light and dark; screenshots at 1280 and 390 px', async ({ page }) => {
  mkdirSync(SHOTS, { recursive: true });
  await start(page, world.olive);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto('/tasks');
    await ready(page);
    await page.keyboard.press('Control+k');
    await field(page).pressSequentially('qua');
    await expect(options(page).first()).toContainText('Quasar launch checklist');
    await expect(palette(page).getByRole('status')).toHaveText(/^\d+ results?$/);
    expect(await axeViolations(page), `axe, palette with results (${scheme})`).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/palette-${scheme}.png` });
    await field(page).fill('');
    await expect(options(page).filter({ hasText: 'Go to Projects' })).toBeVisible();
    expect(await axeViolations(page), `axe, palette with an empty field (${scheme})`).toEqual([]);
    await page.keyboard.press('Escape');
  }
  // A phone: the sidebar starts folded away; the top bar's box opens the palette.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/tasks');
  await ready(page);
  await page.getByPlaceholder('Search tasks, projects...').click();
  await field(page).pressSequentially('vex');
  await expect(options(page).first()).toContainText(/Vex/);
  await page.screenshot({ path: `${SHOTS}/palette-390-dark.png` });
  const overflow = await palette(page).evaluate((el) => el.getBoundingClientRect().right - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});

test('speed: keystroke to updated results (median of 20, reported, not asserted)', async ({ page }) => {
  await start(page, world.olive);
  await page.keyboard.press('Control+k');
  const timings: number[] = [];
  for (let i = 0; i < 20; i++) {
    await field(page).fill('vex');
    await expect(palette(page).getByRole('status')).toHaveText(/^\d+ results?$/);
    const shown = ((await options(page).first().textContent()) ?? '').toLowerCase();
    const target = [...VEX.slice(i), ...VEX.slice(0, i)].map((t) => t.toLowerCase()).find((t) => !shown.startsWith(t))!;
    // Measured inside the page: from the key's keydown to the list whose first row is the new result. The listener is
    // in place before the key is sent (input events can overtake a script still on its way).
    await page.evaluate((expected) => {
      const input = document.querySelector<HTMLInputElement>('[cmdk-input]')!;
      const list = document.querySelector('[cmdk-list]')!;
      (window as unknown as { measured: Promise<number> }).measured = new Promise<number>((resolve) => {
        let start = 0;
        const observer = new MutationObserver(() => {
          const first = list.querySelector('[cmdk-item]')?.textContent?.toLowerCase() ?? '';
          if (start && first.startsWith(expected)) {
            observer.disconnect();
            resolve(performance.now() - start);
          }
        });
        observer.observe(list, { subtree: true, childList: true, characterData: true, attributes: true });
        input.addEventListener(
          'keydown',
          () => {
            start = performance.now();
          },
          { once: true, capture: true },
        );
      });
    }, target);
    await page.keyboard.press(target.slice(-1));
    const measured = page.evaluate(() => (window as unknown as { measured: Promise<number> }).measured);
    timings.push(await measured);
  }
  timings.sort((a, b) => a - b);
  const median = (timings[9]! + timings[10]!) / 2;
  const summary = `median ${median.toFixed(1)} ms, min ${timings[0]!.toFixed(1)}, max ${timings[19]!.toFixed(1)} (n=20)`;
  console.log(`palette keystroke → results: ${summary}`);
  test.info().annotations.push({ type: 'palette keystroke → results', description: summary });
});
