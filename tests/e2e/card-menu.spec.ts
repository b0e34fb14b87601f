import { mkdirSync } from 'node:fs';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import type { ProjectDto } from '../../src/domain/schemas/project';
import type { TaskDto } from '../../src/domain/schemas/task';
import type { StoppedTimerDto } from '../../src/domain/schemas/time';
import { apiAs, axeViolations, card, column, expect, seedCrew, signIn, test } from './fixtures';

/**
 * A board card's menu (issue 39: 'Start timer' / 'Stop timer' on the card's menu): opened by right-click and by
 * Shift+F10 on the focused card, without a tab stop of its own; 'Start timer' shows the timer in the top bar, the menu
 * then says 'Stop timer'; Escape gives focus back to the card; 'Open task' opens it; axe with it open, both themes.
 */

const SHOTS = '/tmp/shots-H';
mkdirSync(SHOTS, { recursive: true });

const menu = (page: Page) => page.getByRole('menu');
const topBarTimer = (page: Page) => page.getByRole('region', { name: 'Running timer' });

async function board(request: APIRequestContext) {
  const { owner, team } = await seedCrew(request);
  const project = await apiAs<ProjectDto>(request, owner, 'post', '/api/projects', { name: 'Apollo', teamId: team.id });
  const newTask = (title: string) => apiAs<TaskDto>(request, owner, 'post', '/api/tasks', { title, projectId: project.id });
  return { owner, newTask };
}

/** What the stop (DELETE /api/me/timer) that `action` causes says it stopped. */
async function stoppedBy(page: Page, action: () => Promise<void>): Promise<StoppedTimerDto | null> {
  const answer = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/me/timer' && r.request().method() === 'DELETE');
  await action();
  const res = await answer;
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { stopped: StoppedTimerDto | null }).stopped;
}

/** Focused and Shift+F10 until the menu shows (pressed again only if a busy page lost the first press). */
async function openByKeyboard(page: Page, target: Locator) {
  await expect(async () => {
    if (!(await menu(page).isVisible())) {
      await target.focus();
      await page.keyboard.press('Shift+F10');
    }
    await expect(menu(page)).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
}

test.describe('card menu', () => {
  test('right-click and Shift+F10 open it; Start timer, Stop timer, Escape, Open task', async ({ page, request }) => {
    test.setTimeout(180_000);
    const { owner, newTask } = await board(request);
    await newTask('Write the report');
    await newTask('Review the budget');
    await signIn(page, owner);
    await page.goto('/tasks');
    const todo = column(page, 'todo');
    const report = card(todo, 'Write the report');
    await expect(report).toBeVisible();

    // Told how to open it; it is the card's own key, not another tab stop.
    await expect(report).toHaveAttribute('aria-keyshortcuts', 'Shift+F10 ContextMenu');
    await expect(report).toHaveAccessibleDescription(/Press Shift\+F10 for the task's menu\./);
    await expect(todo.getByRole('button', { name: /menu/i })).toHaveCount(0);

    // Right-click: the menu at the pointer, for that task; 'Start timer' starts it (the top bar shows it).
    const box = (await report.boundingBox())!;
    await report.click({ button: 'right', position: { x: 30, y: 20 } });
    await expect(menu(page)).toBeVisible();
    await expect(menu(page)).toHaveAccessibleName('Task Write the report');
    const menuBox = (await menu(page).boundingBox())!;
    expect(Math.abs(menuBox.x - (box.x + 30))).toBeLessThan(12);
    await menu(page).getByRole('menuitem', { name: 'Start timer' }).click();
    await expect(menu(page)).toHaveCount(0);
    await expect(topBarTimer(page)).toContainText('Write the report');
    await expect(report).toBeFocused();

    // Another card's menu still offers to start (it would stop this one); this card's says 'Stop timer'.
    await card(todo, 'Review the budget').click({ button: 'right' });
    await expect(menu(page).getByRole('menuitem', { name: 'Start timer' })).toBeVisible();
    // A right-click on another card while one menu is open: that card's menu replaces it.
    await report.click({ button: 'right' });
    await expect(menu(page)).toHaveAccessibleName('Task Write the report');
    await expect(menu(page).getByRole('menuitem', { name: 'Stop timer' })).toBeVisible();
    await expect(menu(page)).toHaveCount(1);
    await page.keyboard.press('Escape');
    await expect(menu(page)).toHaveCount(0);

    // Shift+F10 on the focused card: the first item takes focus; Escape gives focus back to the card.
    await openByKeyboard(page, report);
    await expect(menu(page).getByRole('menuitem', { name: 'Stop timer' })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(menu(page)).toHaveCount(0);
    await expect(report).toBeFocused();

    // Stopped from the menu by keyboard, under a minute: nothing logged, and the toast says so.
    await openByKeyboard(page, report);
    const stopped = await stoppedBy(page, () => page.keyboard.press('Enter'));
    expect(stopped).toMatchObject({ taskTitle: 'Write the report', minutes: 0, entry: null });
    await expect(page.getByText('Less than a minute: nothing logged')).toBeVisible();
    await expect(topBarTimer(page)).toHaveCount(0);
    await expect(report).toBeFocused();

    // 'Open task' opens it; closing it gives focus back to the card.
    await openByKeyboard(page, report);
    await menu(page).getByRole('menuitem', { name: 'Open task' }).press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Edit Task' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel('Title')).toHaveValue('Write the report');
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await expect(report).toBeFocused();

    // The card's drag is unchanged: Space picks it up, Escape puts it back.
    await page.keyboard.press('Space');
    await expect(report).toHaveAttribute('aria-pressed', 'true');
    await page.keyboard.press('Shift+F10');
    await expect(menu(page)).toHaveCount(0);
    // dnd-kit's keyboard sensor listens for keys from a timer after the pick-up, and Chromium runs input before
    // timers: on a loaded machine an Escape sent at once can come before the sensor listens (a person cannot be that
    // quick). Press it again until the card is put back.
    await expect(async () => {
      await page.keyboard.press('Escape');
      await expect(report).not.toHaveAttribute('aria-pressed', 'true', { timeout: 1_000 });
    }).toPass();
  });

  for (const scheme of ['light', 'dark'] as const) {
    test(`axe with the menu open and screenshots, ${scheme}`, async ({ browser, request }) => {
      test.setTimeout(180_000);
      const { owner, newTask } = await board(request);
      const task = await newTask('Ship the release');
      await newTask('Write the notes');
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
        const shipped = card(column(page, 'todo'), 'Ship the release');
        await expect(topBarTimer(page)).toBeVisible();
        await openByKeyboard(page, shipped);
        await expect(menu(page).getByRole('menuitem', { name: 'Stop timer' })).toBeFocused();
        expect(await axeViolations(page), `axe with the menu open, ${tag}`).toEqual([]);
        await page.screenshot({ path: `${SHOTS}/card-menu-keyboard-${tag}.png` });
        await page.keyboard.press('Escape');
        await card(column(page, 'todo'), 'Write the notes').click({ button: 'right', position: { x: 40, y: 30 } });
        await expect(menu(page).getByRole('menuitem', { name: 'Start timer' })).toBeVisible();
        expect(await axeViolations(page), `axe with the menu open by pointer, ${tag}`).toEqual([]);
        await page.screenshot({ path: `${SHOTS}/card-menu-pointer-${tag}.png` });
        await page.keyboard.press('Escape');
        await apiAs(request, owner, 'delete', '/api/me/timer');
        await context.close();
      }
    });
  }
});
