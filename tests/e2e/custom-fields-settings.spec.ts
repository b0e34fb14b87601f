import { mkdirSync } from 'node:fs';
import type { Locator, Page } from '@playwright/test';
import type { CustomFieldDto, CustomFieldListDto } from '../../src/domain/schemas/custom-field';
import type { ProjectDto } from '../../src/domain/schemas/project';
import type { TaskDto } from '../../src/domain/schemas/task';
import { apiAs, axeViolations, type E2EUser, expect, seedCrew, signIn, test } from './fixtures';

/**
 * Team settings → 'Custom fields' (issue 38): an owner adds 'Severity' (Select: Low, High, Critical) and 'Points'
 * (Number), switches 'Show on card', renames an option, removes one a task has (the confirmation says how many),
 * archives a field and deletes one (its count named); a plain member reads the list without controls. axe in both
 * themes and at 390 px. Pictures outside CI, or with E2E_SHOTS=1.
 */
const SHOTS =
  process.env.E2E_SHOTS === '0' || (process.env.CI && process.env.E2E_SHOTS !== '1') ? null : '/tmp/shots-custom-fields';
const SECTION = 'section[aria-labelledby="custom-fields-heading"]';

const section = (page: Page) => page.getByRole('region', { name: 'Custom fields' });
const fieldList = (page: Page) => section(page).getByRole('list', { name: 'Custom fields' });
const row = (page: Page, name: string) => fieldList(page).getByRole('listitem', { name, exact: true });
const toasts = (page: Page) => page.getByRole('region', { name: /Notifications/ });
const optionName = (dialog: Locator, n: number) => dialog.getByRole('textbox', { name: `Option ${n}`, exact: true });

async function fieldsOf(request: Parameters<typeof apiAs>[0], user: E2EUser, teamId: string) {
  return (await apiAs<CustomFieldListDto>(request, user, 'get', `/api/teams/${teamId}/fields`)).fields;
}

test.beforeAll(() => {
  if (SHOTS) mkdirSync(SHOTS, { recursive: true });
});

/** axe on the section in dark, then light (the theme it leaves), and its picture in each. */
async function auditSection(page: Page, label: string) {
  for (const theme of ['dark', 'light'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    const found = await axeViolations(page, SECTION);
    if (SHOTS) await section(page).screenshot({ path: `${SHOTS}/${label}-${theme}.png` });
    expect.soft(found, `axe on the custom fields (${label}, ${theme})`).toEqual([]);
  }
}

test('an owner adds Severity and Points, shows one on cards, renames and removes options, archives and deletes; axe and 390 px', async ({
  page,
  request,
}) => {
  const { owner, team } = await seedCrew(request);
  const project = await apiAs<ProjectDto>(request, owner, 'post', '/api/projects', { name: 'Mobile app', teamId: team.id });
  const task = await apiAs<TaskDto>(request, owner, 'post', '/api/tasks', { title: 'Write the plan', projectId: project.id });

  await signIn(page, owner);
  await page.goto(`/teams/${team.id}/settings`);
  await expect(page.getByRole('heading', { name: 'Custom fields', level: 2 })).toBeVisible();
  await expect(section(page).getByText('No custom fields yet.')).toBeVisible();
  await auditSection(page, 'empty');

  // 'Severity', a Select: Low, High, Critical typed one after another (Enter adds the next), then moved by keyboard.
  await section(page).getByRole('button', { name: 'Add field' }).click();
  const add = page.getByRole('dialog', { name: 'Add field' });
  await expect(add.getByLabel('Name')).toBeFocused();
  await add.getByLabel('Name').fill('Severity');
  await add.getByLabel('Type').selectOption({ label: 'Select' });
  await optionName(add, 1).fill('Low');
  await optionName(add, 1).press('Enter');
  await expect(optionName(add, 2)).toBeFocused();
  await page.keyboard.type('Critical');
  await page.keyboard.press('Enter');
  await expect(optionName(add, 3)).toBeFocused();
  await page.keyboard.type('High');
  const up = add.getByRole('button', { name: 'Move High up' });
  await up.focus();
  await page.keyboard.press('Enter');
  await expect(optionName(add, 2)).toHaveValue('High');
  await expect(optionName(add, 3)).toHaveValue('Critical');
  await expect(up).toBeFocused();
  await add.getByLabel('Colour of Critical').selectOption({ label: 'Red' });
  expect.soft(await axeViolations(page, '[role="dialog"]'), 'axe violations on the add dialog').toEqual([]);
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/add-dialog.png` });
  await add.getByRole('button', { name: 'Add field' }).click();
  await expect(toasts(page).getByText('Field added')).toBeVisible();
  await expect(add).toBeHidden();
  await expect(row(page, 'Severity')).toContainText('Select (3 options)');
  await expect(row(page, 'Severity')).toContainText('All projects');
  const severity = (await fieldsOf(request, owner, team.id)).find((f) => f.name === 'Severity') as CustomFieldDto;
  expect(severity.options.map((o) => [o.name, o.color])).toEqual([
    ['Low', expect.any(String)],
    ['High', expect.any(String)],
    ['Critical', '#dc2626'],
  ]);

  // 'Points', a Number: a taken name first (the server's 409 under Name), then its own, for Mobile app only.
  await section(page).getByRole('button', { name: 'Add field' }).click();
  await add.getByLabel('Name').fill('severity');
  await add.getByLabel('Type').selectOption({ label: 'Number' });
  await add.getByLabel('Unit').fill('pts');
  await add.getByLabel('Decimals').selectOption('0');
  await add.getByLabel('Chosen projects').check();
  await add.getByRole('checkbox', { name: 'Mobile app' }).check();
  await add.getByRole('button', { name: 'Add field' }).click();
  await expect(add.getByText('This team already has a field with that name')).toBeVisible();
  await expect(add.getByLabel('Name')).toHaveAttribute('aria-invalid', 'true');
  await add.getByLabel('Name').fill('Points');
  await add.getByRole('button', { name: 'Add field' }).click();
  await expect(add).toBeHidden();
  await expect(row(page, 'Points')).toContainText('Number (pts, whole numbers) · Mobile app');
  const points = (await fieldsOf(request, owner, team.id)).find((f) => f.name === 'Points') as CustomFieldDto;
  expect([points.type, points.unit, points.decimals, points.projectIds]).toEqual(['number', 'pts', 0, [project.id]]);

  // 'Show on card', saved at once.
  const showOnCard = row(page, 'Severity').getByRole('switch', { name: 'Show on card' });
  await expect(showOnCard).toHaveAttribute('aria-checked', 'false');
  await showOnCard.click();
  await expect(showOnCard).toHaveAttribute('aria-checked', 'true');
  await expect(toasts(page).getByText('“Severity” is shown on cards')).toBeVisible();
  await expect
    .poll(async () => (await fieldsOf(request, owner, team.id)).find((f) => f.id === severity.id)?.showOnCard)
    .toBe(true);

  // Rename High to Major: the option keeps its id (a task's value stays).
  await row(page, 'Severity').getByRole('button', { name: 'Edit Severity' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit field' });
  await expect(edit.getByLabel('Type')).toHaveValue('Select');
  await optionName(edit, 2).fill('Major');
  await edit.getByRole('button', { name: 'Save field' }).click();
  await expect(edit).toBeHidden();
  const high = severity.options[1]!;
  await expect
    .poll(async () => (await fieldsOf(request, owner, team.id)).find((f) => f.id === severity.id)?.options)
    .toEqual([severity.options[0], { ...high, name: 'Major' }, severity.options[2]]);

  // Remove Major, which the task has: the confirmation counts it, and the value is cleared.
  await apiAs(request, owner, 'patch', `/api/tasks/${task.id}`, { fields: { [severity.id]: high.id } });
  await row(page, 'Severity').getByRole('button', { name: 'Edit Severity' }).click();
  await edit.getByRole('button', { name: 'Remove Major' }).click();
  await expect(optionName(edit, 2)).toHaveValue('Critical');
  await expect(optionName(edit, 2)).toBeFocused();
  await edit.getByRole('button', { name: 'Save field' }).click();
  const confirm = page.getByRole('dialog', { name: 'Remove option' });
  await expect(confirm).toContainText('Remove option “Major”? It will be cleared from 1 task.');
  expect.soft(await axeViolations(page, '[role="dialog"]'), 'axe violations on the removal confirmation').toEqual([]);
  await confirm.getByRole('button', { name: 'Remove and save' }).click();
  await expect(edit).toBeHidden();
  await expect(row(page, 'Severity')).toContainText('Select (2 options)');
  expect((await apiAs<TaskDto>(request, owner, 'get', `/api/tasks/${task.id}`)).fields).toEqual({});

  await auditSection(page, 'fields');

  // Archive Points: greyed, marked 'Archived', and back with Unarchive.
  await row(page, 'Points').getByRole('button', { name: 'Archive Points' }).click();
  await expect(row(page, 'Points').getByText('Archived', { exact: true })).toBeVisible();
  await expect(row(page, 'Points').getByRole('button', { name: 'Unarchive Points' })).toBeVisible();
  await expect.poll(async () => (await fieldsOf(request, owner, team.id)).find((f) => f.id === points.id)?.archived).toBe(true);
  await auditSection(page, 'archived');

  // At 390 px: nothing wider than the screen, the dialog too.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(row(page, 'Points')).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await auditSection(page, 'narrow');
  await row(page, 'Severity').getByRole('button', { name: 'Edit Severity' }).click();
  await expect(edit).toBeVisible();
  const box = (await edit.boundingBox())!;
  expect(box.x >= 0 && box.x + box.width <= 390).toBe(true);
  expect.soft(await axeViolations(page, '[role="dialog"]'), 'axe violations on the dialog at 390 px').toEqual([]);
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/edit-dialog-narrow.png` });
  await page.keyboard.press('Escape');
  await expect(edit).toBeHidden();
  await page.setViewportSize({ width: 1280, height: 720 });

  // Delete Severity: the confirmation names how many tasks lose a value.
  await apiAs(request, owner, 'patch', `/api/tasks/${task.id}`, { fields: { [severity.id]: severity.options[2]!.id } });
  await row(page, 'Severity').getByRole('button', { name: 'Delete Severity' }).click();
  const del = page.getByRole('dialog', { name: 'Delete field' });
  await expect(del).toContainText('Delete “Severity”? Its value on 1 task will be removed.');
  await del.getByRole('button', { name: 'Delete field' }).click();
  await expect(toasts(page).getByText('Field deleted')).toBeVisible();
  await expect(row(page, 'Severity')).toHaveCount(0);
  expect((await fieldsOf(request, owner, team.id)).map((f) => f.name)).toEqual(['Points']);
  expect((await apiAs<TaskDto>(request, owner, 'get', `/api/tasks/${task.id}`)).fields).toEqual({});

  // Points has no values: the confirmation just asks.
  await row(page, 'Points').getByRole('button', { name: 'Delete Points' }).click();
  await expect(del).toContainText('Delete “Points”?');
  await expect(del).not.toContainText('will be removed');
  await del.getByRole('button', { name: 'Cancel' }).click();
  await expect(row(page, 'Points').getByRole('button', { name: 'Delete Points' })).toBeFocused();
});

test('a plain member reads the fields without controls; axe in both themes and at 390 px', async ({ page, request }) => {
  const { owner, mia, team } = await seedCrew(request);
  await apiAs(request, owner, 'post', `/api/teams/${team.id}/fields`, {
    name: 'Severity',
    type: 'select',
    options: [
      { name: 'Low', color: '#64748b' },
      { name: 'Critical', color: '#dc2626' },
    ],
    showOnCard: true,
  });
  const points = await apiAs<CustomFieldDto>(request, owner, 'post', `/api/teams/${team.id}/fields`, {
    name: 'Points',
    type: 'number',
  });
  await apiAs(request, owner, 'patch', `/api/fields/${points.id}`, { archived: true });

  await signIn(page, mia);
  await page.goto(`/teams/${team.id}/settings`);
  await expect(row(page, 'Severity')).toContainText('Select (2 options)');
  await expect(row(page, 'Severity')).toContainText('Shown on cards');
  await expect(row(page, 'Points').getByText('Archived', { exact: true })).toBeVisible();
  await expect(section(page)).toContainText("Only the team's owner and admins can change its custom fields.");
  await expect(section(page).getByRole('button')).toHaveCount(0);
  await expect(section(page).getByRole('switch')).toHaveCount(0);
  await auditSection(page, 'member');
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await auditSection(page, 'member-narrow');
});
