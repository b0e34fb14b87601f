import type { APIRequestContext, Page, Request } from '@playwright/test';
import { TASK_STATUS_LABELS } from '../../src/domain/constants';
import { apiAs, createUser, expect, signIn, test, type E2EUser } from './fixtures';

/** Two users on one team (B joined by accepting A's invitation) and a project of that team. */
async function twoOnATeam(request: APIRequestContext) {
  const a = await createUser(request, { fullName: 'Ava Mover' });
  const b = await createUser(request, { fullName: 'Ben Watcher' });
  const team = await apiAs<{ id: string }>(request, a, 'post', '/api/teams', { name: 'Live Crew' });
  const invitation = await apiAs<{ id: string }>(request, a, 'post', `/api/teams/${team.id}/invitations`, { email: b.email });
  await apiAs(request, b, 'post', `/api/invitations/${invitation.id}/respond`, { accept: true });
  const project = await apiAs<{ id: string }>(request, a, 'post', '/api/projects', { name: 'Live Board', teamId: team.id });
  return { a, b, team, project };
}

const bell = (page: Page) => page.getByRole('button', { name: /^Notifications/ });
const column = (page: Page, status: keyof typeof TASK_STATUS_LABELS) =>
  page.getByRole('region', { name: TASK_STATUS_LABELS[status] });

/**
 * Resolves once a card move on `page` is saved and the board's refetch that follows the save has
 * answered: by then the cache holds the saved task (its new version). Call before the move.
 */
function moveSavedAndRefetched(page: Page): Promise<unknown> {
  const is = (r: Request, method: string, path: RegExp) => r.method() === method && path.test(new URL(r.url()).pathname);
  return page
    .waitForResponse((r) => is(r.request(), 'PATCH', /^\/api\/tasks\/[^/]+\/status$/))
    .then(() => page.waitForResponse((r) => is(r.request(), 'GET', /^\/api\/tasks\/board$/)));
}

async function newTask(request: APIRequestContext, user: E2EUser, projectId: string, title: string, assigneeId?: string) {
  return apiAs<{ id: string }>(request, user, 'post', '/api/tasks', { title, projectId, assigneeId });
}

test('notifications arrive without a reload; the dropdown opens and marks them; the page pages through all', async ({
  page,
  request,
}) => {
  const { a, b, project } = await twoOnATeam(request);
  await signIn(page, b);

  // The invitation B accepted is already there.
  await expect(bell(page)).toHaveAccessibleName('Notifications (1 unread)');

  // A assigns B a task: the badge counts it without a reload.
  await newTask(request, a, project.id, 'Check the rigging', b.id);
  await expect(bell(page)).toHaveAccessibleName('Notifications (2 unread)');
  await expect(page.getByTestId('notifications-badge')).toHaveText('2');

  await bell(page).click();
  const menu = page.getByRole('menu');
  await expect(menu.getByRole('menuitem', { name: /New task assigned/ })).toContainText(
    'Ava Mover assigned you "Check the rigging"',
  );
  await expect(menu.getByRole('menuitem', { name: /Team invitation/ })).toContainText('Ava Mover invited you to join Live Crew');

  // Opening one marks it read and goes to what it is about.
  await menu.getByRole('menuitem', { name: /New task assigned/ }).click();
  // The task itself, over its project's board; closing it leaves the board.
  await expect(page).toHaveURL(new RegExp(`/tasks/[0-9a-f-]{36}\\?project=${project.id}$`));
  await expect(page.getByRole('dialog').getByRole('textbox', { name: 'Title' })).toHaveValue('Check the rigging');
  await page.keyboard.press('Escape');
  await expect(page).toHaveURL(new RegExp(`/tasks\\?project=${project.id}$`));
  await expect(bell(page)).toHaveAccessibleName('Notifications (1 unread)');

  await bell(page).click();
  await page.getByRole('menuitem', { name: 'Mark all as read' }).click();
  await expect(bell(page)).toHaveAccessibleName('Notifications');
  await expect(page.getByTestId('notifications-badge')).toHaveCount(0);

  // More than one page: 22 in all, 20 a page, newest first.
  for (let i = 1; i <= 20; i++) await newTask(request, a, project.id, `Batch task ${i}`, b.id);
  await page.getByRole('menuitem', { name: 'View all notifications' }).click();
  await expect(page).toHaveURL(/\/notifications$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Notifications' })).toBeVisible();
  const list = page.getByRole('list', { name: 'Notifications' });
  await expect(list.getByRole('listitem')).toHaveCount(20);
  await expect(list.getByRole('listitem').first()).toContainText('Batch task 20');
  await expect(page.getByText('Page 1 of 2')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Previous' })).toBeDisabled();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByText('Page 2 of 2')).toBeVisible();
  await expect(list.getByRole('listitem')).toHaveCount(2);
  await expect(list.getByRole('listitem').last()).toContainText('invited you to join Live Crew');
  await page.getByRole('button', { name: 'Previous' }).click();
  await expect(page.getByText('Page 1 of 2')).toBeVisible();

  // A team invitation leads to the dashboard.
  await page.getByRole('button', { name: 'Next' }).click();
  await list.getByRole('button', { name: /Team invitation/ }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('a card A drags moves on B’s open board without a reload, and B’s badge counts A’s assignment', async ({
  browser,
  request,
}) => {
  const { a, b, project } = await twoOnATeam(request);
  await newTask(request, a, project.id, 'Realtime card');

  const contextA = await browser.newContext();
  const contextB = await browser.newContext();
  const pageA = await contextA.newPage();
  const pageB = await contextB.newPage();
  await signIn(pageA, a);
  await signIn(pageB, b);
  await pageA.goto(`/tasks?project=${project.id}`);
  await pageB.goto(`/tasks?project=${project.id}`);
  await expect(bell(pageB)).toHaveAccessibleName('Notifications (1 unread)');

  const cardA = column(pageA, 'todo').getByRole('button', { name: 'Realtime card' });
  await expect(cardA).toBeVisible();
  await expect(column(pageB, 'todo').getByRole('button', { name: 'Realtime card' })).toBeVisible();

  // A drags the card to In Progress with the mouse.
  const from = (await cardA.boundingBox())!;
  const to = (await column(pageA, 'in_progress').boundingBox())!;
  const saved = moveSavedAndRefetched(pageA);
  await pageA.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await pageA.mouse.down();
  await pageA.mouse.move(from.x + from.width / 2 + 20, from.y + from.height / 2, { steps: 5 });
  await pageA.mouse.move(to.x + to.width / 2, to.y + 120, { steps: 15 });
  await pageA.mouse.up();
  await expect(column(pageA, 'in_progress').getByRole('button', { name: 'Realtime card' })).toBeVisible();

  // B's board follows without a reload (that it does, not how fast: timing belongs to the bench).
  await expect(column(pageB, 'in_progress').getByRole('button', { name: 'Realtime card' })).toBeVisible();
  await expect(column(pageB, 'todo').getByRole('button', { name: 'Realtime card' })).toHaveCount(0);

  // The dialog must open on the saved task (its version).
  await saved;
  // A assigns the card to B in the task dialog: B's badge counts it, still without a reload.
  // The board ignores a click that comes just after a drop (it ends the drag): click until it opens.
  const dialog = pageA.getByRole('dialog');
  await expect(async () => {
    if (!(await dialog.isVisible())) await column(pageA, 'in_progress').getByRole('button', { name: 'Realtime card' }).click();
    await expect(dialog).toBeVisible({ timeout: 1_000 });
  }).toPass();
  await dialog.getByLabel('Assignee').selectOption({ label: 'Ben Watcher' });
  await dialog.getByRole('button', { name: 'Update Task' }).click();
  await expect(dialog).toBeHidden();
  await expect(bell(pageB)).toHaveAccessibleName('Notifications (2 unread)');

  await contextA.close();
  await contextB.close();
});
