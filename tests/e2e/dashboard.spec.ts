import type { Page } from '@playwright/test';
import { addDays, formatShortDate, localIsoDate } from '../../src/domain/dates';
import { MSG } from '../../src/domain/messages';
import { apiAs, createUser, expect, gate, signIn, test } from './fixtures';

const region = (page: Page, name: string) => page.getByRole('region', { name });
const stat = (page: Page, name: string) => page.getByRole('group', { name });
const performanceRow = (page: Page, label: string) =>
  region(page, 'Team Performance').locator('dl > div').filter({ hasText: label });

test('a new user sees the greeting, zero figures and every empty state', async ({ page, request }) => {
  const user = await createUser(request);
  await signIn(page, user);

  await expect(page.getByRole('heading', { level: 1, name: 'Welcome back!' })).toBeVisible();
  await expect(region(page, 'Recent Activity').getByText(MSG.noRecentActivity)).toBeVisible();
  await expect(region(page, 'Upcoming Deadlines').getByText(MSG.noUpcomingDeadlines)).toBeVisible();
  await expect(region(page, 'Project Progress').getByText(MSG.noProjectsYet)).toBeVisible();
  await expect(region(page, 'Team Performance').getByText(MSG.noTasksYet)).toBeVisible();

  for (const name of ['Completed Tasks', 'Active Projects', 'Team Members', 'Tasks in Progress']) {
    await expect(stat(page, name)).toContainText('0');
  }
  // Real month-over-month changes (issue 24): a new account has nothing to compare.
  for (const name of ['Completed Tasks', 'Active Projects', 'Team Members']) {
    await expect(stat(page, name)).toContainText('No change');
    await expect(stat(page, name)).not.toContainText('vs last month');
  }
  await expect(performanceRow(page, 'Completion Rate')).toContainText('0%');
});

test('a team, a project and three tasks show in every panel as the spec says', async ({ page, request }) => {
  const user = await createUser(request);
  const today = localIsoDate(new Date());
  const team = await apiAs<{ id: string }>(request, user, 'post', '/api/teams', { name: 'Rocket Crew' });
  const project = await apiAs<{ id: string }>(request, user, 'post', '/api/projects', {
    name: 'Launch Site',
    teamId: team.id,
    status: 'active',
  });
  const task = (title: string, status: string, dueDate: string | null) =>
    apiAs(request, user, 'post', '/api/tasks', { title, projectId: project.id, status, dueDate, priority: 'high' });
  await task('Fuel the rocket', 'todo', addDays(today, 1));
  await task('File the permit', 'in_progress', addDays(today, -3));
  await task('Paint the hull', 'completed', addDays(today, 2));

  await signIn(page, user);

  // Stat cards.
  await expect(stat(page, 'Completed Tasks')).toContainText('1');
  await expect(stat(page, 'Active Projects')).toContainText('1');
  await expect(stat(page, 'Team Members')).toContainText('1');
  await expect(stat(page, 'Tasks in Progress')).toContainText('1');

  // Recent Activity: all five items, newest first, with the spec's actions and relative times.
  const activity = region(page, 'Recent Activity').getByRole('listitem');
  await expect(activity).toHaveCount(5);
  await expect(activity.nth(0)).toContainText('Paint the hull');
  await expect(activity.nth(0)).toContainText('Task completed');
  await expect(activity.filter({ hasText: 'Fuel the rocket' })).toContainText('Task updated');
  await expect(activity.filter({ hasText: 'File the permit' })).toContainText('Task updated');
  await expect(activity.filter({ hasText: 'Launch Site' })).toContainText('Project created');
  await expect(activity.nth(4)).toContainText('Rocket Crew');
  await expect(activity.nth(4)).toContainText('Team created');
  await expect(activity.first()).toContainText('Just now');

  // Project Progress: one of three tasks completed.
  const progress = region(page, 'Project Progress');
  await expect(progress.getByRole('link', { name: 'Launch Site' })).toBeVisible();
  await expect(progress).toContainText('33%');
  await expect(progress.getByRole('progressbar', { name: 'Launch Site progress' })).toHaveAttribute('aria-valuenow', '33');

  // Upcoming Deadlines: the overdue task first, then tomorrow's; the completed one is left out.
  const deadlines = region(page, 'Upcoming Deadlines').getByRole('listitem');
  await expect(deadlines).toHaveCount(2);
  await expect(deadlines.nth(0)).toContainText('File the permit');
  await expect(deadlines.nth(0).getByText(MSG.overdue, { exact: true })).toBeVisible();
  await expect(deadlines.nth(0).getByText(MSG.overdue, { exact: true })).toHaveAttribute(
    'title',
    formatShortDate(addDays(today, -3)),
  );
  await expect(deadlines.nth(1)).toContainText('Fuel the rocket');
  await expect(deadlines.nth(1).getByText('Tomorrow', { exact: true })).toBeVisible();
  await expect(region(page, 'Upcoming Deadlines')).not.toContainText('Paint the hull');

  // Team Performance.
  await expect(performanceRow(page, 'Tasks Completed')).toContainText('1');
  await expect(performanceRow(page, 'Total Tasks')).toContainText('3');
  await expect(performanceRow(page, 'Completion Rate')).toContainText('33%');
  await expect(performanceRow(page, 'Active Teams')).toContainText('1');
  await expect(region(page, 'Team Performance')).not.toContainText(MSG.noTasksYet);

  // A project's name opens its tasks.
  await progress.getByRole('link', { name: 'Launch Site' }).click();
  await expect(page).toHaveURL(new RegExp(`/tasks\\?project=${project.id}$`));
});

test('shows the loading state, then a failure with Retry that recovers', async ({ page, request }) => {
  const user = await createUser(request);
  let fail = true;
  const loadingSeen = gate();
  await page.route('**/api/dashboard?*', async (route) => {
    await loadingSeen.passed;
    if (fail) await route.fulfill({ status: 500, json: { error: { code: 'internal', message: 'boom' } } });
    else await route.continue();
  });
  await signIn(page, user);
  await expect(page.getByText(MSG.loadingDashboard)).toBeVisible();
  loadingSeen.open();
  await expect(page.getByText(MSG.loadFailed)).toBeVisible({ timeout: 15_000 });

  fail = false;
  await page.getByRole('button', { name: 'Retry' }).click();
  await expect(region(page, 'Recent Activity')).toBeVisible();
  await expect(page.getByText(MSG.loadFailed)).toHaveCount(0);
});
