import { mkdirSync, readFileSync } from 'node:fs';
import type { Locator, Page } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import { addDays, localIsoDate } from '../../src/domain/dates';
import type { ProjectDto } from '../../src/domain/schemas/project';
import type { TaskDto } from '../../src/domain/schemas/task';
import { addMember, apiAs, axeViolations, createUser, type E2EUser, expect, signIn, test } from './fixtures';

/**
 * /timesheet (issue 39): time logged through the API shows as task rows × days with totals per day, per task and for
 * the week; a cell is edited in place (changed, created, emptied to delete, a wrong duration refused); 'Previous week' /
 * 'Next week'; 'Download CSV' (parsed with csv-parse); an owner picks a member of their team; axe in both themes and
 * at 390 px. Screenshots in /tmp/shots-E/.
 */

const SHOTS = '/tmp/shots-E';
mkdirSync(SHOTS, { recursive: true });

/** This week's Monday on the machine's calendar (the browser's, on the same machine). */
const today = localIsoDate();
const monday = addDays(today, -((new Date().getDay() + 6) % 7));

const grid = (page: Page) => page.getByRole('table', { name: /^Time logged by/ });
const cell = (page: Page, task: string, day: string) => page.getByRole('textbox', { name: new RegExp(`^${task}, ${day}`) });
const rowOf = (page: Page, task: string) =>
  grid(page)
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: task }) });

async function totals(page: Page): Promise<{ days: string[]; week: string }> {
  return {
    days: await grid(page).getByTestId('day-total').allInnerTexts(),
    week: (await grid(page).getByTestId('week-total').innerText()).replace(/^Total:\s*/, ''),
  };
}

async function expectTotals(page: Page, days: string[], week: string) {
  await expect(grid(page).getByTestId('day-total')).toHaveText(days);
  await expect(grid(page).getByTestId('week-total')).toHaveText(new RegExp(`${week}$`));
}

async function typeInto(target: Locator, text: string) {
  await target.click();
  await target.fill(text);
  await target.press('Enter');
}

async function checkAxe(page: Page, name: string) {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    expect(await axeViolations(page), `${name}, ${scheme}`).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/${name}-${scheme}.png`, fullPage: true });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/**
 * `week`: the Monday the entries are logged around (this week's by default). Its Tuesday and Wednesday are after today
 * on a Monday or Tuesday; a read that counts only up to today (the analytics) takes last week's.
 */
async function seed(request: Parameters<typeof createUser>[0], week = monday) {
  const owner = await createUser(request, { fullName: 'Olive Owner' });
  const mia = await createUser(request, { fullName: 'Mia Member' });
  const team = await apiAs<{ id: string }>(request, owner, 'post', '/api/teams', { name: 'Time Crew' });
  await addMember(request, owner, team.id, mia);
  const project = await apiAs<ProjectDto>(request, owner, 'post', '/api/projects', { name: 'Billing', teamId: team.id });
  const task = (title: string) => apiAs<TaskDto>(request, owner, 'post', '/api/tasks', { title, projectId: project.id });
  const report = await task('Write the report');
  const client = await task('Call the client');
  const log = (user: E2EUser, taskId: string, date: string, minutes: number, note?: string) =>
    apiAs(request, user, 'post', `/api/tasks/${taskId}/time-entries`, { date, minutes, ...(note ? { note } : {}) });
  await log(owner, report.id, week, 90, 'Draft, "first" pass');
  await log(owner, report.id, addDays(week, 1), 30);
  await log(owner, client.id, week, 60);
  await log(owner, report.id, addDays(week, -5), 45); // the Wednesday before
  await log(mia, client.id, addDays(week, 2), 120);
  return { owner, mia, team, report };
}

test('the week as a grid: totals, edits in place, the weeks around it, the CSV, a member’s week, axe', async ({
  page,
  request,
}) => {
  const { owner } = await seed(request);
  await signIn(page, owner);

  // Reached from My work.
  await page.goto('/my-work');
  await page.getByRole('link', { name: 'Timesheet' }).click();
  await expect(page).toHaveURL(/\/timesheet$/);
  await expect(page.getByRole('heading', { name: 'Timesheet', level: 1 })).toBeVisible();

  // Rows by task, a column per day; Monday 1h 30m + 1h, Tuesday 30m.
  await expect(rowOf(page, 'Write the report').getByTestId('task-total')).toHaveText('2h');
  await expect(rowOf(page, 'Call the client').getByTestId('task-total')).toHaveText('1h');
  await expectTotals(page, ['2h 30m', '30m', '0m', '0m', '0m', '0m', '0m'], '3h');
  await expect(cell(page, 'Write the report', 'Monday')).toHaveValue('1h 30m');
  await checkAxe(page, 'timesheet');

  // Changed in place: 1h 30m → 1h.
  await typeInto(cell(page, 'Write the report', 'Monday'), '1h');
  await expect(rowOf(page, 'Write the report').getByTestId('task-total')).toHaveText('1h 30m');
  await expectTotals(page, ['2h', '30m', '0m', '0m', '0m', '0m', '0m'], '2h 30m');
  // Created in an empty cell ('1.5h'), then another emptied (deleted).
  await typeInto(cell(page, 'Call the client', 'Wednesday'), '1.5h');
  await expectTotals(page, ['2h', '30m', '1h 30m', '0m', '0m', '0m', '0m'], '4h');
  await typeInto(cell(page, 'Call the client', 'Monday'), '');
  await expectTotals(page, ['1h', '30m', '1h 30m', '0m', '0m', '0m', '0m'], '3h');
  await expect(rowOf(page, 'Call the client').getByTestId('task-total')).toHaveText('1h 30m');
  // A wrong duration is refused, said, and Escape puts the cell back.
  const tuesday = cell(page, 'Write the report', 'Tuesday');
  await typeInto(tuesday, 'soon');
  await expect(page.getByRole('alert')).toContainText('Enter a duration such as 1h 30m, 90m or 1.5h');
  await expect(tuesday).toHaveAttribute('aria-invalid', 'true');
  await tuesday.press('Escape');
  await expect(tuesday).toHaveValue('30m');
  await expect(page.getByRole('alert')).toHaveCount(0);
  // What was saved survives a reload.
  await page.reload();
  await expectTotals(page, ['1h', '30m', '1h 30m', '0m', '0m', '0m', '0m'], '3h');

  // 'Download CSV': the shown week, parsed by csv-parse.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download CSV' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`timesheet-olive-owner-${monday}.csv`);
  const records = parse(readFileSync(await download.path(), 'utf8'), { bom: true }) as string[][];
  expect(records[0]).toEqual(['date', 'person', 'team', 'project', 'task', 'minutes', 'hours', 'note']);
  expect(records.slice(1)).toEqual([
    [monday, 'Olive Owner', 'Time Crew', 'Billing', 'Write the report', '60', '1', 'Draft, "first" pass'],
    [addDays(monday, 1), 'Olive Owner', 'Time Crew', 'Billing', 'Write the report', '30', '0.5', ''],
    [addDays(monday, 2), 'Olive Owner', 'Time Crew', 'Billing', 'Call the client', '90', '1.5', ''],
  ]);

  // The weeks around it.
  await page.getByRole('button', { name: 'Previous week' }).click();
  await expect(page).toHaveURL(new RegExp(`week=${addDays(monday, -7)}`));
  await expectTotals(page, ['0m', '0m', '45m', '0m', '0m', '0m', '0m'], '45m');
  await page.getByRole('button', { name: 'Next week' }).click();
  await page.getByRole('button', { name: 'Next week' }).click();
  await expect(page.getByRole('heading', { name: 'No time logged this week' })).toBeVisible();
  await checkAxe(page, 'timesheet-empty');
  await page.getByRole('button', { name: 'This week' }).click();
  await expectTotals(page, ['1h', '30m', '1h 30m', '0m', '0m', '0m', '0m'], '3h');

  // An owner picks a member of their team: Mia's week, her entry changeable, no new entries in her name.
  await page.getByLabel('Team', { exact: true }).selectOption({ label: 'Time Crew' });
  await page.getByLabel('Person', { exact: true }).selectOption({ label: 'Mia Member' });
  await expect(page.getByText("Mia Member's time this week, by task and day.")).toBeVisible();
  await expectTotals(page, ['0m', '0m', '2h', '0m', '0m', '0m', '0m'], '2h');
  await expect(cell(page, 'Call the client', 'Wednesday')).toBeEditable();
  await expect(cell(page, 'Call the client', 'Thursday')).toBeDisabled();
  await typeInto(cell(page, 'Call the client', 'Wednesday'), '1h 45m');
  await expectTotals(page, ['0m', '0m', '1h 45m', '0m', '0m', '0m', '0m'], '1h 45m');
  await checkAxe(page, 'timesheet-member');

  // 390 px: the grid scrolls sideways inside its box, the page does not.
  await page.getByLabel('Team', { exact: true }).selectOption({ label: 'My time (all teams)' });
  await page.setViewportSize({ width: 390, height: 844 });
  // Opened at that width, as a phone would (the sidebar starts closed).
  await page.reload();
  await expectTotals(page, ['1h', '30m', '1h 30m', '0m', '0m', '0m', '0m'], '3h');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  const box = page.getByRole('region', { name: /^Time logged by/ });
  expect(await box.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
  await checkAxe(page, 'timesheet-390');
  expect(await totals(page)).toEqual({ days: ['1h', '30m', '1h 30m', '0m', '0m', '0m', '0m'], week: '3h' });
});

test('the user menu leads to the timesheet; keyboard alone edits a cell', async ({ page, request }) => {
  const { owner } = await seed(request);
  await signIn(page, owner);
  await page.getByRole('button', { name: 'User menu' }).click();
  await page.getByRole('menuitem', { name: 'Timesheet' }).click();
  await expect(page).toHaveURL(/\/timesheet$/);
  const target = cell(page, 'Write the report', 'Tuesday');
  await expect(target).toHaveValue('30m');
  await target.focus();
  await page.keyboard.type('45m');
  await page.keyboard.press('Tab');
  await expect(rowOf(page, 'Write the report').getByTestId('task-total')).toHaveText('2h 15m');
  await expect(page.getByRole('status').filter({ hasText: /^Saved: 45m, Write the report, Tuesday/ })).toBeAttached();
  // Enter, then Tab at once: one entry, not two.
  const thursday = cell(page, 'Write the report', 'Thursday');
  await thursday.focus();
  await page.keyboard.type('2h');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  await expect(rowOf(page, 'Write the report').getByTestId('task-total')).toHaveText('4h 15m');
  await page.reload();
  await expect(rowOf(page, 'Write the report').getByTestId('task-total')).toHaveText('4h 15m');
  await expect(cell(page, 'Write the report', 'Thursday')).toHaveValue('2h');
});

test('Analytics: time logged per week by person or project, and estimate vs actual', async ({ page, request }) => {
  // Logged last week and the week before: the chart counts up to today, and this week's Tuesday and Wednesday are
  // after a Monday (a rehearsal run on a Monday found 3h 15m).
  const { owner, team, report } = await seed(request, addDays(monday, -7));
  // Estimated at 1h, 2h 45m logged (1h 30m + 30m one week, 45m the week before): 2.75× the estimate.
  await apiAs(request, owner, 'patch', `/api/tasks/${report.id}`, { estimateMinutes: 60, version: report.version });
  await apiAs(request, owner, 'patch', `/api/tasks/${report.id}/status`, { status: 'completed' });

  await signIn(page, owner);
  await page.goto(`/analytics?teamId=${team.id}&weeks=4`);
  const logged = page.getByRole('region', { name: 'Time logged', exact: true });
  await expect(logged.getByRole('img')).toHaveAttribute(
    'aria-label',
    /by person: 5h 45m logged .*\(Olive Owner 3h 45m, Mia Member 2h\)/,
  );
  await logged.getByLabel('Split time by').selectOption({ label: 'Project' });
  await expect(logged.getByRole('img')).toHaveAttribute('aria-label', /by project: 5h 45m logged .*\(Billing 5h 45m\)/);
  await logged.getByRole('button', { name: /^Show data/ }).click();
  await expect(logged.getByRole('table')).toContainText('Billing');

  const estimates = page.getByRole('region', { name: 'Estimate vs actual', exact: true });
  await expect(estimates).toContainText('1 task: 2h 45m logged against 1h estimated; median ratio 2.75×');
  await expect(estimates.getByRole('row', { name: /Write the report/ })).toContainText('2.75×');
  await logged.scrollIntoViewIfNeeded();
  await checkAxe(page, 'analytics-time');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(estimates).toContainText('median ratio 2.75×');
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
  ).toBeLessThanOrEqual(0);
  await estimates.scrollIntoViewIfNeeded();
  await checkAxe(page, 'analytics-time-390');
});
