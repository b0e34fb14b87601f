import type { APIRequestContext, Page } from '@playwright/test';
import { longDayLabel } from '../../src/domain/calendar';
import type { ProjectDto } from '../../src/domain/schemas/project';
import type { TaskDto } from '../../src/domain/schemas/task';
import { apiAs, axeViolations, type E2EUser, expect, seedCrew, signIn, test } from './fixtures';

/**
 * Start dates (issue 37 step 5): the task form's 'Start Date' and its refusal of a start after the due date, the list's
 * column, and a task spanning its days on the calendar (March 2031, so that nothing depends on today). One team, one
 * sign-in and one page for the file (serial).
 */
const at = (day: number) => `2031-03-${String(day).padStart(2, '0')}`;
const SHOTS = process.env.START_DATES_SHOTS;

test.describe.configure({ mode: 'serial' });

let page: Page;
let api: APIRequestContext;
let owner: E2EUser;
let project: ProjectDto;

const day = (date: string) =>
  page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: longDayLabel(date), exact: true }) });
const spans = (taskId: string) => page.locator(`[data-testid="calendar-span"][data-task-id="${taskId}"]`);

test.beforeAll(async ({ browser, playwright }, testInfo) => {
  const baseURL = testInfo.project.use.baseURL;
  api = await playwright.request.newContext({ baseURL });
  const crew = await seedCrew(api);
  owner = crew.owner;
  project = await apiAs<ProjectDto>(api, owner, 'post', '/api/projects', { name: 'Apollo', teamId: crew.team.id });
  page = await (await browser.newContext({ baseURL })).newPage();
  await signIn(page, owner);
});

test.afterAll(async () => {
  await page?.context().close();
  await api?.dispose();
});

test('the form takes a start date beside the due date and refuses one after it, under the field', async () => {
  await page.goto(`/tasks?project=${project.id}`);
  await page.getByRole('button', { name: 'New Task' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create New Task' });
  await dialog.getByLabel('Title').fill('Span from the form');
  const start = dialog.getByLabel('Start Date');
  await start.fill(at(10));
  await dialog.getByLabel('Due Date').fill(at(8));
  // The rule is told as soon as both dates are set, on the start date's field.
  await expect(start).toHaveAttribute('aria-invalid', 'true');
  await expect(start).toHaveAccessibleDescription('Start date must be on or before the due date');
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    expect(await axeViolations(page, '[role="dialog"]'), scheme).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  if (SHOTS) await dialog.screenshot({ path: `${SHOTS}/form-refusal.png` });
  // Saving with the refusal shown sends nothing: the dialog stays.
  await dialog.getByRole('button', { name: 'Create Task' }).click();
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText('Start date must be on or before the due date')).toBeVisible();
  await dialog.getByLabel('Due Date').fill(at(12));
  await expect(start).not.toHaveAttribute('aria-invalid', 'true');
  await dialog.getByRole('button', { name: 'Create Task' }).click();
  await expect(dialog).toBeHidden();
  const { tasks } = await apiAs<{ tasks: TaskDto[] }>(
    api,
    owner,
    'get',
    `/api/tasks?projectId=${project.id}&q=Span from the form`,
  );
  expect(tasks.map((t) => [t.startDate, t.dueDate])).toEqual([[at(10), at(12)]]);
});

test("a task's page edits its start date in place, in the same form", async () => {
  const task = await apiAs<TaskDto>(api, owner, 'post', '/api/tasks', {
    title: 'Edited span',
    projectId: project.id,
    startDate: at(3),
    dueDate: at(6),
  });
  await page.goto(`/tasks/${task.id}`);
  const dialog = page.getByRole('dialog', { name: 'Edit Task' });
  await expect(dialog.getByLabel('Start Date')).toHaveValue(at(3));
  await dialog.getByLabel('Start Date').fill(at(5));
  await dialog.getByRole('button', { name: 'Update Task' }).click();
  await expect(dialog).toBeHidden();
  expect((await apiAs<TaskDto>(api, owner, 'get', `/api/tasks/${task.id}`)).startDate).toBe(at(5));
});

test("the list has a sortable 'Start Date' column, nulls last", async () => {
  await apiAs(api, owner, 'post', '/api/tasks', { title: 'No start', projectId: project.id, dueDate: at(1) });
  await page.goto(`/tasks?project=${project.id}&view=list`);
  const table = page.getByRole('table');
  await table.getByRole('button', { name: 'Start Date' }).click();
  await expect(page).toHaveURL(/sort=start&dir=asc/);
  const rows = table.getByRole('row');
  await expect(rows.nth(1)).toContainText('Edited span');
  await expect(rows.nth(1)).toContainText('Mar 05, 2031');
  await expect(rows.nth(2)).toContainText('Span from the form');
  await expect(rows.last()).toContainText('No start date');
  await expect(table.getByRole('columnheader', { name: 'Start Date' })).toHaveAttribute('aria-sort', 'ascending');
  // The filter: 'Not set' leaves only the task without a start date.
  await page.getByRole('button', { name: 'More Filters' }).click();
  await page.getByLabel('Start Date', { exact: true }).selectOption('none');
  await expect(page).toHaveURL(/start=none/);
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(1)).toContainText('No start');
  await page.getByRole('button', { name: 'Remove filter Start date: Not set' }).click();
  await expect(rows).toHaveCount(4);
});

test('the calendar draws a task with both dates across its days, continued across week rows', async () => {
  const span = await apiAs<TaskDto>(api, owner, 'post', '/api/tasks', {
    title: 'Launch window',
    projectId: project.id,
    startDate: at(13),
    dueDate: at(24),
    priority: 'high',
  });
  await apiAs(api, owner, 'post', '/api/tasks', { title: 'Due only', projectId: project.id, dueDate: at(13) });
  // Sunday-first and Monday-first locales cut the same span into different rows: a row starts on the 9th or the 10th,
  // the 16th or 17th, the 23rd or 24th. Either way the 13th–24th crosses three rows.
  await page.goto('/calendar?date=2031-03-15');
  await expect(page.locator('main .animate-pulse')).toHaveCount(0);
  await expect(spans(span.id)).toHaveCount(3);
  // One of them (the first) is a button named by the task and its days; the others repeat it for the eye.
  const bar = page.getByRole('button', { name: /^Launch window\b.*Thursday, March 13, 2031 to Monday, March 24, 2031/ });
  await expect(bar).toHaveCount(1);
  await expect(day(at(13)).getByTestId('calendar-span')).toHaveCount(1);
  // A task with only a due date stays a chip on its day.
  await expect(day(at(13)).getByTestId('calendar-task')).toHaveText(/Due only/);
  // The bar covers the days up to the end of its row: as wide as the cells it crosses.
  const first = await spans(span.id).first().boundingBox();
  const cell13 = await day(at(13)).boundingBox();
  expect(first!.x).toBeGreaterThanOrEqual(cell13!.x);
  expect(first!.width).toBeGreaterThan(cell13!.width * 1.5);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    expect(await axeViolations(page), scheme).toEqual([]);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/calendar-month-${scheme}.png`, fullPage: true });
  }
  await page.emulateMedia({ colorScheme: 'light' });
  // The week view: the bar across the week's days.
  await page.goto('/calendar?view=week&date=2031-03-19');
  await expect(spans(span.id)).toHaveCount(1);
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/calendar-week-light.png`, fullPage: true });
  // Enter on the bar opens the task.
  await page.goto('/calendar?date=2031-03-15');
  await bar.focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/tasks/${span.id}`));
  await expect(page.getByRole('dialog', { name: 'Edit Task' }).getByLabel('Start Date')).toHaveValue(at(13));
});

test('at 390 px the agenda lists the span under its first day, with its days', async () => {
  await page.setViewportSize({ width: 390, height: 844 });
  try {
    await page.goto('/calendar?date=2031-03-15');
    const agenda = page.getByTestId('calendar-agenda');
    await expect(agenda).toBeVisible();
    const day13 = agenda.getByRole('listitem').filter({ has: page.getByRole('heading', { name: longDayLabel(at(13)) }) });
    await expect(day13.getByRole('link', { name: /^Launch window\b/ })).toContainText('Thu, Mar 13 – Mon, Mar 24');
    const overflow = await page.evaluate(() =>
      [document.documentElement, document.querySelector('main')!].map((el) => el.scrollWidth - el.clientWidth),
    );
    expect(overflow).toEqual([0, 0]);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      expect(await axeViolations(page), scheme).toEqual([]);
      if (SHOTS) await page.screenshot({ path: `${SHOTS}/calendar-390-${scheme}.png`, fullPage: true });
    }
  } finally {
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1280, height: 720 });
  }
});
