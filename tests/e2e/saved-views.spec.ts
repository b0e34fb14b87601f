import { mkdirSync } from 'node:fs';
import type { Page } from '@playwright/test';
import type { ProjectDto } from '../../src/domain/schemas/project';
import type { TeamDto } from '../../src/domain/schemas/team';
import { apiAs, axeViolations, card, column, type E2EUser, expect, seedCrew, signIn, test } from './fixtures';

/**
 * Saved views on the Tasks page (issue 23): 'Save view' keeps the filters under a name, the 'Views' menu restores
 * them (after a reload too), a view shared with a team appears for a teammate and applies there; the owner updates,
 * renames and deletes it.
 */

const SHOTS = '/tmp/shots';

interface World {
  owner: E2EUser;
  mia: E2EUser;
  team: TeamDto;
  apollo: ProjectDto;
}
let world: World;

const viewsButton = (page: Page) => page.getByRole('button', { name: /^Views/ });
const viewItem = (page: Page, name: string) => page.getByRole('menuitemradio', { name: new RegExp(`^${name}`) });

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ request }) => {
  const { owner, mia, team } = await seedCrew(request);
  const apollo = await apiAs<ProjectDto>(request, owner, 'post', '/api/projects', { name: 'Apollo', teamId: team.id });
  const zephyr = await apiAs<ProjectDto>(request, owner, 'post', '/api/projects', { name: 'Zephyr', teamId: team.id });
  await apiAs(request, owner, 'post', '/api/tasks', { title: 'Apollo hot fix', projectId: apollo.id, priority: 'high' });
  await apiAs(request, owner, 'post', '/api/tasks', { title: 'Apollo slow chore', projectId: apollo.id, priority: 'low' });
  await apiAs(request, owner, 'post', '/api/tasks', { title: 'Zephyr hot fix', projectId: zephyr.id, priority: 'high' });
  const probe = await request.get('/api/views', { headers: { authorization: `Bearer ${owner.accessToken}` } });
  expect(probe.status(), 'GET /api/views must answer').toBe(200);
  world = { owner, mia, team, apollo };
});

test('set filters, Save view (shared with the team), reload, pick it from the menu: the filters are back', async ({ page }) => {
  const { owner, apollo } = world;
  await signIn(page, owner);
  await page.goto('/tasks');
  const todo = column(page, 'todo');
  await expect(card(todo, 'Zephyr hot fix')).toBeVisible();

  // The menu's empty state.
  await viewsButton(page).click();
  await expect(page.getByRole('menu')).toContainText('No saved views yet');
  await page.keyboard.press('Escape');

  // Filters: the project and a priority.
  await page.getByLabel('Project', { exact: true }).selectOption({ label: 'Apollo' });
  await page.getByRole('button', { name: 'More Filters' }).click();
  await page.getByLabel('Priority', { exact: true }).selectOption({ label: 'High' });
  await expect(card(todo, 'Apollo hot fix')).toBeVisible();
  await expect(card(todo, 'Apollo slow chore')).toHaveCount(0);
  await expect(card(todo, 'Zephyr hot fix')).toHaveCount(0);

  await page.getByRole('button', { name: 'Save view' }).click();
  const dialog = page.getByRole('dialog', { name: 'Save view' });
  // A name is required (the form's own check, from the shared schema).
  await dialog.getByRole('button', { name: 'Save view' }).click();
  await expect(dialog.getByText('View name is required')).toBeVisible();
  await dialog.getByLabel('View name').fill('Apollo hot');
  await dialog.getByLabel('Share with').selectOption({ label: 'Crew One' });
  if (process.env.E2E_SHOTS !== '0') {
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: `${SHOTS}/saved-views-dialog.png` });
  }
  await dialog.getByRole('button', { name: 'Save view' }).click();
  await expect(page.getByText('View saved')).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(/savedView=/);

  // A personal one too (Mia must not see it).
  await page.getByLabel('Priority', { exact: true }).selectOption({ label: 'Low' });
  await page.getByRole('button', { name: 'Save view' }).click();
  await dialog.getByLabel('View name').fill('My slow ones');
  await dialog.getByRole('button', { name: 'Save view' }).click();
  await expect(dialog).toBeHidden();

  // Reload, then start from a clean board, and choose the shared view.
  await page.reload();
  await page.goto('/tasks');
  await expect(card(todo, 'Zephyr hot fix')).toBeVisible();
  await viewsButton(page).click();
  await expect(page.getByRole('menu')).toContainText('My views');
  await expect(page.getByRole('menu')).toContainText('Shared with my teams');
  await expect(viewItem(page, 'Apollo hot')).toContainText('Shared with Crew One');
  expect(await axeViolations(page), 'axe, the Views menu open').toEqual([]);
  await viewItem(page, 'Apollo hot').click();
  await expect(page).toHaveURL(new RegExp(`project=${apollo.id}`));
  await expect(page).toHaveURL(/priority=high/);
  await expect(page.getByLabel('Project', { exact: true })).toHaveValue(apollo.id);
  await expect(page.getByRole('list', { name: 'Active filters' })).toContainText('Priority: High');
  await expect(card(todo, 'Apollo hot fix')).toBeVisible();
  await expect(card(todo, 'Apollo slow chore')).toHaveCount(0);
  await expect(card(todo, 'Zephyr hot fix')).toHaveCount(0);
  await expect(viewsButton(page)).toContainText('Apollo hot');

  // The palette lists it too, and opens it.
  await page.goto('/dashboard');
  await expect(page.getByPlaceholder('Search tasks, projects...')).toBeVisible();
  await page.keyboard.press('Control+k');
  await page.getByRole('combobox', { name: 'Search or type a command' }).pressSequentially('apollo hot');
  const option = page.getByRole('option').filter({ hasText: 'Shared with Crew One' });
  await expect(option).toBeVisible();
  await option.click();
  await expect(page).toHaveURL(/\/tasks\?.*priority=high/);
  await expect(card(todo, 'Apollo hot fix')).toBeVisible();
  await expect(card(todo, 'Zephyr hot fix')).toHaveCount(0);
});

test('a view shared with the team appears for a teammate and applies there; a personal one does not', async ({ page }) => {
  const { mia, apollo } = world;
  await signIn(page, mia);
  await page.goto('/tasks');
  const todo = column(page, 'todo');
  await expect(card(todo, 'Zephyr hot fix')).toBeVisible();
  await viewsButton(page).click();
  await expect(viewItem(page, 'Apollo hot')).toContainText('Olive Owner · Crew One');
  await expect(page.getByRole('menu')).not.toContainText('My slow ones');
  await viewItem(page, 'Apollo hot').click();
  await expect(page.getByLabel('Project', { exact: true })).toHaveValue(apollo.id);
  await expect(card(todo, 'Apollo hot fix')).toBeVisible();
  await expect(card(todo, 'Zephyr hot fix')).toHaveCount(0);
  // Mia may use it, not change it.
  await viewsButton(page).click();
  await expect(page.getByRole('menuitem', { name: 'Rename' })).toHaveCount(0);
  await expect(page.getByRole('menuitem', { name: 'Delete' })).toHaveCount(0);
});

test('the owner updates it with the current filters, renames it and deletes it (with confirmation)', async ({ page }) => {
  await signIn(page, world.owner);
  await page.goto('/tasks');
  await viewsButton(page).click();
  await viewItem(page, 'Apollo hot').click();
  const todo = column(page, 'todo');
  await expect(card(todo, 'Apollo hot fix')).toBeVisible();

  // Nothing to update while the filters are the view's.
  await viewsButton(page).click();
  await expect(page.getByRole('menuitem', { name: 'Update with current filters' })).toBeDisabled();
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Remove filter Priority: High' }).click();
  await expect(card(todo, 'Apollo slow chore')).toBeVisible();
  await viewsButton(page).click();
  await page.getByRole('menuitem', { name: 'Update with current filters' }).click();
  await expect(page.getByText('View “Apollo hot” updated')).toBeVisible();

  await viewsButton(page).click();
  await page.getByRole('menuitem', { name: 'Rename' }).click();
  const rename = page.getByRole('dialog', { name: 'Rename view' });
  await expect(rename.getByLabel('View name')).toHaveValue('Apollo hot');
  await rename.getByLabel('View name').fill('Apollo all');
  await rename.getByRole('button', { name: 'Rename' }).click();
  await expect(page.getByText('View renamed')).toBeVisible();
  await expect(rename).toBeHidden();
  await expect(viewsButton(page)).toBeFocused();
  await expect(viewsButton(page)).toContainText('Apollo all');

  // From a clean board, the updated view shows both Apollo tasks.
  await page.goto('/tasks');
  await viewsButton(page).click();
  await viewItem(page, 'Apollo all').click();
  await expect(card(todo, 'Apollo slow chore')).toBeVisible();
  await expect(card(todo, 'Apollo hot fix')).toBeVisible();
  await expect(card(todo, 'Zephyr hot fix')).toHaveCount(0);

  await viewsButton(page).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete view' });
  await expect(confirm).toContainText('Delete the view “Apollo all”? Its team loses it too.');
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('View “Apollo all” deleted')).toBeVisible();
  await expect(page).not.toHaveURL(/savedView=/);
  await viewsButton(page).click();
  await expect(viewItem(page, 'Apollo all')).toHaveCount(0);
  await expect(viewItem(page, 'My slow ones')).toBeVisible();
});
