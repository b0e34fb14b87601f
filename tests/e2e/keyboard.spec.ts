import type { Locator, Page } from '@playwright/test';
import { TASK_STATUS_LABELS, type TaskStatus } from '../../src/domain/constants';
import { MSG } from '../../src/domain/messages';
import { createUser, expect, signIn, test } from './fixtures';

/** Whether the focused element (or the card/row around it that draws the ring) shows a focus indicator. */
function focusIndicator(page: Page) {
  return page.evaluate(() => {
    let el = document.activeElement as HTMLElement | null;
    const name = el ? `${el.tagName.toLowerCase()} "${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 40)}"` : 'nothing';
    // The calendar button inside a date input is drawn and focused by the browser itself, with its own ring.
    if (el instanceof HTMLInputElement && el.type === 'date' && !el.matches(':focus-visible')) return { name, visible: true };
    for (let depth = 0; el && depth < 4; depth++, el = el.parentElement) {
      const s = getComputedStyle(el);
      const outline = s.outlineStyle !== 'none' && Number.parseFloat(s.outlineWidth) > 0;
      if (outline || s.boxShadow !== 'none') return { name, visible: true };
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
    const focus = await focusIndicator(page);
    expect(focus.visible, `no visible focus on ${focus.name}`).toBe(true);
  }
  throw new Error(`Tab never reached ${target}`);
}

/** Focus stays inside the dialog for a full cycle of Tab and of Shift+Tab. */
async function expectFocusTrapped(page: Page, dialog: Locator) {
  const focusable = await dialog.evaluate(
    (el) => el.querySelectorAll('a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled])').length,
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

test('keyboard only: sign in, create a team, a project and a task, move the task from To Do to Completed', async ({ page, request }) => {
  test.setTimeout(120_000);
  const user = await createUser(request, { fullName: 'Kim Keys' });

  // Sign in.
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
  await page.keyboard.press('Enter');
  await expect(toastIn(page, MSG.taskCreated)).toBeVisible();
  await expect(taskDialog).toBeHidden();
  await expect(newTask).toBeFocused();

  // Move the card: Space picks it up, the right arrow goes one column at a time, Space drops it.
  const column = (status: TaskStatus) => page.getByRole('region', { name: TASK_STATUS_LABELS[status], exact: true });
  const card = column('todo').getByTestId('task-card').filter({ hasText: 'Keyboard task' });
  await tabTo(page, card);
  await expect(card).toHaveAccessibleDescription(/press Space/);
  await page.keyboard.press('Space');
  await expect(card).toHaveAttribute('aria-pressed', 'true');
  await expect(liveRegion(page, /^(Picked up task Keyboard task\.|Task Keyboard task is over To Do\.)$/)).toBeAttached();
  for (const status of ['in_progress', 'review', 'completed'] as const) {
    await page.keyboard.press('ArrowRight');
    await expect(liveRegion(page, `Task Keyboard task is over ${TASK_STATUS_LABELS[status]}.`)).toBeAttached();
  }
  await page.keyboard.press('Space');
  await expect(liveRegion(page, 'Moved task Keyboard task to Completed')).toBeAttached();
  await expect(column('completed').getByTestId('task-card').filter({ hasText: 'Keyboard task' })).toBeVisible();
  await expect(column('todo').getByText('No tasks in To Do')).toBeVisible();
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
