import { mkdirSync } from 'node:fs';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import type { ProjectDto } from '../../src/domain/schemas/project';
import type { TaskDto } from '../../src/domain/schemas/task';
import { apiAs, axeViolations, card, column, dragRight, expect, seedCrew, signIn, test } from './fixtures';

/**
 * Sub-tasks and dependencies on the task page, the card and the board (issue 37): 'Add sub-task', 'n/m', completing a
 * parent with open sub-tasks, 'Add dependency', 'Blocked', a cycle's refusal, 'Show sub-tasks'.
 */

const SHOTS = '/tmp/shots';

const taskDialog = (page: Page) => page.getByRole('dialog', { name: 'Edit Task' });
const subtasksOf = (dialog: Locator) => dialog.getByRole('region', { name: 'Sub-tasks' });
const dependenciesOf = (dialog: Locator) => dialog.getByRole('region', { name: 'Dependencies' });

async function seed(request: APIRequestContext) {
  const { owner, mia, team } = await seedCrew(request);
  const project = await apiAs<ProjectDto>(request, owner, 'post', '/api/projects', { name: 'Apollo', teamId: team.id });
  const newTask = (title: string, extra: Record<string, unknown> = {}) =>
    apiAs<TaskDto>(request, owner, 'post', '/api/tasks', { title, projectId: project.id, ...extra });
  return { owner, mia, team, project, newTask };
}

test.describe('sub-tasks and dependencies', () => {
  test('a parent with three sub-tasks built on its page, two completed (2/3), the parent completed with the rest', async ({
    page,
    request,
  }) => {
    test.setTimeout(180_000);
    const { owner, newTask } = await seed(request);
    const parent = await newTask('Launch the site');

    await signIn(page, owner);
    await page.goto(`/tasks/${parent.id}`);
    const dialog = taskDialog(page);
    const section = subtasksOf(dialog);
    await expect(section.getByText('No sub-tasks yet.')).toBeVisible();

    // Enter adds and keeps the field, empty and focused, for the next one.
    const add = section.getByRole('textbox', { name: 'Add sub-task' });
    for (const title of ['Write copy', 'Pick fonts', 'Ship it']) {
      await add.fill(title);
      await add.press('Enter');
      await expect(add).toHaveValue('');
      await expect(add).toBeFocused();
    }
    const list = section.getByRole('list', { name: 'Sub-tasks' });
    await expect(list.getByRole('link')).toHaveText(['Write copy', 'Pick fonts', 'Ship it']);
    await expect(section.getByTestId('subtask-progress')).toHaveText('0/30 of 3 sub-tasks done');

    // Reorder by keyboard: the order holds after a reload. The list shows the new order at once and saves it after;
    // a reload before the save is sent would drop it (the CI rehearsal reloaded that soon), so wait for the answer.
    const saved = page.waitForResponse(
      (r) => r.url().endsWith(`/api/tasks/${parent.id}/subtasks/order`) && r.request().method() === 'PUT',
    );
    await section.getByRole('button', { name: 'Move Ship it up' }).click();
    await expect(list.getByRole('link')).toHaveText(['Write copy', 'Ship it', 'Pick fonts']);
    await expect(section.getByText('Moved Ship it to position 2 of 3')).toBeAttached();
    expect((await saved).status()).toBe(200);
    await page.reload();
    await expect(subtasksOf(taskDialog(page)).getByRole('list', { name: 'Sub-tasks' }).getByRole('link')).toHaveText([
      'Write copy',
      'Ship it',
      'Pick fonts',
    ]);

    // Complete two sub-tasks on their own pages; each shows its parent as a link.
    for (const title of ['Write copy', 'Pick fonts']) {
      await page.goto(`/tasks/${parent.id}`);
      await subtasksOf(taskDialog(page)).getByRole('link', { name: title }).click();
      const sub = taskDialog(page);
      await expect(sub.getByLabel('Title')).toHaveValue(title);
      await expect(sub.getByText('Sub-task of')).toBeVisible();
      await expect(sub.getByRole('link', { name: 'Launch the site' })).toBeVisible();
      await sub.getByLabel('Status').selectOption({ label: 'Completed' });
      await sub.getByRole('button', { name: 'Update Task' }).click();
      await expect(sub).toBeHidden();
    }
    await expect(page).toHaveURL(/\/tasks$/);
    const todo = column(page, 'todo');
    const parentCard = card(todo, 'Launch the site');
    await expect(parentCard.getByTestId('subtask-counts')).toHaveText('2/32 of 3 sub-tasks done');
    await page.screenshot({ path: `${SHOTS}/subtasks-board.png` });

    // Completing the parent asks; Escape cancels the move.
    await dragRight(page, todo, 'Launch the site', 'To Do', ['In Progress', 'Review', 'Completed']);
    const ask = page.getByRole('dialog', { name: 'Complete its open sub-tasks too?' });
    await expect(ask).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(ask).toBeHidden();
    await expect(card(todo, 'Launch the site')).toBeVisible();

    // Yes completes the rest in the same change.
    await dragRight(page, todo, 'Launch the site', 'To Do', ['In Progress', 'Review', 'Completed']);
    await expect(ask).toBeVisible();
    await ask.getByRole('button', { name: 'Yes' }).click();
    const done = column(page, 'completed');
    await expect(card(done, 'Launch the site').getByTestId('subtask-counts')).toHaveText('3/33 of 3 sub-tasks done');
    await expect(card(done, 'Ship it')).toBeVisible();
    const subs = await apiAs<{ tasks: TaskDto[] }>(request, owner, 'get', `/api/tasks/${parent.id}/subtasks`);
    expect(subs.tasks.map((t) => t.statusCategory)).toEqual(['completed', 'completed', 'completed']);
  });

  test('No leaves the open sub-tasks; deleting a parent says how many sub-tasks go with it', async ({ page, request }) => {
    const { owner, newTask } = await seed(request);
    const parent = await newTask('Plan the offsite');
    const venue = await newTask('Book a venue', { parentId: parent.id });
    await newTask('Call the caterer', { parentId: venue.id });
    await newTask('Send invites', { parentId: parent.id });

    await signIn(page, owner);
    await page.goto(`/tasks/${parent.id}`);
    const dialog = taskDialog(page);
    await expect(subtasksOf(dialog).getByTestId('subtask-progress')).toHaveText('0/20 of 2 sub-tasks done');
    // The page's status select asks too; No completes the parent alone.
    await dialog.getByLabel('Status').selectOption({ label: 'Completed' });
    await dialog.getByRole('button', { name: 'Update Task' }).click();
    const ask = page.getByRole('dialog', { name: 'Complete its open sub-tasks too?' });
    await ask.getByRole('button', { name: 'No' }).click();
    await expect(dialog).toBeHidden();
    const subs = await apiAs<{ tasks: TaskDto[] }>(request, owner, 'get', `/api/tasks/${parent.id}/subtasks`);
    expect(subs.tasks.map((t) => t.statusCategory)).toEqual(['unstarted', 'unstarted']);

    // The whole subtree: two sub-tasks and a sub-task's sub-task.
    await page.goto(`/tasks/${parent.id}`);
    await taskDialog(page).getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete Task' });
    await expect(confirm).toContainText('This also deletes its 3 sub-tasks.');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(confirm).toBeHidden();
    const gone = await request.get(`/api/tasks/${venue.id}`, { headers: { authorization: `Bearer ${owner.accessToken}` } });
    expect(gone.status()).toBe(404);
  });

  test("a dependency: 'Blocked' on the card, the toast on a start, a cycle refused in the server's words", async ({
    page,
    request,
  }) => {
    test.setTimeout(180_000);
    const { owner, newTask } = await seed(request);
    await newTask('Design the API');
    await newTask('Deploy the docs');
    const client = await newTask('Build the client');

    await signIn(page, owner);
    await page.goto(`/tasks/${client.id}`);
    let dialog = taskDialog(page);
    let deps = dependenciesOf(dialog);
    // The combobox, by keyboard: type, ArrowDown, Enter.
    const search = deps.getByRole('combobox', { name: 'Add dependency' });
    await search.fill('Design');
    await expect(deps.getByRole('option', { name: /Design the API/ })).toBeVisible();
    await search.press('ArrowDown');
    await search.press('Enter');
    const blockedBy = deps.getByRole('list', { name: 'Blocked by' });
    await expect(blockedBy.getByRole('link', { name: 'Design the API' })).toBeVisible();
    await expect(dialog.getByTestId('blocked-line')).toHaveText('Blocked by 1 open task');
    await expect(search).toHaveValue('');

    // A cycle: the Design task blocked by the client task is refused, naming both.
    await blockedBy.getByRole('link', { name: 'Design the API' }).click();
    dialog = taskDialog(page);
    await expect(dialog.getByLabel('Title')).toHaveValue('Design the API');
    deps = dependenciesOf(dialog);
    await expect(deps.getByRole('list', { name: 'Blocking' }).getByRole('link', { name: 'Build the client' })).toBeVisible();
    await deps.getByRole('combobox', { name: 'Add dependency' }).fill('Build');
    await deps.getByRole('option', { name: /Build the client/ }).click();
    await expect(deps.getByRole('alert')).toHaveText(
      'This dependency would make a cycle: "Design the API" → "Build the client" → "Design the API" (each is blocked by the next)',
    );
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();

    // The card says 'Blocked' in words; starting it is allowed, and the toast says by how many.
    const todo = column(page, 'todo');
    await expect(card(todo, 'Build the client').getByText('Blocked')).toBeVisible();
    await expect(card(todo, 'Design the API').getByText('Blocked')).toHaveCount(0);
    await dragRight(page, todo, 'Build the client', 'To Do', ['In Progress']);
    await expect(page.getByText('This task is blocked by 1 open task')).toBeVisible();
    await expect(card(column(page, 'in_progress'), 'Build the client')).toBeVisible();

    // Removing the dependency (a named button) unblocks it.
    await page.goto(`/tasks/${client.id}`);
    deps = dependenciesOf(taskDialog(page));
    await deps.getByRole('button', { name: 'Remove Design the API from Blocked by' }).click();
    await expect(deps.getByRole('list', { name: 'Blocked by' })).toHaveCount(0);
    await expect(taskDialog(page).getByTestId('blocked-line')).toHaveCount(0);
  });

  test("'Show sub-tasks' off hides them (subtasks=hide), the parent keeps its n/m; a saved view keeps it", async ({
    page,
    request,
  }) => {
    const { owner, newTask } = await seed(request);
    const parent = await newTask('Write the report');
    await newTask('Gather numbers', { parentId: parent.id });

    await signIn(page, owner);
    await page.goto('/tasks');
    const todo = column(page, 'todo');
    await expect(card(todo, 'Gather numbers')).toBeVisible();
    const toggle = page.getByRole('switch', { name: 'Show sub-tasks' });
    await expect(toggle).toHaveAttribute('aria-checked', 'true');
    await toggle.click();
    await expect(page).toHaveURL(/subtasks=hide/);
    await expect(toggle).toHaveAttribute('aria-checked', 'false');
    await expect(card(todo, 'Gather numbers')).toHaveCount(0);
    await expect(card(todo, 'Write the report').getByTestId('subtask-counts')).toHaveText('0/10 of 1 sub-tasks done');
    await page.reload();
    await expect(page.getByRole('switch', { name: 'Show sub-tasks' })).toHaveAttribute('aria-checked', 'false');
    await expect(card(todo, 'Write the report')).toBeVisible();
    await expect(card(todo, 'Gather numbers')).toHaveCount(0);

    // A saved view keeps the switch off; a clean board has it on; choosing the view turns it off again.
    await page.getByRole('button', { name: 'Save view' }).click();
    const save = page.getByRole('dialog', { name: 'Save view' });
    await save.getByLabel('View name').fill('Top level only');
    await save.getByRole('button', { name: 'Save view' }).click();
    await expect(save).toBeHidden();
    await page.goto('/tasks');
    await expect(page.getByRole('switch', { name: 'Show sub-tasks' })).toHaveAttribute('aria-checked', 'true');
    await expect(card(todo, 'Gather numbers')).toBeVisible();
    await page.getByRole('button', { name: /^Views/ }).click();
    await page.getByRole('menuitemradio', { name: /^Top level only/ }).click();
    await expect(page).toHaveURL(/subtasks=hide/);
    await expect(page.getByRole('switch', { name: 'Show sub-tasks' })).toHaveAttribute('aria-checked', 'false');
    await expect(card(todo, 'Gather numbers')).toHaveCount(0);

    await page.getByRole('switch', { name: 'Show sub-tasks' }).click();
    await expect(page).not.toHaveURL(/subtasks=hide/);
    await expect(card(todo, 'Gather numbers')).toBeVisible();
  });

  for (const scheme of ['light', 'dark'] as const) {
    test(`the sections and the card have no WCAG A/AA violations (${scheme}, wide and 390 px)`, async ({ browser, request }) => {
      test.setTimeout(180_000);
      mkdirSync(SHOTS, { recursive: true });
      const { owner, mia, newTask } = await seed(request);
      const blocker = await newTask('Order the hardware');
      const parent = await newTask('Set up the office', { assigneeId: mia.id });
      const desks = await newTask('Assemble the desks', { parentId: parent.id, assigneeId: mia.id });
      await newTask('Run the cables', { parentId: parent.id });
      await apiAs(request, owner, 'patch', `/api/tasks/${desks.id}/status`, { status: 'completed' });
      await apiAs(request, owner, 'post', `/api/tasks/${parent.id}/dependencies`, { blockedBy: blocker.id });
      const later = await newTask('Hold the opening');
      await apiAs(request, owner, 'post', `/api/tasks/${later.id}/dependencies`, { blockedBy: parent.id });

      for (const viewport of [
        { width: 1280, height: 900 },
        { width: 390, height: 844 },
      ]) {
        const context = await browser.newContext({ viewport, colorScheme: scheme });
        const page = await context.newPage();
        await signIn(page, owner);
        const tag = `${viewport.width}-${scheme}`;

        await page.goto('/tasks');
        const parentCard = card(column(page, 'todo'), 'Set up the office');
        await expect(parentCard.getByTestId('subtask-counts')).toHaveText('1/21 of 2 sub-tasks done');
        await expect(parentCard.getByText('Blocked')).toBeVisible();
        expect(await axeViolations(page), `axe on the board, ${tag}`).toEqual([]);
        await parentCard.screenshot({ path: `${SHOTS}/subtasks-card-${tag}.png` });
        await page.screenshot({ path: `${SHOTS}/subtasks-board-${tag}.png` });

        await page.goto(`/tasks/${parent.id}`);
        const dialog = taskDialog(page);
        const deps = dependenciesOf(dialog);
        await expect(subtasksOf(dialog).getByRole('link', { name: 'Run the cables' })).toBeVisible();
        await expect(deps.getByRole('link', { name: 'Order the hardware' })).toBeVisible();
        await expect(deps.getByRole('link', { name: 'Hold the opening' })).toBeVisible();
        await expect(dialog.locator('.animate-pulse, .animate-spin')).toHaveCount(0);
        await deps.getByRole('combobox', { name: 'Add dependency' }).fill('Ord');
        await expect(deps.getByText('No matching tasks')).toBeVisible();
        await deps.getByRole('combobox', { name: 'Add dependency' }).fill('Run');
        await expect(deps.getByRole('option', { name: /Run the cables/ })).toBeVisible();
        expect(await axeViolations(page), `axe on the task page, ${tag}`).toEqual([]);
        await subtasksOf(dialog).scrollIntoViewIfNeeded();
        await page.screenshot({ path: `${SHOTS}/subtasks-page-${tag}.png` });
        await deps.scrollIntoViewIfNeeded();
        await page.screenshot({ path: `${SHOTS}/dependencies-page-${tag}.png` });
        await context.close();
      }
    });
  }
});
