import type { Locator, Page } from '@playwright/test';
import type { ProjectDto } from '../../src/domain/schemas/project';
import type { TaskDto } from '../../src/domain/schemas/task';
import type { StatusDto, StatusListDto } from '../../src/domain/schemas/workflow';
import { apiAs, axeViolations, card, expect, pickUp, seedCrew, signIn, test } from './fixtures';

/** axe on the board as it is now, light then dark (ending in light). */
async function audit(page: Page, label: string) {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    expect.soft(await axeViolations(page), `axe violations on ${label} (${colorScheme})`).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/**
 * A mouse drag from the middle of `from` to a point of `to` (its middle, or `dy` below its top). Each box is read when
 * it is needed: the target once the card is picked up, so that a board still settling (a refetch, a lane opening)
 * cannot move it between the reading and the drop.
 */
async function drag(page: Page, from: Locator, to: Locator, dy?: number) {
  await expect(from).toBeVisible();
  const a = (await from.boundingBox())!;
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(a.x + a.width / 2 + 20, a.y + a.height / 2 + 10, { steps: 5 });
  const b = (await to.boundingBox())!;
  await page.mouse.move(b.x + b.width / 2, b.y + (dy ?? b.height / 2), { steps: 15 });
  await page.mouse.up();
}

// Wide and tall enough for five columns and two lanes without scrolling: near the board's edge a mouse drag scrolls it
// (dnd-kit's auto-scroll) and the target slides from under the pointer — CI dropped beside QA and beside a lane.
test.use({ viewport: { width: 1680, height: 1050 } });

test('a custom workflow on the board: WIP limits, moves by mouse and keyboard, swimlanes in the URL', async ({
  page,
  request,
}) => {
  const { owner, mia, team } = await seedCrew(request);
  const project = await apiAs<ProjectDto>(request, owner, 'post', '/api/projects', { name: 'Apollo', teamId: team.id });
  const qa = await apiAs<StatusDto>(request, owner, 'post', `/api/projects/${project.id}/statuses`, {
    name: 'QA',
    category: 'started',
    color: '#7c3aed',
    wipLimit: 1,
  });
  const { statuses } = await apiAs<StatusListDto>(request, owner, 'get', `/api/projects/${project.id}/statuses`);
  // QA before Completed.
  const ids = statuses.filter((s) => s.id !== qa.id).map((s) => s.id);
  ids.splice(ids.length - 1, 0, qa.id);
  await apiAs(request, owner, 'put', `/api/projects/${project.id}/statuses/order`, { ids });
  const newTask = (title: string, assigneeId?: string) =>
    apiAs<TaskDto>(request, owner, 'post', '/api/tasks', { title, projectId: project.id, assigneeId });
  await newTask('First in');
  const second = await newTask('Second in');
  const laneMover = await newTask('Lane mover', mia.id);

  await signIn(page, owner);
  await page.goto(`/tasks?project=${project.id}`);
  const board = page.getByTestId('task-board');
  const qaColumn = page.getByTestId('column-qa');
  await expect(board.getByRole('heading', { level: 2 })).toHaveText(['To Do', 'In Progress', 'Review', 'QA', 'Completed']);
  await expect(qaColumn.getByTestId('column-count')).toContainText('0 / 1');

  // Mouse: into QA, at its limit (not over it).
  await drag(page, card(board, 'First in'), qaColumn, 120);
  await expect(card(qaColumn, 'First in')).toBeVisible();
  await expect(qaColumn.getByTestId('column-count')).toContainText('1 / 1');
  await expect(qaColumn.getByText('Over WIP limit')).toHaveCount(0);

  // Keyboard: three columns right, into the full QA column (allowed; the column is marked).
  const todo = page.getByTestId('column-todo');
  await expect(async () => {
    await pickUp(page, card(todo, 'Second in'), 'Second in', 'To Do');
    await page.keyboard.press('ArrowRight');
    await expect(page.getByText('Task Second in is over In Progress.')).toBeAttached({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  for (const over of ['Review', 'QA']) {
    await page.keyboard.press('ArrowRight');
    await expect(page.getByText(`Task Second in is over ${over}.`)).toBeAttached();
  }
  await page.keyboard.press('Space');
  await expect(card(qaColumn, 'Second in')).toBeVisible();
  await expect(qaColumn.getByTestId('column-count')).toContainText('2 / 1');
  await expect(qaColumn.getByText('Over WIP limit')).toBeVisible();
  await expect(page.getByRole('region', { name: 'QA Over WIP limit' })).toBeVisible();
  await expect.poll(async () => (await apiAs<TaskDto>(request, owner, 'get', `/api/tasks/${second.id}`)).status).toBe('qa');
  await audit(page, 'board with a custom workflow');

  // Swimlanes by assignee, in the URL; a drag into the Unassigned lane unassigns the card.
  await page.getByLabel('Group by').selectOption({ label: 'Assignee' });
  await expect(page).toHaveURL(/groupBy=assignee/);
  const miaLane = page.getByRole('region', { name: /^Mia Member/ });
  const unassigned = page.getByRole('region', { name: /^Unassigned/ });
  await expect(miaLane.getByRole('button', { name: /Mia Member/ })).toHaveAttribute('aria-expanded', 'true');
  await expect(card(unassigned, 'First in')).toBeVisible();
  await drag(page, card(miaLane, 'Lane mover'), unassigned.getByTestId('cell-todo'));
  await expect(card(unassigned, 'Lane mover')).toBeVisible();
  await expect
    .poll(async () => (await apiAs<TaskDto>(request, owner, 'get', `/api/tasks/${laneMover.id}`)).assigneeId)
    .toBeNull();
  // A lane collapses.
  await unassigned.getByRole('button', { name: /Unassigned/ }).click();
  await expect(unassigned.getByRole('button', { name: /Unassigned/ })).toHaveAttribute('aria-expanded', 'false');
  await expect(card(page, 'Lane mover')).toHaveCount(0);
  await audit(page, 'board in swimlanes');

  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(page.getByLabel('Group by')).toHaveValue('assignee');
  await expect(card(page, 'First in')).toBeVisible();
  expect.soft(await axeViolations(page), 'axe violations at 390 px').toEqual([]);
});
