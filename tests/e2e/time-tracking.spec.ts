import { mkdirSync } from 'node:fs';
import type { APIRequestContext, Page } from '@playwright/test';
import type { ProjectDto } from '../../src/domain/schemas/project';
import type { TaskDto } from '../../src/domain/schemas/task';
import type { StartTimerDto } from '../../src/domain/schemas/time';
import { apiAs, axeViolations, card, column, expect, seedCrew, signIn, test } from './fixtures';

/**
 * Time tracking on the task page, the card, the top bar and team settings (issue 39): a timer started, still there
 * after a reload, stopped under a minute ('Less than a minute: nothing logged'); time logged by hand; the totals on the
 * task and on its card; the team's estimate unit. A timer that logs whole minutes is shown by the integration tests
 * (tests/integration/time-tracking*.test.ts): the e2e server's database is not reachable from here to set a start
 * back, and a test waiting a minute is not worth it.
 */

const SHOTS = '/tmp/shots-D';
mkdirSync(SHOTS, { recursive: true });

const taskDialog = (page: Page) => page.getByRole('dialog', { name: 'Edit Task' });
const timeOf = (page: Page) => taskDialog(page).getByRole('region', { name: 'Time' });
const topBarTimer = (page: Page) => page.getByRole('region', { name: 'Running timer' });

async function seed(request: APIRequestContext) {
  const { owner, mia, team } = await seedCrew(request);
  const project = await apiAs<ProjectDto>(request, owner, 'post', '/api/projects', { name: 'Apollo', teamId: team.id });
  const newTask = (title: string, extra: Record<string, unknown> = {}) =>
    apiAs<TaskDto>(request, owner, 'post', '/api/tasks', { title, projectId: project.id, ...extra });
  return { owner, mia, team, project, newTask };
}

test.describe('time tracking', () => {
  test('a timer survives a reload and logs nothing under a minute; time logged by hand shows on the task and the card', async ({
    page,
    request,
  }) => {
    const { owner, newTask } = await seed(request);
    const task = await newTask('Write the report');
    const other = await newTask('Review the budget');

    await signIn(page, owner);
    await page.goto(`/tasks/${task.id}`);
    const section = timeOf(page);
    await expect(section.getByTestId('time-summary')).toHaveText('Logged 0m');
    await expect(section.getByText('No time logged yet.')).toBeVisible();

    // Start: the top bar shows it (behind the dialog, which hides the rest of the page from assistive technology),
    // and still does after a reload.
    await section.getByRole('button', { name: 'Start timer' }).click();
    await expect(section.getByRole('button', { name: 'Stop timer' })).toBeVisible();
    await expect(page.getByTestId('top-bar-timer')).toContainText('Write the report');
    await expect(page.getByTestId('top-bar-timer-elapsed')).toHaveText(/^0:0[1-9]$/, { timeout: 5_000 });
    await page.reload();
    await expect(timeOf(page).getByRole('button', { name: 'Stop timer' })).toBeVisible();
    await expect(timeOf(page).getByTestId('task-timer-elapsed')).toHaveText(/^Timer running: 0:\d\d$/);
    await taskDialog(page).getByRole('button', { name: 'Cancel' }).click();
    await expect(topBarTimer(page)).toContainText('Write the report');
    // Ticking: the seconds move on.
    const elapsed = topBarTimer(page).getByTestId('top-bar-timer-elapsed');
    const before = await elapsed.textContent();
    await expect(elapsed).not.toHaveText(before ?? '', { timeout: 3_000 });
    // Its link leads to the task.
    await expect(topBarTimer(page).getByRole('link', { name: /Timer running on Write the report/ })).toHaveAttribute(
      'href',
      new RegExp(`/tasks/${task.id}`),
    );

    // Stopped from the top bar after a few seconds: under a minute, nothing is logged.
    await topBarTimer(page).getByRole('button', { name: 'Stop timer on Write the report' }).click();
    await expect(page.getByText('Less than a minute: nothing logged')).toBeVisible();
    await expect(page.getByTestId('top-bar-timer')).toHaveCount(0);
    await page.goto(`/tasks/${task.id}`);
    await expect(timeOf(page).getByRole('button', { name: 'Start timer' })).toBeVisible();
    await expect(timeOf(page).getByText('No time logged yet.')).toBeVisible();

    // Another device: a timer started through the API shows here (timer.changed), and starting one on this task
    // stops it, saying what that one logged.
    await apiAs<StartTimerDto>(request, owner, 'post', '/api/me/timer', { taskId: other.id });
    await expect(page.getByTestId('top-bar-timer')).toContainText('Review the budget');
    await timeOf(page).getByRole('button', { name: 'Start timer' }).click();
    await expect(page.getByText('Stopped the timer on "Review the budget": less than a minute, nothing logged')).toBeVisible();
    await expect(page.getByTestId('top-bar-timer')).toContainText('Write the report');
    await timeOf(page).getByRole('button', { name: 'Stop timer' }).click();
    await expect(page.getByTestId('top-bar-timer')).toHaveCount(0);

    // Log time by hand: a duration that does not parse is told, '1h 30m' is logged.
    const duration = timeOf(page).getByLabel('Duration');
    await duration.fill('a while');
    await timeOf(page).getByRole('button', { name: 'Log time' }).click();
    await expect(timeOf(page).getByText('Enter a duration such as 1h 30m, 90m or 1.5h')).toBeVisible();
    await expect(duration).toHaveAttribute('aria-invalid', 'true');
    await duration.fill('1h 30m');
    await timeOf(page).getByLabel('Note (optional)').fill('First draft');
    await timeOf(page).getByRole('button', { name: 'Log time' }).click();
    await expect(timeOf(page).getByTestId('time-summary')).toHaveText('Logged 1h 30m');
    const entry = timeOf(page).getByTestId('time-entry');
    await expect(entry).toHaveCount(1);
    await expect(entry).toContainText('1h 30m');
    await expect(entry).toContainText('Olive Owner');
    await expect(entry).toContainText('First draft');
    await expect(duration).toHaveValue('');

    // An estimate: 'Logged 1h 30m of 5h estimate', with a bar.
    const estimate = timeOf(page).getByLabel('Estimate', { exact: true });
    await estimate.fill('5h');
    await estimate.press('Enter');
    await expect(timeOf(page).getByTestId('time-summary')).toHaveText('Logged 1h 30m of 5h estimate');
    await expect(timeOf(page).getByRole('progressbar', { name: 'Time logged against the estimate' })).toHaveAttribute(
      'aria-valuenow',
      '30',
    );

    // Edit the entry in place: 2h.
    await entry.getByRole('button', { name: /^Edit entry: 1h 30m on / }).click();
    const edit = timeOf(page).getByRole('form', { name: 'Edit time entry' });
    await edit.getByLabel('Duration').fill('2h');
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect(edit).toHaveCount(0);
    await expect(timeOf(page).getByTestId('time-summary')).toHaveText('Logged 2h of 5h estimate');
    await expect(entry).toContainText('2h');

    // The card: logged / estimate.
    await taskDialog(page).getByRole('button', { name: 'Cancel' }).click();
    const taskCard = card(column(page, 'todo'), 'Write the report');
    await expect(taskCard.getByTestId('card-time')).toContainText('2h / 5h');
    await expect(taskCard.getByTestId('card-time')).toContainText('Logged 2h of 5h estimate');
    await expect(card(column(page, 'todo'), 'Review the budget').getByTestId('card-time')).toHaveCount(0);

    // Deleted: back to nothing.
    await page.goto(`/tasks/${task.id}`);
    await timeOf(page)
      .getByRole('button', { name: /^Delete entry: 2h on / })
      .click();
    await expect(timeOf(page).getByTestId('time-summary')).toHaveText('Logged 0m of 5h estimate');
    await expect(timeOf(page).getByText('No time logged yet.')).toBeVisible();
  });

  test('a member edits only their own entries; the team estimates in story points', async ({ browser, page, request }) => {
    const { owner, mia, team, newTask } = await seed(request);
    const task = await newTask('Plan the sprint');
    await apiAs(request, owner, 'post', `/api/tasks/${task.id}/time-entries`, { date: '2026-11-02', minutes: 45 });
    await apiAs(request, mia, 'post', `/api/tasks/${task.id}/time-entries`, { date: '2026-11-03', minutes: 30, note: 'Mine' });

    // Mia: the roll-up of both, edit and delete on her entry only.
    await signIn(page, mia);
    await page.goto(`/tasks/${task.id}`);
    await expect(timeOf(page).getByTestId('time-summary')).toHaveText('Logged 1h 15m');
    const entries = timeOf(page).getByTestId('time-entry');
    await expect(entries).toHaveCount(2);
    await expect(entries.filter({ hasText: 'Mia Member' }).getByRole('button', { name: /^Edit entry/ })).toHaveCount(1);
    await expect(entries.filter({ hasText: 'Olive Owner' }).getByRole('button')).toHaveCount(0);
    // Members do not choose the estimate unit.
    await page.goto(`/teams/${team.id}/settings`);
    await expect(page.getByRole('heading', { name: 'Crew One settings' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Estimates' })).toHaveCount(0);

    // The owner chooses story points; the task page then estimates in points.
    const ownerContext = await browser.newContext();
    const op = await ownerContext.newPage();
    await signIn(op, owner);
    await op.goto(`/teams/${team.id}/settings`);
    const unit = op.getByRole('group', { name: 'Estimate tasks in' });
    await expect(unit.getByRole('radio', { name: /Hours and minutes/ })).toBeChecked();
    const patched = op.waitForResponse((r) => r.url().endsWith(`/api/teams/${team.id}`) && r.request().method() === 'PATCH');
    await unit.getByRole('radio', { name: /Story points/ }).check();
    expect((await patched).ok()).toBe(true);
    await expect(unit.getByRole('radio', { name: /Story points/ })).toBeChecked();
    await op.reload();
    await expect(op.getByRole('group', { name: 'Estimate tasks in' }).getByRole('radio', { name: /Story points/ })).toBeChecked();

    await op.goto(`/tasks/${task.id}`);
    const points = timeOf(op).getByLabel('Estimate (points)', { exact: true });
    await points.fill('2.3');
    await points.press('Enter');
    await expect(timeOf(op).getByText(/Enter points from 0 to 1000, in halves/)).toBeVisible();
    await points.fill('3');
    await points.press('Enter');
    await expect(timeOf(op).getByTestId('time-summary')).toHaveText('Logged 1h 15m · 3 points');
    // Owners and admins edit everyone's entries.
    await expect(timeOf(op).getByRole('button', { name: /^Edit entry/ })).toHaveCount(2);
    await ownerContext.close();
  });

  for (const scheme of ['light', 'dark'] as const) {
    test(`axe and screenshots, ${scheme}`, async ({ browser, request }) => {
      test.setTimeout(180_000);
      const { owner, team, newTask } = await seed(request);
      const task = await newTask('Ship the release with a long title that has to give way in the top bar', {
        estimateMinutes: 300,
      });
      await apiAs(request, owner, 'post', `/api/tasks/${task.id}/time-entries`, {
        date: '2026-11-02',
        minutes: 90,
        note: 'Release notes',
      });
      for (const viewport of [
        { width: 1280, height: 900 },
        { width: 390, height: 844 },
      ]) {
        const context = await browser.newContext({ viewport, colorScheme: scheme });
        const page = await context.newPage();
        await signIn(page, owner);
        const tag = `${viewport.width}-${scheme}`;
        await apiAs(request, owner, 'post', '/api/me/timer', { taskId: task.id });

        await page.goto('/tasks');
        const taskCard = card(column(page, 'todo'), task.title);
        await expect(taskCard.getByTestId('card-time')).toContainText('1h 30m / 5h');
        await expect(topBarTimer(page)).toBeVisible();
        expect(await axeViolations(page), `axe on the board, ${tag}`).toEqual([]);
        await page
          .locator('header')
          .first()
          .screenshot({ path: `${SHOTS}/top-bar-${tag}.png` });
        await taskCard.screenshot({ path: `${SHOTS}/card-${tag}.png` });
        // Nothing in the top bar overflows the page at 390 px.
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(overflow, `horizontal overflow, ${tag}`).toBeLessThanOrEqual(0);
        const stop = topBarTimer(page).getByRole('button', { name: /^Stop timer on / });
        const box = await stop.boundingBox();
        expect(box && box.x + box.width <= viewport.width, `the stop button is on screen, ${tag}`).toBe(true);

        await page.goto(`/tasks/${task.id}`);
        const section = timeOf(page);
        await expect(section.getByTestId('time-summary')).toHaveText('Logged 1h 30m of 5h estimate');
        await section.getByLabel('Duration').fill('soon');
        await section.getByRole('button', { name: 'Log time' }).click();
        await expect(section.getByText('Enter a duration such as 1h 30m, 90m or 1.5h')).toBeVisible();
        expect(await axeViolations(page), `axe on the task page, ${tag}`).toEqual([]);
        await section.scrollIntoViewIfNeeded();
        await section.screenshot({ path: `${SHOTS}/time-section-${tag}.png` });
        await page.screenshot({ path: `${SHOTS}/task-page-${tag}.png` });

        await page.goto(`/teams/${team.id}/settings`);
        await expect(page.getByRole('group', { name: 'Estimate tasks in' })).toBeVisible();
        expect(await axeViolations(page), `axe on team settings, ${tag}`).toEqual([]);
        await page.getByRole('region', { name: 'Estimates' }).screenshot({ path: `${SHOTS}/estimate-unit-${tag}.png` });
        await apiAs(request, owner, 'delete', '/api/me/timer');
        await context.close();
      }
    });
  }
});
