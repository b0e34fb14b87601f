import type { Page } from '@playwright/test';
import { apiAs, axeViolations, createUser, expect, signIn, test } from './fixtures';

/**
 * The dashboard's stat cards show true month-over-month changes (issue 24), never the spec's fixed placeholders.
 * A new account has no earlier month: its cards say 'No change' or 'New this month', and a task it completes shows at
 * once as new this month.
 */

const stat = (page: Page, name: string) => page.getByRole('group', { name });
const TREND_CARDS = ['Completed Tasks', 'Active Projects', 'Team Members'] as const;
const PLACEHOLDER = /[+−-](12|8|3)% vs last month/;

test('a new account’s cards show its own changes, and a completed task is new this month', async ({ page, request }) => {
  const user = await createUser(request, { fullName: 'Trudy Trend' });
  await signIn(page, user);

  // Nothing this month or last: no change anywhere, and never a fixed percentage.
  for (const name of TREND_CARDS) await expect(stat(page, name)).toContainText('No change');
  await expect(stat(page, 'Tasks in Progress')).not.toContainText('vs last month');
  await expect(stat(page, 'Tasks in Progress')).not.toContainText('No change');

  // A team, an active project and a task, all made this month.
  const team = await apiAs<{ id: string }>(request, user, 'post', '/api/teams', { name: 'Trend Crew' });
  const project = await apiAs<{ id: string }>(request, user, 'post', '/api/projects', {
    name: 'Trend Line',
    teamId: team.id,
    status: 'active',
  });
  const task = await apiAs<{ id: string }>(request, user, 'post', '/api/tasks', {
    title: 'Draw the line',
    projectId: project.id,
  });
  await page.reload();
  await expect(stat(page, 'Active Projects')).toContainText('1');
  await expect(stat(page, 'Active Projects')).toContainText('New this month');
  await expect(stat(page, 'Team Members')).toContainText('New this month');
  await expect(stat(page, 'Completed Tasks')).toContainText('No change');

  // Completed now: this month has one, last month none.
  await apiAs(request, user, 'patch', `/api/tasks/${task.id}/status`, { status: 'in_progress' });
  await apiAs(request, user, 'patch', `/api/tasks/${task.id}/status`, { status: 'completed' });
  await page.reload();
  await expect(stat(page, 'Completed Tasks')).toContainText('1');
  await expect(stat(page, 'Completed Tasks')).toContainText('New this month');
  for (const name of TREND_CARDS) await expect(stat(page, name)).not.toContainText(PLACEHOLDER);

  // Reopened, it is no longer a completion of this month.
  await apiAs(request, user, 'patch', `/api/tasks/${task.id}/status`, { status: 'todo' });
  await page.reload();
  await expect(stat(page, 'Completed Tasks')).toContainText('0');
  await expect(stat(page, 'Completed Tasks')).toContainText('No change');

  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    expect(await axeViolations(page, 'main'), colorScheme).toEqual([]);
  }
});
