import type { Page } from '@playwright/test';
import { formatFieldFilter } from '../../src/domain/custom-fields';
import type { CustomFieldDto } from '../../src/domain/schemas/custom-field';
import type { ProjectDto } from '../../src/domain/schemas/project';
import type { TeamDto } from '../../src/domain/schemas/team';
import { apiAs, axeViolations, card, type E2EUser, expect, seedCrew, signIn, test } from './fixtures';

/**
 * Custom fields in the list view (issue 38): a column per field, sorted by a field (numbers as numbers, no value last),
 * a column hidden, an 'Add filter' on a field (Severity is any of …) shown as a chip and sent to the list and the
 * board as `cf`, and a saved view that brings the filter, the sort and the hidden column back; axe in both themes and
 * at 390 px.
 */

interface World {
  owner: E2EUser;
  team: TeamDto;
  apollo: ProjectDto;
  severity: CustomFieldDto;
  points: CustomFieldDto;
}
let world: World;

test.describe.configure({ mode: 'serial' });

const option = (field: CustomFieldDto, name: string) => field.options.find((o) => o.name === name)!.id;

test.beforeAll(async ({ request }) => {
  const { owner, team } = await seedCrew(request);
  const apollo = await apiAs<ProjectDto>(request, owner, 'post', '/api/projects', { name: 'Apollo', teamId: team.id });
  const severity = await apiAs<CustomFieldDto>(request, owner, 'post', `/api/teams/${team.id}/fields`, {
    name: 'Severity',
    type: 'select',
    showOnCard: true,
    options: [
      { name: 'Low', color: '#16a34a' },
      { name: 'High', color: '#ea580c' },
      { name: 'Critical', color: '#dc2626' },
    ],
  });
  const points = await apiAs<CustomFieldDto>(request, owner, 'post', `/api/teams/${team.id}/fields`, {
    name: 'Points',
    type: 'number',
  });
  const values: [string, string, number][] = [
    ['Fix login crash', 'Critical', 8],
    ['Polish settings', 'Low', 2],
    ['Write release notes', 'High', 13],
  ];
  for (const [title, sev, pts] of values)
    await apiAs(request, owner, 'post', '/api/tasks', {
      title,
      projectId: apollo.id,
      fields: { [severity.id]: option(severity, sev), [points.id]: pts },
    });
  await apiAs(request, owner, 'post', '/api/tasks', { title: 'Tidy backlog', projectId: apollo.id });
  world = { owner, team, apollo, severity, points };
});

/** The list's task titles, top to bottom. */
const rowTitles = (page: Page) => page.locator('tbody tr td:first-child button').allInnerTexts();

async function expectClean(page: Page, what: string) {
  expect(await axeViolations(page), what).toEqual([]);
}

test('field columns, sort by Points, filter Severity, hide a column, save the view and get it back', async ({ page }) => {
  const { owner, apollo, severity, points } = world;
  await signIn(page, owner);
  await page.goto(`/tasks?view=list&project=${apollo.id}`);

  // A column per field, with the values.
  const table = page.getByRole('table');
  await expect(table.getByRole('columnheader', { name: 'Severity' })).toBeVisible();
  await expect(table.getByRole('columnheader', { name: 'Points' })).toBeVisible();
  const crash = table.getByRole('row').filter({ hasText: 'Fix login crash' });
  await expect(crash.getByRole('cell', { name: 'Critical' })).toBeVisible();
  await expect(crash.getByRole('cell', { name: '8', exact: true })).toBeVisible();

  // Sort by Points: ascending (numbers as numbers: 2, 8, 13), then descending; the task without a value last.
  await table.getByRole('button', { name: 'Points' }).click();
  await expect(page).toHaveURL(new RegExp(`sort=field%3A${points.id}`));
  await expect(table.getByRole('columnheader', { name: 'Points' })).toHaveAttribute('aria-sort', 'ascending');
  await expect.poll(() => rowTitles(page)).toEqual(['Polish settings', 'Fix login crash', 'Write release notes', 'Tidy backlog']);
  await table.getByRole('button', { name: 'Points' }).click();
  await expect(table.getByRole('columnheader', { name: 'Points' })).toHaveAttribute('aria-sort', 'descending');
  await expect.poll(() => rowTitles(page)).toEqual(['Write release notes', 'Fix login crash', 'Polish settings', 'Tidy backlog']);

  // Filter: Severity is Critical — only that task, the URL has cf, the chip says it.
  await page.getByRole('button', { name: 'Add filter' }).click();
  const editor = page.getByRole('form', { name: 'Filter by a custom field' });
  await expect(editor.getByLabel('Field')).toHaveValue(severity.id);
  await expect(editor.getByLabel('Condition')).toHaveValue('any');
  await expect(editor.getByRole('button', { name: 'Apply filter' })).toBeDisabled();
  await editor.getByRole('checkbox', { name: 'Critical' }).check();
  await editor.getByRole('button', { name: 'Apply filter' }).click();
  await expect(editor).toBeHidden();
  await expect(page.getByRole('button', { name: 'Add filter' })).toBeFocused();
  const chip = page.getByRole('list', { name: 'Active filters' }).getByText('Severity is any of Critical');
  await expect(chip).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`cf=${severity.id}%3Aany%3A${option(severity, 'Critical')}`));
  await expect.poll(() => rowTitles(page)).toEqual(['Fix login crash']);

  // The board gets the same filter.
  await page.getByRole('button', { name: 'Board', exact: true }).click();
  await expect(card(page, 'Fix login crash')).toBeVisible();
  await expect(card(page, 'Polish settings')).toHaveCount(0);
  await page.getByRole('button', { name: 'List', exact: true }).click();

  // Removed from its chip (a button named for screen readers); then Critical or High, by keyboard.
  await page.getByRole('button', { name: 'Remove filter Severity is any of Critical' }).click();
  await expect.poll(() => rowTitles(page)).toHaveLength(4);
  await page.getByRole('button', { name: 'Add filter' }).press('Enter');
  await expect(editor.getByLabel('Field')).toBeFocused();
  await editor.getByRole('checkbox', { name: 'Critical' }).check();
  await editor.getByRole('checkbox', { name: 'High' }).focus();
  await page.keyboard.press('Space');
  await editor.getByRole('button', { name: 'Apply filter' }).press('Enter');
  await expect(page.getByRole('button', { name: 'Remove filter Severity is any of High, Critical' })).toBeVisible();
  await expect.poll(() => rowTitles(page)).toEqual(['Write release notes', 'Fix login crash']);

  // Looked at, and axe: light, dark (390 px: the next test).
  await page.setViewportSize({ width: 1600, height: 800 });
  await page.screenshot({ path: '/tmp/shots/custom-fields-list-light.png', fullPage: true });
  await expectClean(page, 'light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: '/tmp/shots/custom-fields-list-dark.png', fullPage: true });
  await expectClean(page, 'dark');
  await page.getByRole('button', { name: 'Columns' }).click();
  await expect(page.getByRole('group', { name: 'Columns shown' }).getByRole('checkbox', { name: 'Points' })).toBeChecked();
  await expectClean(page, 'dark, the Columns menu');
  await page.screenshot({ path: '/tmp/shots/custom-fields-list-dark-columns.png' });
  await page.keyboard.press('Escape');
  await expect(page.getByRole('group', { name: 'Columns shown' })).toBeHidden();
  await expect(page.getByRole('button', { name: 'Columns' })).toBeFocused();
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.emulateMedia({ colorScheme: 'light' });

  // Hide the Severity column from 'Columns' (keyboard): gone from the table, kept in the URL.
  await page.getByRole('button', { name: 'Columns' }).press('Enter');
  const severityItem = page.getByRole('group', { name: 'Columns shown' }).getByRole('checkbox', { name: 'Severity' });
  await expect(severityItem).toBeChecked();
  await severityItem.focus();
  await page.keyboard.press('Space');
  await expect(severityItem).not.toBeChecked();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('button', { name: 'Columns (1 hidden)' })).toBeFocused();
  await expect(table.getByRole('columnheader', { name: 'Severity' })).toHaveCount(0);
  await expect(table.getByRole('columnheader', { name: 'Points' })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`columns=field%3A${severity.id}`));

  // Save the view, leave it (Clear All clears the field filter too), then pick it again and reload.
  await page.getByRole('button', { name: 'Save view' }).click();
  const dialog = page.getByRole('dialog', { name: 'Save view' });
  await dialog.getByLabel('View name').fill('Hot points');
  await dialog.getByRole('button', { name: 'Save view' }).click();
  await expect(page.getByText('View saved')).toBeVisible();
  await expect(page).toHaveURL(/savedView=/);

  await page.getByRole('button', { name: 'More Filters' }).click();
  await page.getByRole('button', { name: 'Clear All' }).click();
  await expect(page.getByRole('list', { name: 'Active filters' })).toHaveCount(0);
  await expect(page).not.toHaveURL(/cf=/);
  await page.goto('/tasks?view=list');
  await expect(table.getByRole('columnheader', { name: 'Points' })).toBeVisible();

  await page.getByRole('button', { name: /^Views/ }).click();
  await page.getByRole('menuitemradio', { name: /^Hot points/ }).click();
  await page.reload();
  await expect(page.getByRole('button', { name: 'Remove filter Severity is any of High, Critical' })).toBeVisible();
  await expect(table.getByRole('columnheader', { name: 'Points' })).toHaveAttribute('aria-sort', 'descending');
  await expect(table.getByRole('columnheader', { name: 'Severity' })).toHaveCount(0);
  await expect.poll(() => rowTitles(page)).toEqual(['Write release notes', 'Fix login crash']);
  await expect(page).toHaveURL(/cf=/);
});

test('390 px, light and dark: the filter bar wraps, the list scrolls sideways, axe is clean', async ({ browser }, testInfo) => {
  const { owner, apollo, severity } = world;
  const cf = formatFieldFilter({ fieldId: severity.id, op: 'none', values: [option(severity, 'Low')] });
  for (const scheme of ['light', 'dark'] as const) {
    const context = await browser.newContext({
      baseURL: testInfo.project.use.baseURL,
      viewport: { width: 390, height: 844 },
      colorScheme: scheme,
    });
    const page = await context.newPage();
    await signIn(page, owner);
    await page.goto(`/tasks?view=list&project=${apollo.id}&cf=${encodeURIComponent(cf)}`);
    await expect(page.getByRole('button', { name: 'Remove filter Severity is none of Low' })).toBeVisible();
    await expect.poll(() => rowTitles(page)).toHaveLength(3);
    await expect(page.getByRole('table').getByRole('columnheader', { name: 'Severity' })).toBeAttached();
    // Nothing wider than the screen but the table, which scrolls in its own box.
    const overflow = await page.evaluate(() => {
      const main = document.getElementById('main')!;
      const box = document.querySelector('table')!.parentElement!;
      return { page: main.scrollWidth - main.clientWidth, table: box.scrollWidth - box.clientWidth };
    });
    expect(overflow.page).toBeLessThanOrEqual(0);
    expect(overflow.table).toBeGreaterThan(0);
    await expectClean(page, `390 px ${scheme}`);
    await page.screenshot({ path: `/tmp/shots/custom-fields-list-390-${scheme}.png`, fullPage: true });
    await page.getByRole('button', { name: 'Add filter' }).click();
    const editor = page.getByRole('form', { name: 'Filter by a custom field' });
    await editor.getByLabel('Field').selectOption({ label: 'Points' });
    await editor.getByLabel('Condition').selectOption({ label: 'between' });
    await editor.getByLabel('From').fill('1');
    await editor.getByLabel('To').fill('9');
    await expectClean(page, `390 px ${scheme}, the filter editor`);
    await page.screenshot({ path: `/tmp/shots/custom-fields-list-390-${scheme}-editor.png`, fullPage: true });
    await editor.getByRole('button', { name: 'Apply filter' }).click();
    await expect(page.getByRole('button', { name: 'Remove filter Points between 1 and 9' })).toBeVisible();
    await expect.poll(() => rowTitles(page)).toEqual(['Fix login crash']);
    await context.close();
  }
});
