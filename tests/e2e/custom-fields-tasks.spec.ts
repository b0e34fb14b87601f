import type { APIRequestContext, Locator, Page } from '@playwright/test';
import type { CustomFieldDto } from '../../src/domain/schemas/custom-field';
import type { ProjectDto } from '../../src/domain/schemas/project';
import type { TaskDto } from '../../src/domain/schemas/task';
import { apiAs, axeViolations, card, column, expect, seedCrew, signIn, test } from './fixtures';

/**
 * Custom field values on the task page, the card, the history and the task form (issue 38): fields defined through
 * the API, values set in place for each kind of editor, shown on the card when 'Show on card' is on.
 */

const taskDialog = (page: Page) => page.getByRole('dialog', { name: 'Edit Task' });
const fieldsOf = (dialog: Locator) => dialog.getByRole('region', { name: 'Custom fields' });

async function seed(request: APIRequestContext) {
  const { owner, mia, team } = await seedCrew(request);
  const project = await apiAs<ProjectDto>(request, owner, 'post', '/api/projects', { name: 'Apollo', teamId: team.id });
  const field = (body: Record<string, unknown>) =>
    apiAs<CustomFieldDto>(request, owner, 'post', `/api/teams/${team.id}/fields`, body);
  const severity = await field({
    name: 'Severity',
    type: 'select',
    showOnCard: true,
    options: [
      { name: 'Low', color: '#16a34a' },
      { name: 'High', color: '#ca8a04' },
      { name: 'Critical', color: '#dc2626' },
    ],
  });
  const points = await field({ name: 'Points', type: 'number', unit: 'pts', decimals: 0, showOnCard: true });
  const review = await field({ name: 'Review on', type: 'date', showOnCard: true });
  const approved = await field({ name: 'Approved', type: 'checkbox', showOnCard: true });
  const reviewer = await field({ name: 'Reviewer', type: 'person', showOnCard: true });
  const customer = await field({ name: 'Customer', type: 'text', showOnCard: false });
  // Archived: never shown.
  const old = await field({ name: 'Old field', type: 'text' });
  await apiAs(request, owner, 'patch', `/api/fields/${old.id}`, { archived: true });
  const newTask = (title: string, extra: Record<string, unknown> = {}) =>
    apiAs<TaskDto>(request, owner, 'post', '/api/tasks', { title, projectId: project.id, ...extra });
  return { owner, mia, team, project, newTask, fields: { severity, points, review, approved, reviewer, customer } };
}

/** Waits for the PATCH of the task that an in-place edit sends. */
const saved = (page: Page, taskId: string) =>
  page.waitForResponse((r) => r.url().endsWith(`/api/tasks/${taskId}`) && r.request().method() === 'PATCH' && r.ok());

test.describe('custom fields on tasks', () => {
  test('values set on the task page for each kind of field, shown on the card, told in the history', async ({
    page,
    request,
  }) => {
    test.setTimeout(180_000);
    const { owner, mia, newTask, fields } = await seed(request);
    const task = await newTask('Fix the login');

    await signIn(page, owner);
    await page.goto(`/tasks/${task.id}`);
    const dialog = taskDialog(page);
    const section = fieldsOf(dialog);
    await expect(section.getByTestId('custom-field-row')).toHaveCount(6);
    await expect(section.getByText('Old field')).toHaveCount(0);

    // Select: High, then Critical.
    let done = saved(page, task.id);
    await section.getByLabel('Severity').selectOption({ label: 'High' });
    await done;
    done = saved(page, task.id);
    await section.getByLabel('Severity').selectOption({ label: 'Critical' });
    await done;

    // Number: not a number is told at its row and not sent; Enter saves; Escape puts the saved value back.
    const points = section.getByLabel('Points');
    await points.fill('lots');
    await points.press('Enter');
    await expect(section.getByText('Points must be a number')).toBeVisible();
    await expect(points).toHaveAttribute('aria-invalid', 'true');
    done = saved(page, task.id);
    await points.fill('5');
    await points.press('Enter');
    await done;
    await expect(section.getByText('Points must be a number')).toHaveCount(0);
    await points.fill('9');
    await points.press('Escape');
    await expect(points).toHaveValue('5');
    await expect(dialog).toBeVisible();

    // Date (saved on blur), checkbox, person, text.
    done = saved(page, task.id);
    await section.getByLabel('Review on').fill('2026-12-24');
    await section.getByLabel('Review on').blur();
    await done;
    done = saved(page, task.id);
    await section.getByLabel('Approved').check();
    await done;
    done = saved(page, task.id);
    await section.getByLabel('Reviewer').selectOption({ label: 'Mia Member' });
    await done;
    done = saved(page, task.id);
    await section.getByLabel('Customer').fill('Acme Corp');
    await section.getByLabel('Customer').press('Enter');
    await done;

    const stored = await apiAs<TaskDto>(request, owner, 'get', `/api/tasks/${task.id}`);
    expect(stored.fields).toEqual({
      [fields.severity.id]: fields.severity.options[2]!.id,
      [fields.points.id]: 5,
      [fields.review.id]: '2026-12-24',
      [fields.approved.id]: true,
      [fields.reviewer.id]: mia.id,
      [fields.customer.id]: 'Acme Corp',
    });

    // The history, in the words.
    await expect(dialog.getByText('changed Severity from High to Critical')).toBeVisible();
    await expect(dialog.getByText('set Severity to High')).toBeVisible();

    // After a reload the editors show the saved values.
    await page.reload();
    const again = fieldsOf(taskDialog(page));
    await expect(again.getByLabel('Severity')).toHaveValue(fields.severity.options[2]!.id);
    await expect(again.getByLabel('Points')).toHaveValue('5');
    await expect(again.getByLabel('Approved')).toBeChecked();
    await expect(again.getByLabel('Customer')).toHaveValue('Acme Corp');

    // Clearing a value: None.
    done = saved(page, task.id);
    await again.getByLabel('Reviewer').selectOption({ label: 'None' });
    await done;
    await expect(taskDialog(page).getByText('cleared Reviewer (was Mia Member)')).toBeVisible();
    done = saved(page, task.id);
    await again.getByLabel('Reviewer').selectOption({ label: 'Mia Member' });
    await done;

    // The server's refusal shows at the row (its message names the field), and the value goes back.
    const url = `**/api/tasks/${task.id}`;
    await page.route(url, (route) =>
      route.request().method() === 'PATCH'
        ? route.fulfill({
            status: 400,
            contentType: 'application/json',
            body: JSON.stringify({
              error: {
                code: 'validation_failed',
                reason: 'custom_field_invalid',
                message: 'Severity has no such option',
                fields: { fields: 'Severity has no such option' },
              },
            }),
          })
        : route.continue(),
    );
    await again.getByLabel('Severity').selectOption({ label: 'Low' });
    await expect(again.getByText('Severity has no such option')).toBeVisible();
    await expect(again.getByLabel('Severity')).toHaveValue(fields.severity.options[2]!.id);
    await expect(again.getByLabel('Severity')).toHaveAttribute('aria-invalid', 'true');
    await page.unroute(url);

    // The card: the fields shown on cards, read 'Severity: Critical'; Customer is not shown on cards.
    // The form's own save after values saved in place on the page: not a stale edit.
    await taskDialog(page).getByLabel('Title').fill('Fix the login page');
    await taskDialog(page).getByRole('button', { name: 'Update Task' }).click();
    await expect(taskDialog(page)).toBeHidden();
    await page.goto('/tasks');
    const chips = card(column(page, 'todo'), 'Fix the login page').getByTestId('card-fields');
    await expect(chips.getByRole('listitem')).toHaveText([
      'Severity: Critical',
      'Points: 5 pts',
      'Review on: Dec 24',
      'Approved✓: Yes',
      'Reviewer: Mia Member',
    ]);
    await expect(chips.getByText('Acme Corp')).toHaveCount(0);

    // 'Show on card' off: the chip goes.
    await apiAs(request, owner, 'patch', `/api/fields/${fields.points.id}`, { showOnCard: false });
    await page.reload();
    await expect(card(column(page, 'todo'), 'Fix the login page').getByTestId('card-fields')).not.toContainText('Points');
  });

  test('the task form sets values on create; a field for other projects is not offered', async ({ page, request }) => {
    test.setTimeout(120_000);
    const { owner, project, team, fields } = await seed(request);
    const other = await apiAs<ProjectDto>(request, owner, 'post', '/api/projects', { name: 'Zephyr', teamId: team.id });
    await apiAs(request, owner, 'post', `/api/teams/${team.id}/fields`, {
      name: 'Zephyr only',
      type: 'text',
      projectIds: [other.id],
    });

    await signIn(page, owner);
    await page.goto('/tasks');
    await page.getByRole('button', { name: 'New Task' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create New Task' });
    await dialog.getByLabel('Title').fill('Plan the launch');
    await dialog.getByLabel('Project').selectOption({ label: 'Apollo' });
    const group = dialog.getByRole('group', { name: 'Custom fields' });
    await expect(group.getByTestId('custom-field-row')).toHaveCount(6);
    await expect(group.getByText('Zephyr only')).toHaveCount(0);
    await group.getByLabel('Severity').selectOption({ label: 'High' });
    await group.getByLabel('Points').fill('3.5');
    await dialog.getByRole('button', { name: 'Create Task' }).click();
    // Points are whole numbers: told at the row, nothing sent.
    await expect(group.getByText('Points must be a whole number')).toBeVisible();
    await group.getByLabel('Points').fill('3');
    await dialog.getByRole('button', { name: 'Create Task' }).click();
    await expect(dialog).toBeHidden();

    const list = await apiAs<{ tasks: TaskDto[] }>(request, owner, 'get', `/api/tasks?projectId=${project.id}`);
    const created = list.tasks.find((t) => t.title === 'Plan the launch');
    expect(created?.fields).toEqual({ [fields.severity.id]: fields.severity.options[1]!.id, [fields.points.id]: 3 });
    await expect(card(column(page, 'todo'), 'Plan the launch').getByTestId('card-fields')).toContainText('Severity: High');

    // Another project of the team: its own field is offered, Severity (all projects) too.
    await page.getByRole('button', { name: 'New Task' }).click();
    await dialog.getByLabel('Project').selectOption({ label: 'Zephyr' });
    await expect(group.getByLabel('Zephyr only')).toBeVisible();
    await expect(group.getByLabel('Severity')).toBeVisible();
  });

  for (const scheme of ['light', 'dark'] as const) {
    test(`axe and pictures of the section, the card and the form (${scheme}, wide and 390 px)`, async ({ browser, request }) => {
      test.setTimeout(180_000);
      const { owner, mia, newTask, fields } = await seed(request);
      const task = await newTask('Ship the release', {
        fields: {
          [fields.severity.id]: fields.severity.options[2]!.id,
          [fields.points.id]: 8,
          [fields.review.id]: '2026-12-24',
          [fields.approved.id]: true,
          [fields.reviewer.id]: mia.id,
          [fields.customer.id]: 'Acme Corp',
        },
      });
      for (const viewport of [
        { width: 1280, height: 900 },
        { width: 390, height: 844 },
      ]) {
        const context = await browser.newContext({ viewport, colorScheme: scheme });
        const page = await context.newPage();
        await signIn(page, owner);
        const tag = `${viewport.width}-${scheme}`;

        await page.goto('/tasks');
        const taskCard = card(column(page, 'todo'), 'Ship the release');
        await expect(taskCard.getByTestId('card-fields')).toContainText('Severity: Critical');
        expect(await axeViolations(page), `axe on the board, ${tag}`).toEqual([]);
        await taskCard.screenshot({ path: `/tmp/shots/custom-fields-task-card-${tag}.png` });

        await page.goto(`/tasks/${task.id}`);
        const section = fieldsOf(taskDialog(page));
        await expect(section.getByLabel('Reviewer')).toHaveValue(mia.id);
        expect(await axeViolations(page), `axe on the task page, ${tag}`).toEqual([]);
        await section.scrollIntoViewIfNeeded();
        await page.screenshot({ path: `/tmp/shots/custom-fields-task-section-${tag}.png` });
        await taskDialog(page).getByRole('button', { name: 'Cancel' }).click();

        await page.getByRole('button', { name: 'New Task' }).click();
        const form = page.getByRole('dialog', { name: 'Create New Task' });
        await form.getByLabel('Project').selectOption({ label: 'Apollo' });
        const group = form.getByRole('group', { name: 'Custom fields' });
        await group.getByLabel('Severity').selectOption({ label: 'High' });
        expect(await axeViolations(page), `axe on the form, ${tag}`).toEqual([]);
        await group.scrollIntoViewIfNeeded();
        await page.screenshot({ path: `/tmp/shots/custom-fields-task-form-${tag}.png` });
        await context.close();
      }
    });
  }
});
