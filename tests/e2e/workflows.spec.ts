import { mkdirSync } from 'node:fs';
import type { Page } from '@playwright/test';
import type { ProjectDto } from '../../src/domain/schemas/project';
import type { TaskDto } from '../../src/domain/schemas/task';
import type { StatusListDto } from '../../src/domain/schemas/workflow';
import { WORKFLOW_ERRORS } from '../../src/domain/workflow-errors';
import { apiAs, axeViolations, type E2EUser, expect, seedCrew, signIn, test } from './fixtures';

/**
 * The project settings page's Workflow (issue 36): reached from the projects page, a status added, moved by drag and keyboard,
 * given a WIP limit, renamed (its key and tasks stay) and deleted with its tasks moved; plain members read it only.
 * Pictures (light, dark, 390 px) outside CI, or with E2E_SHOTS=1.
 */
const SHOTS = process.env.E2E_SHOTS === '0' || (process.env.CI && process.env.E2E_SHOTS !== '1') ? null : '/tmp/shots-settings';

const statusList = (page: Page) => page.getByRole('list', { name: 'Statuses' });
const row = (page: Page, name: string) => statusList(page).getByRole('listitem', { name, exact: true });

async function statusesOf(request: Parameters<typeof apiAs>[0], user: E2EUser, projectId: string) {
  return (await apiAs<StatusListDto>(request, user, 'get', `/api/projects/${projectId}/statuses`)).statuses;
}

/** A whole-page picture: <main> scrolls inside a screen-high shell, so the window grows to its content meanwhile. */
async function shoot(page: Page, name: string) {
  const size = page.viewportSize();
  if (!SHOTS || !size) return;
  const height = await page.evaluate(() => {
    const main = document.getElementById('main')!;
    return main.scrollHeight - main.clientHeight + window.innerHeight;
  });
  await page.setViewportSize({ width: size.width, height: Math.max(size.height, height) });
  await page.screenshot({ path: `${SHOTS}/${name}.png` });
  await page.setViewportSize(size);
}

/** axe in light and dark, ending in light; a picture of each when pictures are taken. */
async function auditBoth(page: Page, label: string) {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    expect.soft(await axeViolations(page), `axe violations on ${label} (${colorScheme})`).toEqual([]);
    await shoot(page, `${label}-${colorScheme}`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

test('a team owner adds QA, moves it by drag and keyboard, limits, renames and deletes it (its tasks kept); axe and 390 px', async ({
  page,
  request,
}) => {
  if (SHOTS) mkdirSync(SHOTS, { recursive: true });
  const { owner, team } = await seedCrew(request);
  const project = await apiAs<ProjectDto>(request, owner, 'post', '/api/projects', { name: 'Launch', teamId: team.id });
  await apiAs(request, owner, 'post', '/api/tasks', { title: 'Write the plan', projectId: project.id, status: 'review' });

  await signIn(page, owner);
  await page.goto('/projects');
  await expect(page.getByRole('list', { name: 'Projects' })).toBeVisible();
  await shoot(page, 'projects');
  await page
    .getByRole('list', { name: 'Projects' })
    .getByRole('listitem')
    .filter({ hasText: 'Launch' })
    .getByRole('link', { name: 'Project settings: Launch' })
    .click();
  await expect(page).toHaveURL(new RegExp(`/projects/${project.id}/settings$`));
  await expect(page.getByRole('heading', { name: 'Launch settings', level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Workflow', level: 2 })).toBeVisible();
  await expect(statusList(page).getByRole('listitem')).toHaveCount(4);
  await expect(row(page, 'Review')).toContainText('1 task');

  // Add 'QA' (Started): after the last status.
  const add = page.getByRole('form', { name: 'Add status' });
  await add.getByLabel('Name').fill('QA');
  await add.getByLabel('Category').selectOption({ label: 'Started' });
  await add.getByRole('button', { name: 'Add status' }).click();
  await expect(page.getByText('Status added')).toBeVisible();
  await expect(add.getByLabel('Name')).toHaveValue('');
  await expect(statusList(page).getByRole('listitem').last()).toHaveAccessibleName('QA');

  // Dragged by its grip onto Completed: between Review and Completed.
  const order = ['To Do', 'In Progress', 'Review', 'QA', 'Completed'];
  const names = async () => (await statusesOf(request, owner, project.id)).map((s) => s.name);
  const grip = (await row(page, 'QA').getByTitle('Drag to reorder').boundingBox())!;
  const onto = (await row(page, 'Completed').boundingBox())!;
  await page.mouse.move(grip.x + grip.width / 2, grip.y + grip.height / 2);
  await page.mouse.down();
  await page.mouse.move(grip.x + grip.width / 2, grip.y - 10, { steps: 3 });
  await page.mouse.move(onto.x + onto.width / 2, onto.y + onto.height / 2, { steps: 10 });
  await page.mouse.up();
  await expect(statusList(page).getByRole('listitem').nth(3)).toHaveAccessibleName('QA');
  await expect.poll(names).toEqual(order);

  // By keyboard: down to the end (focus moves to Move up, down being disabled there), and up again. From a fresh load:
  // a refetch the realtime events started before the drag's order was stored can still land and draw the order before
  // it for a moment (the drag's own refetch puts it right), and a key pressed then would meet QA at the end.
  await page.reload();
  await expect(statusList(page).getByRole('listitem').nth(3)).toHaveAccessibleName('QA');
  await row(page, 'QA').getByRole('button', { name: 'Move QA down' }).focus();
  await page.keyboard.press('Enter');
  const up = row(page, 'QA').getByRole('button', { name: 'Move QA up' });
  await expect(up).toBeFocused();
  await expect(statusList(page).getByRole('listitem').last()).toHaveAccessibleName('QA');
  await page.keyboard.press('Enter');
  await expect(statusList(page).getByRole('listitem').nth(3)).toHaveAccessibleName('QA');
  await expect(up).toBeFocused();
  await expect.poll(names).toEqual(order);

  // WIP limit 1; a taken name is refused beside the field; the last Completed status keeps its category.
  const qa = row(page, 'QA');
  await qa.getByLabel('WIP limit').fill('1');
  await qa.getByLabel('WIP limit').press('Enter');
  await expect.poll(async () => (await statusesOf(request, owner, project.id))[3]?.wipLimit).toBe(1);
  await qa.getByLabel('Name').fill('review');
  await qa.getByLabel('Name').press('Enter');
  await expect(qa.getByText(WORKFLOW_ERRORS.status_name_taken.message)).toBeVisible();
  await row(page, 'Completed').getByLabel('Category').selectOption({ label: 'Started' });
  await expect(row(page, 'Completed').getByText(WORKFLOW_ERRORS.workflow_needs_completed_status.message)).toBeVisible();
  await expect(row(page, 'Completed').getByLabel('Category')).toHaveValue('completed');
  await shoot(page, 'field-errors');

  // Rename to 'Quality': the key stays 'qa', and a task in it keeps its status.
  const task = await apiAs<TaskDto>(request, owner, 'post', '/api/tasks', {
    title: 'Check the release',
    projectId: project.id,
    status: 'qa',
  });
  await qa.getByLabel('Name').fill('Quality');
  await qa.getByLabel('Name').press('Enter');
  await expect(row(page, 'Quality')).toBeVisible();
  const renamed = (await statusesOf(request, owner, project.id))[3];
  expect([renamed?.key, renamed?.name, renamed?.wipLimit]).toEqual(['qa', 'Quality', 1]);
  expect((await apiAs<TaskDto>(request, owner, 'get', `/api/tasks/${task.id}`)).status).toBe('qa');
  await page.reload();
  await expect(row(page, 'Quality')).toContainText('1 task');
  await auditBoth(page, 'settings');

  // Delete it: its task goes to Review (the status before it, chosen again here).
  await row(page, 'Quality').getByRole('button', { name: 'Delete Quality' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete status "Quality"' });
  await expect(dialog).toContainText('"Quality" has 1 task.');
  const review = (await statusesOf(request, owner, project.id)).find((s) => s.key === 'review');
  await expect(dialog.getByLabel('Move its tasks to')).toHaveValue(review?.id ?? 'Review');
  await dialog.getByLabel('Move its tasks to').selectOption({ label: 'Review' });
  expect.soft(await axeViolations(page), 'axe violations on the delete dialog').toEqual([]);
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/delete-dialog.png` });
  await dialog.getByRole('button', { name: 'Delete status' }).click();
  await expect(page.getByText('Status deleted. Its tasks are in Review.')).toBeVisible();
  await expect(statusList(page).getByRole('listitem')).toHaveCount(4);
  await expect(row(page, 'Review')).toContainText('2 tasks');
  await expect(statusList(page)).toBeFocused();
  expect((await apiAs<TaskDto>(request, owner, 'get', `/api/tasks/${task.id}`)).status).toBe('review');

  // A phone: the rows wrap within the screen.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(row(page, 'Review')).toContainText('2 tasks');
  const overflow = await page.evaluate(() => {
    const main = document.getElementById('main')!;
    return main.scrollWidth - main.clientWidth;
  });
  expect(overflow).toBeLessThanOrEqual(0);
  await auditBoth(page, 'settings-390');
});

test('a plain member reads the workflow from the edit dialog, without a control to change it; an unknown project', async ({
  page,
  request,
}) => {
  const { owner, mia, team } = await seedCrew(request);
  const project = await apiAs<ProjectDto>(request, owner, 'post', '/api/projects', { name: 'Guarded', teamId: team.id });

  await signIn(page, mia);
  await page.goto('/projects?view=list');
  await page.getByRole('table').getByRole('button', { name: 'Guarded' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Project' });
  await expect(edit.getByLabel('Project Name')).toHaveValue('Guarded');
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/edit-dialog.png` });
  await edit.getByRole('link', { name: 'Project settings' }).click();
  await expect(page).toHaveURL(new RegExp(`/projects/${project.id}/settings$`));
  await expect(page.getByRole('heading', { name: 'Guarded settings', level: 1 })).toBeVisible();
  await expect(page.getByText("Only the team's owner and admins can change the workflow.")).toBeVisible();
  await expect(statusList(page).getByRole('listitem')).toHaveCount(4);
  await expect(row(page, 'Review')).toContainText('Started');
  const main = page.getByRole('main');
  await expect(main.getByRole('textbox')).toHaveCount(0);
  await expect(main.getByRole('combobox')).toHaveCount(0);
  await expect(main.getByRole('spinbutton')).toHaveCount(0);
  await expect(main.getByRole('button', { name: /^(Add status|Delete |Move )/ })).toHaveCount(0);
  await shoot(page, 'read-only');

  // A project that is not there (or not hers): the page says so.
  await page.goto('/projects/00000000-0000-4000-8000-000000000000/settings');
  await expect(page.getByRole('heading', { name: 'Project not found' })).toBeVisible();
});
