import { readFileSync } from 'node:fs';
import type { Locator, Page } from '@playwright/test';
import { addDays } from '../../src/domain/dates';
import { apiAs, axeViolations, createUser, type E2EUser, expect, signIn, test } from './fixtures';

/**
 * /analytics against the real API: three tasks completed this week show in Throughput's table, its CSV holds the
 * same rows, every chart passes axe in both themes with its table open, the keyboard reaches every table, and the
 * scope in the URL survives a reload. One user, one seed, one signed-in page for the whole file.
 */

const CHARTS = [
  'Throughput',
  'Cycle time',
  'Cycle time distribution',
  'Burn-up',
  'Work in progress',
  'Workload',
  'Overdue trend',
] as const;

const section = (page: Page, name: string) => page.getByRole('region', { name, exact: true });
const showData = (scope: Locator) => scope.getByRole('button', { name: /^Show data/ });
const downloadCsv = (scope: Locator) => scope.getByRole('button', { name: /^Download CSV/ });

/** A table's header and rows as their text (textContent: the headers are upper-cased by CSS only). */
async function tableText(table: Locator): Promise<string[][]> {
  return table
    .locator('tr')
    .evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent?.trim() ?? '')));
}

/** The Monday of this week in UTC (the user has no time zone set, so the API counts in UTC). */
function thisMondayUtc(): string {
  const today = new Date().toISOString().slice(0, 10);
  return addDays(today, -((new Date().getUTCDay() + 6) % 7));
}

test.describe
  .serial('analytics', () => {
    let user: E2EUser;
    let teamId: string;
    let projectId: string;
    let page: Page;

    test.beforeAll(async ({ browser, request }) => {
      user = await createUser(request, { fullName: 'Ana Lytics' });
      const team = await apiAs<{ id: string }>(request, user, 'post', '/api/teams', { name: 'Chart Crew' });
      teamId = team.id;
      await apiAs(request, user, 'post', '/api/teams', { name: 'Other Crew' });
      const project = await apiAs<{ id: string }>(request, user, 'post', '/api/projects', {
        name: 'Orbit',
        teamId,
        status: 'active',
      });
      projectId = project.id;
      const create = (title: string, extra: Record<string, unknown> = {}) =>
        apiAs<{ id: string }>(request, user, 'post', '/api/tasks', { title, projectId: project.id, priority: 'high', ...extra });
      const move = (id: string, status: string) => apiAs(request, user, 'patch', `/api/tasks/${id}/status`, { status });
      for (const title of ['Chart one', 'Chart two', 'Chart three']) {
        const task = await create(title);
        await move(task.id, 'in_progress');
        await move(task.id, 'completed');
      }
      // Open work for the other charts: an overdue task in progress (ageing, workload) and an unassigned one.
      const today = new Date().toISOString().slice(0, 10);
      const late = await create('Late launch', { assigneeId: user.id, dueDate: addDays(today, -3), priority: 'urgent' });
      await move(late.id, 'in_progress');
      await create('Someday idea', { priority: 'low' });

      // A page of its own context: axe's builder needs one.
      page = await (await browser.newContext()).newPage();
      await signIn(page, user);
    });

    test.afterAll(async () => {
      await page.context().close();
    });

    test('Throughput shows the three tasks completed this week, and its CSV holds the same rows', async () => {
      await page.goto('/analytics');
      await expect(page).toHaveTitle('Analytics · Crewboard');
      const throughput = section(page, 'Throughput');
      await expect(throughput.getByRole('img')).toHaveAttribute('aria-label', /3 tasks completed/);

      const toggle = showData(throughput);
      await expect(toggle).toHaveAttribute('aria-expanded', 'false');
      await toggle.click();
      await expect(toggle).toHaveAttribute('aria-expanded', 'true');
      const table = throughput.getByRole('table', { name: 'Tasks completed per week' });
      await expect(table).toBeVisible();
      await expect(table.getByRole('row', { name: thisMondayUtc() })).toContainText('3');
      const shown = await tableText(table);
      expect(shown[0]).toEqual(['Week starting', 'Completed']);
      expect(shown).toHaveLength(13); // the header and 12 weeks
      expect(shown.at(-1)).toEqual([thisMondayUtc(), '3']);

      const [download] = await Promise.all([page.waitForEvent('download'), downloadCsv(throughput).click()]);
      expect(download.suggestedFilename()).toMatch(/^crewboard-throughput-\d{4}-\d{2}-\d{2}\.csv$/);
      const csv = readFileSync(await download.path(), 'utf8').replace(/^\uFEFF/, '');
      expect(csv.endsWith('\r\n')).toBe(true);
      expect(
        csv
          .slice(0, -2)
          .split('\r\n')
          .map((line) => line.split(',')),
      ).toEqual(shown);

      // Ageing links the open task to its page; Workload names the unassigned.
      await expect(section(page, 'Ageing').getByRole('link', { name: 'Late launch' })).toHaveAttribute(
        'href',
        /^\/tasks\/[0-9a-f-]{36}$/,
      );
      await showData(section(page, 'Workload')).click();
      await expect(section(page, 'Workload').getByRole('rowheader', { name: 'Unassigned' })).toBeVisible();
    });

    test('every chart with its table open has no WCAG A/AA violations, light and dark', async () => {
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await page.goto('/analytics');
        await expect(page.locator('html')).toHaveClass(scheme === 'dark' ? /\bdark\b/ : /^(?!.*\bdark\b)/);
        for (const name of CHARTS) {
          const chart = section(page, name);
          await expect(chart.getByRole('img')).toBeVisible();
          await showData(chart).click();
          await expect(chart.getByRole('table')).toBeVisible();
        }
        await expect(section(page, 'Ageing').getByRole('table')).toBeVisible();
        expect(await axeViolations(page), scheme).toEqual([]);
      }
      await page.emulateMedia({ colorScheme: 'light' });
    });

    test('Tab reaches every chart’s Show data and Download CSV, and Enter opens the table', async () => {
      await page.goto('/analytics');
      await expect(showData(section(page, 'Throughput'))).toBeVisible();
      const wanted = new Set([
        ...CHARTS.map((c) => `Show data of ${c}`),
        ...[...CHARTS, 'Ageing'].map((c) => `Download CSV of ${c}`),
      ]);
      const reached = new Set<string>();
      for (let i = 0; i < 80 && reached.size < wanted.size; i++) {
        await page.keyboard.press('Tab');
        const name = await page.evaluate(() => document.activeElement?.textContent?.trim() ?? '');
        if (wanted.has(name)) reached.add(name);
      }
      expect([...wanted].filter((name) => !reached.has(name))).toEqual([]);

      // Back to Throughput's toggle by keyboard alone, then open its table with Enter.
      const toggle = showData(section(page, 'Throughput'));
      for (let i = 0; i < 80 && !(await toggle.evaluate((el) => el === document.activeElement)); i++) {
        await page.keyboard.press('Shift+Tab');
      }
      await expect(toggle).toBeFocused();
      await page.keyboard.press('Enter');
      await expect(toggle).toHaveAttribute('aria-expanded', 'true');
      await expect(section(page, 'Throughput').getByRole('table')).toBeVisible();
    });

    test('Cumulative flow: a note without a project; with one, the chart and its table of statuses per day', async () => {
      await page.goto('/analytics');
      await expect(section(page, 'Cumulative flow')).toContainText('Pick a project in Scope to see its cumulative flow.');
      await page.goto(`/analytics?projectId=${projectId}&weeks=4`);
      const flow = section(page, 'Cumulative flow');
      await expect(flow.getByRole('img')).toHaveAttribute('aria-label', /Cumulative flow, stacked area chart/);
      await showData(flow).click();
      const table = flow.getByRole('table', { name: 'Tasks in each status at the end of each day' });
      await expect(table).toBeVisible();
      const shown = await tableText(table);
      expect(shown[0]).toEqual(['Day', 'To Do', 'In Progress', 'Review', 'Completed']);
      // Today (UTC): Someday idea to do, Late launch in progress, the three completed.
      expect(shown.at(-1)).toEqual([new Date().toISOString().slice(0, 10), '1', '1', '0', '3']);
      expect(shown[1]![0]).toBe(addDays(thisMondayUtc(), -21));
      await expect(downloadCsv(flow)).toBeVisible();
      expect(await axeViolations(page)).toEqual([]);
    });

    test('the scope lives in the URL: a reload keeps the team, the period and a custom range', async () => {
      await page.goto('/analytics');
      await page.getByLabel('Team', { exact: true }).selectOption({ label: 'Chart Crew' });
      await page.getByLabel('Period', { exact: true }).selectOption({ label: 'Last 4 weeks' });
      await expect(page).toHaveURL(new RegExp(`teamId=${teamId}`));
      await expect(page).toHaveURL(/weeks=4/);
      await page.reload();
      await expect(page.getByLabel('Team', { exact: true })).toHaveValue(teamId);
      await expect(page.getByLabel('Period', { exact: true })).toHaveValue('4');
      await showData(section(page, 'Throughput')).click();
      // The header and four weeks, this one with its three completions.
      await expect(section(page, 'Throughput').getByRole('row')).toHaveCount(5);
      await expect(section(page, 'Throughput').getByRole('row', { name: thisMondayUtc() })).toContainText('3');

      await page.getByLabel('Period', { exact: true }).selectOption({ label: 'Custom range' });
      await expect(page).toHaveURL(/from=\d{4}-\d{2}-\d{2}&to=\d{4}-\d{2}-\d{2}/);
      await expect(page).not.toHaveURL(/weeks=/);
      // A range that ends before it starts is refused where it is typed, and the URL keeps the last good one.
      const url = page.url();
      await page.getByLabel('From', { exact: true }).fill('2031-01-01');
      await expect(page.getByText('from must not be after to')).toBeVisible();
      expect(page.url()).toBe(url);
      await page.getByLabel('From', { exact: true }).fill('2026-01-05');
      await page.getByLabel('To', { exact: true }).fill('2026-02-01');
      await expect(page).toHaveURL(/from=2026-01-05&to=2026-02-01/);
      await page.reload();
      await expect(page.getByLabel('Period', { exact: true })).toHaveValue('custom');
      await expect(page.getByLabel('From', { exact: true })).toHaveValue('2026-01-05');
      await expect(page.getByLabel('To', { exact: true })).toHaveValue('2026-02-01');
      await expect(page.getByText('Jan 05 – Feb 01, 2026')).toBeVisible();
    });
  });
