import type { Page } from '@playwright/test';
import { MSG } from '../../src/domain/messages';
import type { ProjectDto } from '../../src/domain/schemas/project';
import type { InvitationDto, TeamDto } from '../../src/domain/schemas/team';
import { apiAs, axeViolations, createUser, expect, signIn, test } from './fixtures';

const grid = (page: Page) => page.getByRole('list', { name: 'Projects' });
const stats = (page: Page) => page.getByRole('region', { name: 'Project statistics' });
const tile = (page: Page, name: RegExp) => page.getByRole('group', { name: 'Filter by status' }).getByRole('button', { name });

test.describe('projects', () => {
  test('create with validation first, then stats, tiles, filters, list view, edit, open and delete', async ({
    page,
    request,
  }) => {
    const owner = await createUser(request, { fullName: 'Olive Owner' });
    const apollo = await apiAs<TeamDto>(request, owner, 'post', '/api/teams', { name: 'Apollo Crew' });
    const zephyr = await apiAs<TeamDto>(request, owner, 'post', '/api/teams', { name: 'Zephyr Crew' });
    const ops = await apiAs<ProjectDto>(request, owner, 'post', '/api/projects', {
      name: 'Zephyr Ops',
      description: 'Internal tooling for the crew',
      teamId: zephyr.id,
      startDate: '2020-01-01',
      endDate: '2020-02-01',
    });
    await apiAs(request, owner, 'post', '/api/projects', { name: 'Legacy cleanup', teamId: apollo.id, status: 'on_hold' });
    // One completed task: Zephyr Ops is at 100%.
    await apiAs(request, owner, 'post', '/api/tasks', { title: 'Ship it', projectId: ops.id, status: 'completed' });

    await signIn(page, owner);
    await page.getByRole('link', { name: 'Projects' }).first().click();
    await expect(page).toHaveURL(/\/projects$/);
    await expect(page.getByRole('heading', { name: 'Projects', level: 1 })).toBeVisible();
    await expect(page.getByText("Manage and track your team's projects")).toBeVisible();
    await expect(stats(page)).toContainText(/Total Projects\s*2\s*Active\s*0\s*Completed\s*0\s*Avg Progress\s*50%/);

    // Validation errors first.
    await page.getByRole('button', { name: 'New Project' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create New Project' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel('Status')).toHaveValue('planning');
    await dialog.getByLabel('Start Date').fill('2030-05-10');
    await dialog.getByLabel('End Date').fill('2030-05-01');
    await expect(dialog.getByText(MSG.endAfterStartWarning)).toBeVisible();
    await dialog.getByRole('button', { name: 'Create Project' }).click();
    await expect(dialog.getByText(MSG.projectNameRequired)).toBeVisible();
    await expect(dialog.getByText(MSG.endAfterStart)).toBeVisible();

    await dialog.getByLabel('Project Name').fill('Moonshot');
    await expect(dialog.getByText(MSG.projectNameRequired)).toBeHidden();
    await dialog.getByLabel('End Date').fill('2030-06-30');
    await expect(dialog.getByText(MSG.endAfterStartWarning)).toBeHidden();
    await dialog.getByLabel('Description').fill('Reach the moon by summer');
    await dialog.getByLabel('Team').selectOption({ label: 'Apollo Crew' });
    await dialog.getByLabel('Status').selectOption({ label: 'Active' });
    await dialog.getByRole('button', { name: 'Create Project' }).click();
    await expect(page.getByText(MSG.projectCreated)).toBeVisible();
    await expect(dialog).toBeHidden();

    // In the grid, the stat cards and the tiles.
    const card = grid(page).getByRole('listitem').filter({ hasText: 'Moonshot' });
    await expect(card).toContainText('Reach the moon by summer');
    await expect(card).toContainText('Active');
    await expect(card).toContainText('Apollo Crew · 1 member');
    await expect(card).toContainText('Due Jun 30, 2030');
    await expect(card).toContainText('0 tasks');
    await expect(card.getByRole('button', { name: 'Edit Moonshot' })).toBeVisible();
    const opsCard = grid(page).getByRole('listitem').filter({ hasText: 'Zephyr Ops' });
    await expect(opsCard.getByText('Due Feb 01, 2020')).toHaveAttribute('data-overdue', 'true');
    await expect(opsCard.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');
    await expect(stats(page)).toContainText(/Total Projects\s*3\s*Active\s*1\s*Completed\s*0\s*Avg Progress\s*33%/);
    await expect(tile(page, /^All Projects\s*3$/)).toBeVisible();
    await expect(tile(page, /^Active\s*1$/)).toBeVisible();
    await expect(tile(page, /^Planning\s*1$/)).toBeVisible();
    await expect(tile(page, /^On Hold\s*1$/)).toBeVisible();
    await expect(tile(page, /^Completed\s*0$/)).toBeVisible();

    // A tile filters.
    await expect(page.getByRole('button', { name: 'Clear Filters' })).toBeHidden();
    await tile(page, /^On Hold/).click();
    await expect(grid(page).getByRole('listitem')).toHaveCount(1);
    await expect(grid(page)).toContainText('Legacy cleanup');
    await tile(page, /^All Projects/).click();
    await expect(grid(page).getByRole('listitem')).toHaveCount(3);

    // Filter by team, then clear.
    await page.getByLabel('Team').selectOption({ label: 'Apollo Crew' });
    await expect(grid(page).getByRole('listitem')).toHaveCount(2);
    await expect(grid(page)).not.toContainText('Zephyr Ops');
    await page.getByRole('button', { name: 'Clear Filters' }).click();
    await expect(grid(page).getByRole('listitem')).toHaveCount(3);
    await expect(page.getByRole('button', { name: 'Clear Filters' })).toBeHidden();

    // Filter by text (name or description), and the no-match empty state.
    const search = page.getByPlaceholder('Search projects...');
    await search.fill('TOOLING');
    await expect(grid(page).getByRole('listitem')).toHaveCount(1);
    await expect(grid(page)).toContainText('Zephyr Ops');
    await search.fill('no such project anywhere');
    await expect(page.getByText('No projects found')).toBeVisible();
    await expect(page.getByText('Try adjusting your search or filters')).toBeVisible();
    await page.getByRole('button', { name: 'Clear Filters' }).click();
    await expect(grid(page).getByRole('listitem')).toHaveCount(3);

    // List view: the table, 'No due date', a row click opens the edit modal.
    await page.getByRole('button', { name: 'List View' }).click();
    const table = page.getByRole('table');
    for (const column of ['Project', 'Status', 'Progress', 'Due Date', 'Tasks']) {
      await expect(table.getByRole('columnheader', { name: column })).toBeVisible();
    }
    await expect(table.getByRole('row').filter({ hasText: 'Moonshot' })).toContainText('Jun 30, 2030');
    await expect(table.getByRole('row').filter({ hasText: 'Legacy cleanup' })).toContainText('No due date');
    await table.getByRole('row').filter({ hasText: 'Moonshot' }).getByRole('cell').nth(3).click();
    const edit = page.getByRole('dialog', { name: 'Edit Project' });
    await expect(edit.getByLabel('Project Name')).toHaveValue('Moonshot');
    await expect(edit.getByText(MSG.projectViewOnly)).toBeHidden();
    await edit.getByLabel('Status').selectOption({ label: 'Completed' });
    await edit.getByRole('button', { name: 'Update Project' }).click();
    await expect(page.getByText(MSG.projectUpdated)).toBeVisible();
    await expect(stats(page)).toContainText(/Completed\s*1/);

    // Delete with a confirmation.
    await table.getByRole('button', { name: 'Legacy cleanup' }).click();
    await page.getByRole('dialog', { name: 'Edit Project' }).getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete Project' });
    await expect(confirm).toContainText('Legacy cleanup');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText(MSG.projectDeleted)).toBeVisible();
    await expect(table.getByRole('row').filter({ hasText: 'Legacy cleanup' })).toHaveCount(0);

    // Open a project from its grid card: its tasks.
    await page.getByRole('button', { name: 'Grid View' }).click();
    // A click anywhere on the card (here its middle, over the description) opens it.
    await grid(page).getByRole('listitem').filter({ hasText: 'Zephyr Ops' }).click();
    await expect(page).toHaveURL(new RegExp(`/tasks\\?project=${ops.id}$`));
  });

  test('a plain member: empty states, then view-only in the edit modal', async ({ page, request }) => {
    const owner = await createUser(request, { fullName: 'Olive Owner' });
    const member = await createUser(request, { fullName: 'Mia Member' });
    const team = await apiAs<TeamDto>(request, owner, 'post', '/api/teams', { name: 'Guarded Crew' });
    await apiAs(request, owner, 'post', '/api/projects', { name: 'Guarded Plan', teamId: team.id, status: 'active' });

    // With no team yet: the first-run empty state, and no teams to pick.
    await signIn(page, member);
    await page.goto('/projects');
    await expect(page.getByText('No projects yet')).toBeVisible();
    await expect(page.getByText('Get started by creating your first project')).toBeVisible();
    await page.getByRole('button', { name: 'Create Project' }).click();
    const create = page.getByRole('dialog', { name: 'Create New Project' });
    await expect(create.getByLabel('Team')).toContainText(MSG.noTeamsAvailable);
    await create.getByRole('button', { name: 'Cancel' }).click();

    const invitation = await apiAs<InvitationDto>(request, owner, 'post', `/api/teams/${team.id}/invitations`, {
      email: member.email,
      role: 'member',
    });
    await apiAs(request, member, 'post', `/api/invitations/${invitation.id}/respond`, { accept: true });

    await page.reload();
    const card = grid(page).getByRole('listitem').filter({ hasText: 'Guarded Plan' });
    await expect(card).toContainText('Guarded Crew · 2 members');
    await expect(card.getByRole('button', { name: /^Edit / })).toHaveCount(0);

    await page.getByRole('button', { name: 'List View' }).click();
    await page.getByRole('table').getByRole('button', { name: 'Guarded Plan' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Project' });
    await expect(edit.getByText(MSG.projectViewOnly)).toBeVisible();
    for (const label of ['Project Name', 'Description', 'Team', 'Status', 'Start Date', 'End Date']) {
      await expect(edit.getByLabel(label)).toBeDisabled();
    }
    await expect(edit.getByRole('button', { name: 'Delete' })).toHaveCount(0);
    await edit.getByRole('button', { name: 'Update Project' }).click();
    await expect(page.getByText(MSG.projectNoPermission)).toBeVisible();
    await expect(edit).toBeVisible();
  });

  for (const scheme of ['light', 'dark'] as const) {
    test(`grid, list and the modal with data have no WCAG A/AA violations (${scheme})`, async ({ browser, request }) => {
      const context = await browser.newContext({ colorScheme: scheme });
      const page = await context.newPage();
      const owner = await createUser(request);
      const team = await apiAs<TeamDto>(request, owner, 'post', '/api/teams', { name: 'Audit Crew' });
      for (const [name, status, endDate] of [
        ['Overdue work', 'active', '2020-01-02'],
        ['Done work', 'completed', null],
        ['Paused work', 'on_hold', '2099-01-01'],
      ] as const) {
        await apiAs(request, owner, 'post', '/api/projects', { name, status, teamId: team.id, startDate: '2020-01-01', endDate });
      }
      const audit = async (label: string) => {
        expect(await axeViolations(page), `axe violations on ${label} (${scheme})`).toEqual([]);
      };
      await signIn(page, owner);
      await page.goto('/projects');
      await expect(grid(page).getByRole('listitem')).toHaveCount(3);
      await audit('projects grid');
      await page.getByRole('button', { name: 'List View' }).click();
      await expect(page.getByRole('table')).toBeVisible();
      await audit('projects list');
      await page.getByRole('button', { name: 'New Project' }).click();
      await page.getByLabel('Start Date').fill('2030-05-10');
      await page.getByLabel('End Date').fill('2030-05-01');
      await page.getByRole('button', { name: 'Create Project' }).click();
      await expect(page.getByText(MSG.projectNameRequired)).toBeVisible();
      await audit('project modal with errors');
      await context.close();
    });
  }
});
