import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { longDayLabel } from '../../src/domain/calendar';
import type { ProjectDto } from '../../src/domain/schemas/project';
import type { TaskDto } from '../../src/domain/schemas/task';
import { apiAs, axeViolations, type E2EUser, expect, gate, seedCrew, signIn, test } from './fixtures';

/**
 * The calendar (issue 23): one team, one sign-in and one page for the whole file (serial), every task seeded through
 * the API in a month of its own (March 2031), so that no test depends on today's date.
 */
const MONTH = '2031-03-15';
const at = (day: number) => `2031-03-${String(day).padStart(2, '0')}`;

/** A day's cell, found by the heading that names it in full ('Wednesday, March 12, 2031'). */
const day = (page: Page, date: string) =>
  page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: longDayLabel(date), exact: true }) });
/** A task's chip in a day: its name starts with the title (status and priority follow). */
const chip = (scope: Locator, title: string) => scope.getByRole('button', { name: new RegExp(`^${title}\\b`) });

test.describe.configure({ mode: 'serial' });

let page: Page;
let api: APIRequestContext;
let owner: E2EUser;
let project: ProjectDto;
const taskIds = new Map<string, string>();

const seedTask = async (title: string, dueDate: string, extra: Record<string, unknown> = {}) => {
  const task = await apiAs<TaskDto>(api, owner, 'post', '/api/tasks', { title, projectId: project.id, dueDate, ...extra });
  taskIds.set(title, task.id);
  return task;
};
const dueDateOf = async (title: string) => (await apiAs<TaskDto>(api, owner, 'get', `/api/tasks/${taskIds.get(title)}`)).dueDate;

test.beforeAll(async ({ browser, playwright }, testInfo) => {
  const baseURL = testInfo.project.use.baseURL;
  api = await playwright.request.newContext({ baseURL });
  const crew = await seedCrew(api);
  owner = crew.owner;
  project = await apiAs<ProjectDto>(api, owner, 'post', '/api/projects', { name: 'Apollo', teamId: crew.team.id });
  await seedTask('Mouse mover', at(11), { priority: 'high' });
  await seedTask('Keyboard mover', at(18), { status: 'in_progress', priority: 'urgent' });
  for (let i = 1; i <= 6; i++) await seedTask(`Busy ${i}`, at(5), { status: i === 6 ? 'completed' : 'todo' });
  // A page of its own context (axe's Playwright binding asks for one), in a zone behind UTC: a due date read as UTC
  // midnight would show on the day before.
  page = await (await browser.newContext({ baseURL, timezoneId: 'Pacific/Honolulu' })).newPage();
  await signIn(page, owner);
});

test.afterAll(async () => {
  await page?.context().close();
  await api?.dispose();
});

async function openMonth(view: 'month' | 'week' = 'month', date = MONTH) {
  await page.goto(`/calendar?view=${view}&date=${date}`);
  await expect(page.getByRole('heading', { name: 'Calendar', level: 1 })).toBeVisible();
  await expect(page.locator('main .animate-pulse')).toHaveCount(0);
}

test('month view: title, navigation in the URL, tasks on their due dates, +N more', async () => {
  await openMonth();
  await expect(page).toHaveTitle(/^Calendar/);
  await expect(page.getByRole('heading', { name: 'March 2031', level: 2 })).toBeVisible();
  await expect(chip(day(page, at(11)), 'Mouse mover')).toBeVisible();
  await expect(chip(day(page, at(18)), 'Keyboard mover')).toContainText('Keyboard mover');
  // Realtime: a task added elsewhere appears without a reload.
  await seedTask('Added elsewhere', at(7));
  await expect(chip(day(page, at(7)), 'Added elsewhere')).toBeVisible();

  // Six tasks on the 5th: two shown, '+4 more' opens the whole list.
  const busy = day(page, at(5));
  await expect(busy.getByTestId('calendar-task')).toHaveCount(2);
  await busy.getByRole('button', { name: `+4 more tasks on ${longDayLabel(at(5))}` }).click();
  const dialog = page.getByRole('dialog', { name: longDayLabel(at(5)) });
  await expect(dialog.getByText('6 tasks due')).toBeVisible();
  await expect(dialog.getByRole('link')).toHaveCount(6);
  await expect(dialog.getByRole('link', { name: /^Busy 6\b/ })).toHaveAttribute('href', `/tasks/${taskIds.get('Busy 6')}`);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  // Next / Previous move a month and keep it in the URL; the week view shows one week.
  await page.getByRole('button', { name: 'Next month' }).click();
  await expect(page.getByRole('heading', { name: 'April 2031', level: 2 })).toBeVisible();
  await expect(page).toHaveURL(/date=2031-04-15/);
  await page.getByRole('button', { name: 'Previous month' }).click();
  await page.getByRole('button', { name: 'Week', exact: true }).click();
  await expect(page).toHaveURL(/view=week/);
  await expect(page.getByTestId('calendar-day')).toHaveCount(7);
  await page.reload();
  await expect(page.getByRole('button', { name: 'Week', exact: true })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('calendar-day')).toHaveCount(7);
});

test('a task dragged to another day with the mouse keeps its new date after a reload', async () => {
  await openMonth();
  const from = await chip(day(page, at(11)), 'Mouse mover').boundingBox();
  const to = await day(page, at(13)).boundingBox();
  await page.mouse.move(from!.x + from!.width / 2, from!.y + from!.height / 2);
  await page.mouse.down();
  await page.mouse.move(from!.x + from!.width / 2 + 15, from!.y + 10, { steps: 5 });
  await page.mouse.move(to!.x + to!.width / 2, to!.y + to!.height / 2, { steps: 15 });
  await page.mouse.up();
  await expect(chip(day(page, at(13)), 'Mouse mover')).toBeVisible();
  await expect(chip(day(page, at(11)), 'Mouse mover')).toHaveCount(0);
  await expect.poll(() => dueDateOf('Mouse mover')).toBe(at(13));
  await page.reload();
  await expect(chip(day(page, at(13)), 'Mouse mover')).toBeVisible();
  // The drag did not open the task.
  await expect(page).toHaveURL(/\/calendar/);
});

/** Space picks the focused chip up (pressed again if the press was lost), the arrows move it, Space drops it. */
/**
 * Picks the chip up with Space, presses each key and waits for the announcement of the day it is over before the next
 * (a key pressed before the last move registered would be lost), then drops it with Space. A failed attempt is
 * cancelled with Escape and made again from the start.
 */
async function keyboardMove(title: string, from: string, steps: [key: string, over: string][]) {
  await expect(async () => {
    const target = chip(day(page, from), title);
    try {
      await target.focus();
      await page.keyboard.press('Space');
      await expect(target).toHaveAttribute('aria-pressed', 'true', { timeout: 2_000 });
      for (const [key, over] of steps) {
        await page.keyboard.press(key);
        await expect(page.getByText(`Task ${title} is over ${longDayLabel(over)}.`)).toBeAttached({ timeout: 2_000 });
      }
    } catch (error) {
      await page.keyboard.press('Escape');
      throw error;
    }
  }).toPass({ timeout: 30_000 });
  await page.keyboard.press('Space');
}

test('by keyboard: pick up, move a day and a week, drop; it stays after a reload; a failed save puts it back', async () => {
  await openMonth();
  // Right a day, down a week: the 18th to the 26th.
  await keyboardMove('Keyboard mover', at(18), [
    ['ArrowRight', at(19)],
    ['ArrowDown', at(26)],
  ]);
  await expect(chip(day(page, at(26)), 'Keyboard mover')).toBeVisible();
  await expect(page.getByText(`Moved task Keyboard mover to ${longDayLabel(at(26))}.`)).toBeAttached();
  // Focus follows the task to its new day.
  await expect(chip(day(page, at(26)), 'Keyboard mover')).toBeFocused();
  await expect.poll(() => dueDateOf('Keyboard mover')).toBe(at(26));
  await page.reload();
  await expect(chip(day(page, at(26)), 'Keyboard mover')).toBeVisible();
  await expect(chip(day(page, at(18)), 'Keyboard mover')).toHaveCount(0);

  // A failed save: the move shows at once (the answer waits until the test has seen it), then the task goes back.
  const answer = gate();
  await page.route('**/api/tasks/*', async (route) => {
    if (route.request().method() !== 'PATCH') return route.fallback();
    await answer.passed;
    await route.fulfill({
      status: 500,
      contentType: 'application/json',
      body: JSON.stringify({ error: { code: 'internal', message: 'Internal server error' } }),
    });
  });
  await keyboardMove('Keyboard mover', at(26), [['ArrowLeft', at(25)]]);
  await expect(chip(day(page, at(25)), 'Keyboard mover')).toBeVisible();
  answer.open();
  await expect(page.getByText('Failed to change the due date')).toBeVisible();
  await expect(page.getByText(/"Keyboard mover" was not moved\. It is back on Wed, Mar 26\./)).toBeVisible();
  await expect(chip(day(page, at(26)), 'Keyboard mover')).toBeVisible();
  await expect(chip(day(page, at(25)), 'Keyboard mover')).toHaveCount(0);
  await page.unroute('**/api/tasks/*');
  expect(await dueDateOf('Keyboard mover')).toBe(at(26));
});

test("a day's add button opens New Task with that due date; the task appears on that day", async () => {
  await openMonth();
  const label = longDayLabel(at(20));
  await day(page, at(20))
    .getByRole('button', { name: `Add task on ${label}` })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Create New Task' });
  await expect(dialog.getByLabel('Due Date')).toHaveValue(at(20));
  await dialog.getByLabel('Title').fill('Planned on the calendar');
  await dialog.getByRole('button', { name: 'Create Task' }).click();
  await expect(dialog).toBeHidden();
  await expect(chip(day(page, at(20)), 'Planned on the calendar')).toBeVisible();
  // A chip opens the task over the board; closing it comes back here.
  await chip(day(page, at(20)), 'Planned on the calendar').click();
  await expect(page).toHaveURL(/\/tasks\/[0-9a-f-]{36}/);
  await expect(page.getByRole('dialog', { name: 'Edit Task' }).getByLabel('Title')).toHaveValue('Planned on the calendar');
  await page.keyboard.press('Escape');
  await expect(page).toHaveURL(/\/calendar\?view=month&date=2031-03-15/);
});

for (const scheme of ['light', 'dark'] as const) {
  test(`month and week views have no WCAG A/AA violations (${scheme})`, async () => {
    await page.emulateMedia({ colorScheme: scheme });
    for (const view of ['month', 'week'] as const) {
      // The week of the 5th holds '+N more', a completed task and several priorities.
      await openMonth(view, at(5));
      await expect(page.getByTestId('calendar-task').first()).toBeVisible();
      expect(await axeViolations(page), `${view} (${scheme})`).toEqual([]);
    }
    await page.emulateMedia({ colorScheme: 'light' });
  });
}

test('at 390 px an agenda list of the days with tasks replaces the grid, and nothing overflows sideways', async () => {
  await page.setViewportSize({ width: 390, height: 844 });
  try {
    await openMonth();
    const agenda = page.getByTestId('calendar-agenda');
    await expect(agenda).toBeVisible();
    await expect(page.getByTestId('calendar-grid')).toHaveCount(0);
    const days = agenda.getByRole('heading', { level: 3 });
    // Days with tasks only, in order.
    await expect(days).toHaveText([/Mar 5/, /Mar 7/, /Mar 13/, /Mar 20/, /Mar 26/]);
    await expect(agenda.getByRole('link', { name: /^Keyboard mover\b/ })).toBeVisible();
    const overflow = await page.evaluate(() =>
      [document.documentElement, document.querySelector('main')!].map((el) => el.scrollWidth - el.clientWidth),
    );
    expect(overflow).toEqual([0, 0]);
    expect(await axeViolations(page)).toEqual([]);
  } finally {
    await page.setViewportSize({ width: 1280, height: 720 });
  }
});
