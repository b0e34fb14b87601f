import type { Locator, Page, Request } from '@playwright/test';
import { TASK_STATUS_LABELS, type TaskStatus } from '../../src/domain/constants';
import { MSG } from '../../src/domain/messages';
import type { ProjectDto } from '../../src/domain/schemas/project';
import type { TeamDto } from '../../src/domain/schemas/team';
import { apiAs, createUser, type E2EUser, expect, signIn, test } from './fixtures';

/** Whether the focused element (or the card/row around it that draws the ring) shows a focus indicator. */
function focusIndicator(page: Page) {
  return page.evaluate(() => {
    let el = document.activeElement as HTMLElement | null;
    const name = el
      ? `${el.tagName.toLowerCase()} "${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 40)}"`
      : 'nothing';
    // Tab past the last control leaves the page for the browser's own UI.
    if (!el || el === document.body) return { name, visible: true };
    // The calendar button inside a date input is drawn and focused by the browser itself, with its own ring.
    if (el instanceof HTMLInputElement && el.type === 'date' && !el.matches(':focus-visible')) return { name, visible: true };
    // A ring is a box-shadow with no offset or blur, a spread of at least 1px and a colour that is not transparent.
    const hasRing = (shadow: string) =>
      [...shadow.matchAll(/(rgba?\([^)]*\)|oklch\([^)]*\)|#[0-9a-f]+)\s+0px\s+0px\s+0px\s+([\d.]+)px/gi)].some(
        ([, color = '', spread = '0']) =>
          Number.parseFloat(spread) >= 1 && !/rgba\([^)]*,\s*0(\.0+)?\)|\/\s*0\)/.test(color) && !/, 0\.[0-2]\d*\)$/.test(color),
      );
    for (let depth = 0; el && depth < 4; depth++, el = el.parentElement) {
      const s = getComputedStyle(el);
      const outline = s.outlineStyle !== 'none' && Number.parseFloat(s.outlineWidth) > 0;
      if (outline || hasRing(s.boxShadow)) return { name, visible: true };
    }
    return { name, visible: false };
  });
}

const isFocused = (locator: Locator) => locator.evaluate((el) => el === document.activeElement).catch(() => false);

/**
 * Presses Tab (or Shift+Tab) until `target` has focus, checking on the way that every element that
 * receives focus shows a visible focus indicator.
 */
async function tabTo(page: Page, target: Locator, { back = false, max = 80 } = {}) {
  for (let i = 0; i < max; i++) {
    if (await isFocused(target)) return;
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    // Polled: rings that fade in with a transition are faint for the first few frames.
    await expect
      .poll(
        async () => {
          const focus = await focusIndicator(page);
          return focus.visible || `no visible focus on ${focus.name}`;
        },
        { timeout: 2000 },
      )
      .toBe(true);
  }
  throw new Error(`Tab never reached ${target}`);
}

/** Focus stays inside the dialog for a full cycle of Tab and of Shift+Tab. */
async function expectFocusTrapped(page: Page, dialog: Locator) {
  const focusable = await dialog.evaluate(
    (el) =>
      el.querySelectorAll(
        'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled])',
      ).length,
  );
  for (const key of ['Tab', 'Shift+Tab']) {
    for (let i = 0; i < focusable + 2; i++) {
      await page.keyboard.press(key);
      expect(await dialog.evaluate((el) => el.contains(document.activeElement)), `${key} #${i + 1} left the dialog`).toBe(true);
    }
  }
}

/** A field's error is announced with it: aria-invalid and aria-describedby pointing at the message. */
async function expectFieldError(field: Locator, message: string) {
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await expect(field).toHaveAccessibleDescription(new RegExp(message));
}

/** dnd-kit's visually hidden announcer. */
const liveRegion = (page: Page, text: string | RegExp) => page.locator('[aria-live]').filter({ hasText: text });
/** A sonner toast, rendered inside its polite live region. */
const toastIn = (page: Page, text: string) => page.locator('section[aria-live="polite"]').getByText(text);

async function keyboardSignIn(page: Page, user: E2EUser) {
  await page.goto('/login');
  await expect(page).toHaveTitle('Sign in · Crewboard');
  await tabTo(page, page.getByRole('button', { name: 'Sign in with Email' }));
  await page.keyboard.press('Enter');
  await tabTo(page, page.getByLabel('Email'));
  await page.keyboard.type(user.email);
  await tabTo(page, page.getByLabel('Password', { exact: true }));
  await page.keyboard.type(user.password);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/dashboard$/);
}

test('keyboard only: sign in, create a team, a project and a task, move the task from To Do to Completed', async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  const user = await createUser(request, { fullName: 'Kim Keys' });

  await keyboardSignIn(page, user);
  await expect(page).toHaveTitle('Dashboard · Crewboard');

  // Sidebar: the current entry is marked.
  const nav = page.getByRole('navigation').first();
  await expect(nav.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('aria-current', 'page');
  await tabTo(page, nav.getByRole('link', { name: 'Teams' }));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/teams$/);
  await expect(page).toHaveTitle('Teams · Crewboard');
  await expect(nav.getByRole('link', { name: 'Teams' })).toHaveAttribute('aria-current', 'page');

  // Team: the modal takes focus, traps it, gives it back to the opener on Escape.
  const newTeam = page.getByRole('button', { name: 'New Team' });
  await tabTo(page, newTeam);
  await page.keyboard.press('Enter');
  const teamDialog = page.getByRole('dialog', { name: 'Create New Team' });
  await expect(teamDialog).toBeVisible();
  await expect(teamDialog.getByLabel('Team Name')).toBeFocused();
  await expectFocusTrapped(page, teamDialog);
  await page.keyboard.press('Escape');
  await expect(teamDialog).toBeHidden();
  await expect(newTeam).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(teamDialog.getByLabel('Team Name')).toBeFocused();
  await page.keyboard.press('Enter');
  await expectFieldError(teamDialog.getByLabel('Team Name'), MSG.teamNameRequired);
  await page.keyboard.type('Keyboard Crew');
  await page.keyboard.press('Enter');
  await expect(toastIn(page, MSG.teamCreated)).toBeVisible();
  await expect(teamDialog).toBeHidden();

  // Project.
  await tabTo(page, nav.getByRole('link', { name: 'Projects' }), { back: true });
  await page.keyboard.press('Enter');
  await expect(page).toHaveTitle('Projects · Crewboard');
  const newProject = page.getByRole('button', { name: 'New Project' });
  await tabTo(page, newProject);
  await page.keyboard.press('Enter');
  const projectDialog = page.getByRole('dialog', { name: 'Create New Project' });
  await expect(projectDialog.getByLabel('Project Name')).toBeFocused();
  await page.keyboard.press('Enter');
  await expectFieldError(projectDialog.getByLabel('Project Name'), MSG.projectNameRequired);
  await expectFocusTrapped(page, projectDialog);
  await tabTo(page, projectDialog.getByLabel('Project Name'));
  await page.keyboard.type('Keyboard Project');
  await tabTo(page, projectDialog.getByLabel('Team'));
  await expect(projectDialog.getByLabel('Team')).toHaveValue(/.+/);
  await tabTo(page, projectDialog.getByRole('button', { name: 'Create Project' }));
  await page.keyboard.press('Enter');
  await expect(toastIn(page, MSG.projectCreated)).toBeVisible();
  await expect(projectDialog).toBeHidden();
  await expect(newProject).toBeFocused();

  // Task.
  await tabTo(page, nav.getByRole('link', { name: 'Tasks' }), { back: true });
  await page.keyboard.press('Enter');
  await expect(page).toHaveTitle('Tasks · Crewboard');
  const newTask = page.getByRole('button', { name: 'New Task' });
  await tabTo(page, newTask);
  await page.keyboard.press('Enter');
  const taskDialog = page.getByRole('dialog', { name: 'Create New Task' });
  await expect(taskDialog.getByLabel('Title')).toBeFocused();
  await page.keyboard.press('Enter');
  await expectFieldError(taskDialog.getByLabel('Title'), MSG.taskTitleRequired);
  await expectFocusTrapped(page, taskDialog);
  await tabTo(page, taskDialog.getByLabel('Title'));
  await page.keyboard.type('Keyboard task');
  await tabTo(page, taskDialog.getByRole('button', { name: 'Create Task' }));
  // The refetch that follows a create (spec: about 1 s later) asks for every active query again, the
  // bell's notifications and the board among them: the board answer that comes after it is the one to wait for.
  const isGet = (r: Request, path: string) => r.method() === 'GET' && new URL(r.url()).pathname === path;
  const refetchLanded = page
    .waitForRequest((r) => isGet(r, '/api/notifications'))
    .then(() => page.waitForResponse((r) => isGet(r.request(), '/api/tasks/board')));
  await page.keyboard.press('Enter');
  await expect(toastIn(page, MSG.taskCreated)).toBeVisible();
  await expect(taskDialog).toBeHidden();
  await expect(newTask).toBeFocused();

  // Move the card: Space picks it up, the right arrow goes one column at a time, Space drops it. First let the
  // refetch that follows a create land, so that it does not redraw the board mid-move (which can announce
  // the column the card is over again, replacing the announcement this test waits for).
  await refetchLanded;
  const column = (status: TaskStatus) => page.getByRole('region', { name: TASK_STATUS_LABELS[status], exact: true });
  const card = column('todo').getByTestId('task-card').filter({ hasText: 'Keyboard task' });
  await tabTo(page, card);
  await expect(card).toHaveAccessibleDescription(/press Space/);
  await page.keyboard.press('Space');
  await expect(card).toHaveAttribute('aria-pressed', 'true');
  await expect(liveRegion(page, /^(Picked up task Keyboard task\.|Task Keyboard task is over To Do\.)$/)).toBeAttached();
  // Each arrow moves the card one column. dnd-kit's keyboard sensor starts listening a task after the pick-up, so on a
  // loaded machine the first arrow can be lost: press until the card is announced over the last column.
  await expect(async () => {
    await page.keyboard.press('ArrowRight');
    await expect(liveRegion(page, `Task Keyboard task is over ${TASK_STATUS_LABELS.completed}.`)).toBeAttached({
      timeout: 1_500,
    });
  }).toPass({ timeout: 30_000 });
  // The board shows the move at once and saves it after: the reload waits for the save's answer.
  const saved = page.waitForResponse(
    (r) => /^\/api\/tasks\/[^/]+\/status$/.test(new URL(r.url()).pathname) && r.request().method() === 'PATCH',
  );
  await page.keyboard.press('Space');
  await expect(liveRegion(page, 'Moved task Keyboard task to Completed')).toBeAttached();
  await expect(column('completed').getByTestId('task-card').filter({ hasText: 'Keyboard task' })).toBeVisible();
  await expect(column('todo').getByText('No tasks in To Do')).toBeVisible();
  expect((await saved).status()).toBe(200);
  await page.reload();
  await expect(column('completed').getByTestId('task-card').filter({ hasText: 'Keyboard task' })).toBeVisible();

  // Enter opens the card's edit modal; closing gives focus back to the card.
  const done = column('completed').getByTestId('task-card').filter({ hasText: 'Keyboard task' });
  await tabTo(page, done);
  await page.keyboard.press('Enter');
  const editDialog = page.getByRole('dialog', { name: 'Edit Task' });
  await expect(editDialog).toBeVisible();
  expect(await editDialog.evaluate((el) => el.contains(document.activeElement))).toBe(true);
  await page.keyboard.press('Escape');
  await expect(editDialog).toBeHidden();
  await expect(done).toBeFocused();
});

test('keyboard only: answer an invitation, use the menus, filter, edit and delete a task, sort the list, invite, sign out', async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  const me = await createUser(request, { fullName: 'Kai Keys' });
  const zed = await createUser(request, { fullName: 'Zed Other' });
  const guest = await createUser(request, { fullName: 'Gus Guest' });
  const team = await apiAs<TeamDto>(request, me, 'post', '/api/teams', { name: 'Key Crew' });
  const project = await apiAs<ProjectDto>(request, me, 'post', '/api/projects', { name: 'Key Project', teamId: team.id });
  await apiAs(request, me, 'post', '/api/tasks', { title: 'Edit me', projectId: project.id, priority: 'high' });
  await apiAs(request, me, 'post', '/api/tasks', { title: 'Leave me', projectId: project.id, priority: 'low' });
  const squad = await apiAs<TeamDto>(request, zed, 'post', '/api/teams', { name: 'Zed Squad' });
  await apiAs(request, zed, 'post', `/api/teams/${squad.id}/invitations`, { email: me.email, role: 'member' });
  await keyboardSignIn(page, me);

  // The invitation on the dashboard.
  await tabTo(page, page.getByRole('button', { name: 'Accept invitation to Zed Squad' }));
  await page.keyboard.press('Enter');
  await expect(toastIn(page, MSG.invitationAccepted)).toBeVisible();

  // Menus open with Enter, move with arrows, close with Escape and give focus back to their button.
  for (const name of [/^Notifications/, /^Theme/, 'User menu']) {
    const trigger = page.getByRole('button', { name });
    await tabTo(page, trigger);
    await page.keyboard.press('Enter');
    const menu = page.getByRole('menu');
    await expect(menu).toBeVisible();
    await page.keyboard.press('ArrowDown');
    expect(await menu.evaluate((el) => el.contains(document.activeElement))).toBe(true);
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
    await expect(trigger).toBeFocused();
  }
  // Choose the dark theme from its menu.
  await page.keyboard.press('Shift+Tab');
  await expect(page.getByRole('button', { name: /^Theme/ })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('menuitemradio', { name: 'Light' })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('menuitemradio', { name: 'Dark' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.locator('html')).toHaveClass(/dark/);

  // Tasks: open the filter panel, filter by priority, remove the filter by its chip.
  const nav = page.getByRole('navigation', { name: 'Main' });
  await tabTo(page, nav.getByRole('link', { name: 'Tasks' }));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/tasks$/);
  const more = page.getByRole('button', { name: 'More Filters' });
  await tabTo(page, more);
  await page.keyboard.press('Enter');
  await expect(more).toHaveAttribute('aria-expanded', 'true');
  const priority = page.getByRole('region', { name: 'Filters' }).getByLabel('Priority');
  await tabTo(page, priority);
  await page.keyboard.press('ArrowDown');
  await expect(priority).not.toHaveValue('');
  const chip = page.getByRole('list', { name: 'Active filters' }).getByRole('button', { name: /^Remove filter Priority/ });
  await expect(chip).toBeVisible();
  await tabTo(page, chip);
  await page.keyboard.press('Enter');
  await expect(chip).toBeHidden();
  await expect(page).toHaveURL(/\/tasks$/);

  // Edit a task from its card, then delete it through the confirmation dialog.
  const card = () => page.getByTestId('task-card').filter({ hasText: 'Edit me' });
  await tabTo(page, card());
  await page.keyboard.press('Enter');
  const edit = page.getByRole('dialog', { name: 'Edit Task' });
  await tabTo(page, edit.getByLabel('Title'));
  await page.keyboard.press('End');
  await page.keyboard.type(' now');
  await tabTo(page, edit.getByRole('button', { name: 'Update Task' }));
  await page.keyboard.press('Enter');
  await expect(toastIn(page, MSG.taskUpdated)).toBeVisible();
  await expect(edit).toBeHidden();
  await tabTo(page, page.getByTestId('task-card').filter({ hasText: 'Edit me now' }), { back: true });
  await page.keyboard.press('Enter');
  await tabTo(page, edit.getByRole('button', { name: 'Delete' }));
  await page.keyboard.press('Enter');
  const confirm = page.getByRole('dialog', { name: 'Delete Task' });
  await expect(confirm).toBeVisible();
  expect(await confirm.evaluate((el) => el.contains(document.activeElement))).toBe(true);
  await expectFocusTrapped(page, confirm);
  await page.keyboard.press('Escape');
  await expect(confirm).toBeHidden();
  // The edit modal steps aside for the confirmation and comes back with focus inside it.
  await expect(edit).toBeVisible();
  await expect.poll(() => edit.evaluate((el) => el.contains(document.activeElement))).toBe(true);
  await tabTo(page, edit.getByRole('button', { name: 'Delete' }));
  await page.keyboard.press('Enter');
  await tabTo(page, confirm.getByRole('button', { name: 'Delete' }));
  await page.keyboard.press('Enter');
  await expect(toastIn(page, MSG.taskDeleted)).toBeVisible();
  await expect(page.getByTestId('task-card').filter({ hasText: 'Edit me' })).toHaveCount(0);

  // The list view, sorted by a column header button.
  await tabTo(page, page.getByRole('button', { name: 'List', exact: true }), { back: true });
  await page.keyboard.press('Enter');
  const table = page.getByRole('table');
  await tabTo(page, table.getByRole('button', { name: 'Title' }));
  await page.keyboard.press('Enter');
  await expect(table.getByRole('columnheader', { name: 'Title' })).toHaveAttribute('aria-sort', 'ascending');

  // Teams: open the team from its card and invite someone.
  await tabTo(page, nav.getByRole('link', { name: 'Teams' }), { back: true });
  await page.keyboard.press('Enter');
  await tabTo(page, page.getByRole('button', { name: 'Key Crew' }));
  await page.keyboard.press('Enter');
  const teamDialog = page.getByRole('dialog', { name: 'Edit Team' });
  await tabTo(page, teamDialog.getByLabel('Email address'));
  await page.keyboard.type(guest.email);
  await tabTo(page, teamDialog.getByRole('button', { name: 'Send Invitation' }));
  await page.keyboard.press('Enter');
  await expect(toastIn(page, MSG.inviteSent)).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(teamDialog).toBeHidden();
  await expect(page.getByRole('button', { name: 'Key Crew' })).toBeFocused();

  // Sign out from the user menu.
  await tabTo(page, page.getByRole('button', { name: 'User menu' }), { back: true });
  await page.keyboard.press('Enter');
  await page.keyboard.press('End');
  await expect(page.getByRole('menuitem', { name: 'Sign out' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/login$/);
});

test('every route names itself in the page title', async ({ page, request }) => {
  await page.goto('/signup');
  await expect(page).toHaveTitle('Create Account · Crewboard');
  const user = await createUser(request);
  await signIn(page, user);
  const titles: Record<string, string> = {
    '/dashboard': 'Dashboard',
    '/tasks': 'Tasks',
    '/projects': 'Projects',
    '/teams': 'Teams',
    '/notes': 'Notes',
    '/calendar': 'Calendar',
    '/timesheet': 'Timesheet',
    '/analytics': 'Analytics',
    '/settings': 'Settings',
    '/notifications': 'Notifications',
    '/no-such-page': 'Page not found',
  };
  for (const [route, title] of Object.entries(titles)) {
    await page.goto(route);
    await expect(page).toHaveTitle(`${title} · Crewboard`);
    console.log(`title ${route}: ${await page.title()}`);
  }
});
