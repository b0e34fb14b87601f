import type { APIRequestContext, Page } from '@playwright/test';
import { format, parseISO } from 'date-fns';
import { LIMITS, TASK_STATUS_LABELS, type TaskStatus } from '../../src/domain/constants';
import { MSG } from '../../src/domain/messages';
import type { ProjectDto } from '../../src/domain/schemas/project';
import type { TaskDto } from '../../src/domain/schemas/task';
import { addDays, localDate, matchesDueFilter } from '../../src/domain/task-filters';
import { apiAs, card, column, type E2EUser, expect, gate, pickUp, requestSentinel, seedCrew, signIn, test } from './fixtures';

const countOf = (page: Page, status: TaskStatus) => column(page, status).getByTestId('column-count');

async function seedTeam(request: APIRequestContext) {
  const { owner, mia, team } = await seedCrew(request);
  const apollo = await apiAs<ProjectDto>(request, owner, 'post', '/api/projects', { name: 'Apollo', teamId: team.id });
  const borealis = await apiAs<ProjectDto>(request, owner, 'post', '/api/projects', { name: 'Borealis', teamId: team.id });
  return { owner, mia, team, apollo, borealis };
}

const newTask = (request: APIRequestContext, user: E2EUser, body: Record<string, unknown>) =>
  apiAs<TaskDto>(request, user, 'post', '/api/tasks', body);

test.describe('tasks', () => {
  test('create with validation errors first, see every card field, edit and delete with toasts', async ({ page, request }) => {
    const { owner, mia, borealis } = await seedTeam(request);
    await signIn(page, owner);
    await page.getByRole('link', { name: 'Tasks' }).first().click();
    await expect(page).toHaveURL(/\/tasks$/);
    await expect(page.getByRole('heading', { name: 'Tasks', level: 1 })).toBeVisible();
    await expect(page.getByText("Manage and track your team's tasks")).toBeVisible();
    for (const s of ['todo', 'in_progress', 'review', 'completed'] as const) {
      await expect(column(page, s).getByText(`No tasks in ${TASK_STATUS_LABELS[s]}`)).toBeVisible();
      await expect(column(page, s).getByRole('button', { name: `Add task to ${TASK_STATUS_LABELS[s]}` })).toHaveAttribute(
        'title',
        `Add task to ${TASK_STATUS_LABELS[s]}`,
      );
    }

    await page.getByRole('button', { name: 'New Task' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create New Task' });
    await expect(dialog).toBeVisible();
    // Defaults: todo, medium, the first project (projects are listed newest first).
    await expect(dialog.getByLabel('Status')).toHaveValue('todo');
    await expect(dialog.getByLabel('Priority')).toHaveValue('medium');
    await expect(dialog.getByLabel('Project')).toHaveValue(borealis.id);
    // Validation errors first.
    await dialog.getByLabel('Title').fill('   ');
    await dialog.getByLabel('Project').selectOption('');
    await dialog.getByRole('button', { name: 'Create Task' }).click();
    await expect(dialog.getByText(MSG.taskTitleRequired)).toBeVisible();
    await expect(dialog.getByText(MSG.projectRequired)).toBeVisible();
    // A field's error clears when it is edited.
    await dialog.getByLabel('Title').fill('Design the landing page');
    await expect(dialog.getByText(MSG.taskTitleRequired)).toBeHidden();
    await dialog.getByLabel('Project').selectOption({ label: 'Apollo' });
    await expect(dialog.getByText(MSG.projectRequired)).toBeHidden();
    // Assignee choices: the project's team members, or Unassigned.
    const assignee = dialog.getByLabel('Assignee');
    await expect(assignee.getByRole('option').first()).toHaveText('Unassigned');
    await expect(assignee.getByRole('option')).toHaveCount(3);
    await expect(assignee).toContainText('Olive Owner');
    await assignee.selectOption({ label: 'Mia Member' });
    await dialog
      .getByLabel('Description')
      .fill('Hero, pricing table, footer and a contact form that actually sends mail to the team inbox.');
    await dialog.getByLabel('Priority').selectOption({ label: 'High' });
    await dialog.getByLabel('Due Date').fill('2031-03-07');
    await dialog.getByLabel('Tags').fill(' design, web ,, marketing ,  q1 ,');
    await dialog.getByRole('button', { name: 'Create Task' }).click();
    await expect(page.getByText(MSG.taskCreated)).toBeVisible();
    await expect(dialog).toBeHidden();

    // Every card field.
    const todo = column(page, 'todo');
    const c = card(todo, 'Design the landing page');
    await expect(c).toBeVisible();
    await expect(c).toContainText('Hero, pricing table');
    await expect(c).toContainText('To Do');
    await expect(c).toContainText('High');
    await expect(c.getByRole('listitem')).toHaveText(['design', 'web', 'marketing', '+1']);
    await expect(c).toContainText('Mia');
    await expect(c).not.toContainText('Mia Member');
    await expect(c).toContainText('Mar 07');
    await expect(c).toContainText('0 comments');
    await expect(c).toContainText('0 attachments');
    await expect(countOf(page, 'todo')).toHaveText('1 tasks');

    // Edit: click the card.
    await c.click();
    const edit = page.getByRole('dialog', { name: 'Edit Task' });
    await expect(edit.getByLabel('Title')).toHaveValue('Design the landing page');
    await expect(edit.getByLabel('Tags')).toHaveValue('design, web, marketing, q1');
    await expect(edit.getByLabel('Assignee')).toHaveValue(mia.id);
    await edit.getByLabel('Title').fill('Design the new landing page');
    await edit.getByLabel('Status').selectOption({ label: 'Review' });
    await edit.getByRole('button', { name: 'Update Task' }).click();
    await expect(page.getByText(MSG.taskUpdated)).toBeVisible();
    await expect(card(column(page, 'review'), 'Design the new landing page')).toBeVisible();
    await expect(todo.getByText('No tasks in To Do')).toBeVisible();

    // Enter on a focused card opens it too; then delete with a confirmation.
    await card(column(page, 'review'), 'Design the new landing page').focus();
    await page.keyboard.press('Enter');
    await expect(edit).toBeVisible();
    await edit.getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete Task' });
    await expect(confirm).toContainText('Are you sure you want to delete "Design the new landing page"?');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText(MSG.taskDeleted)).toBeVisible();
    await expect(column(page, 'review').getByText('No tasks in Review')).toBeVisible();

    // A column's add button opens the form with that status; so does 'Add a task'.
    await column(page, 'in_progress').getByRole('button', { name: 'Add task to In Progress' }).click();
    await expect(page.getByRole('dialog', { name: 'Create New Task' }).getByLabel('Status')).toHaveValue('in_progress');
    await page.keyboard.press('Escape');
    await column(page, 'completed').getByRole('button', { name: 'Add a task' }).click();
    await expect(page.getByRole('dialog', { name: 'Create New Task' }).getByLabel('Status')).toHaveValue('completed');
    await page.keyboard.press('Escape');

    // Quick Add in the sidebar opens the same form, from any page.
    await page.getByRole('link', { name: 'Dashboard' }).first().click();
    await page.getByRole('button', { name: 'Quick Add' }).click();
    const quick = page.getByRole('dialog', { name: 'Create New Task' });
    await quick.getByLabel('Title').fill('Quick one');
    await quick.getByRole('button', { name: 'Create Task' }).click();
    // The first create's toast may still be on screen.
    await expect(page.getByText(MSG.taskCreated).last()).toBeVisible();
    await page.getByRole('link', { name: 'Tasks' }).first().click();
    await expect(card(column(page, 'todo'), 'Quick one')).toBeVisible();
  });

  test('drag a card with the mouse and with the keyboard; it stays after a reload; a failed save puts it back', async ({
    page,
    request,
  }) => {
    const { owner, apollo } = await seedTeam(request);
    await newTask(request, owner, { title: 'Mouse mover', projectId: apollo.id });
    const keyboardMover = await newTask(request, owner, { title: 'Keyboard mover', projectId: apollo.id });
    await signIn(page, owner);
    await page.goto('/tasks');
    const todo = column(page, 'todo');
    const progress = column(page, 'in_progress');
    await expect(card(todo, 'Mouse mover')).toBeVisible();

    let statusCalls = 0;
    const statusUrls: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'PATCH' && r.url().endsWith('/status')) {
        statusCalls++;
        statusUrls.push(new URL(r.url()).pathname);
      }
    });

    // Mouse.
    const from = await card(todo, 'Mouse mover').boundingBox();
    const to = await progress.boundingBox();
    await page.mouse.move(from!.x + from!.width / 2, from!.y + from!.height / 2);
    await page.mouse.down();
    await page.mouse.move(from!.x + from!.width / 2 + 20, from!.y + 20, { steps: 5 });
    await page.mouse.move(to!.x + to!.width / 2, to!.y + 120, { steps: 15 });
    await page.mouse.up();
    await expect(card(progress, 'Mouse mover')).toBeVisible();
    await expect(page.getByText('Moved task Mouse mover to In Progress')).toBeAttached();
    await expect(countOf(page, 'in_progress')).toHaveText('1 tasks');
    await expect(countOf(page, 'todo')).toHaveText('1 tasks');
    await expect.poll(() => statusCalls).toBe(1);

    // Keyboard: Space picks up, the right arrow moves one column, Space drops.
    // The mouse move's refetch can land mid-drag and remount the card, which ends dnd-kit's keyboard drag: pick up
    // again until the arrow is seen to move it.
    await expect(async () => {
      await pickUp(page, card(todo, 'Keyboard mover'), 'Keyboard mover', 'To Do');
      await page.keyboard.press('ArrowRight');
      await expect(page.getByText('Task Keyboard mover is over In Progress.')).toBeAttached({ timeout: 2_000 });
    }).toPass({ timeout: 30_000 });
    await page.keyboard.press('Space');
    await expect(card(progress, 'Keyboard mover')).toBeVisible();
    await expect(page.getByText('Moved task Keyboard mover to In Progress')).toBeAttached();
    await expect(todo.getByText('No tasks in To Do')).toBeVisible();
    await expect.poll(() => statusCalls).toBe(2);

    await page.reload();
    await expect(card(progress, 'Mouse mover')).toBeVisible();
    await expect(card(progress, 'Keyboard mover')).toBeVisible();
    await expect(countOf(page, 'in_progress')).toHaveText('2 tasks');

    // Dropping in place or outside every column does nothing.
    await card(progress, 'Mouse mover').focus();
    await page.keyboard.press('Space');
    await page.keyboard.press('Space');
    const box = await card(progress, 'Mouse mover').boundingBox();
    await page.mouse.move(box!.x + 30, box!.y + 20);
    await page.mouse.down();
    await page.mouse.move(box!.x + 60, box!.y + 40, { steps: 5 });
    const header = await page.getByRole('heading', { name: 'Tasks', level: 1 }).boundingBox();
    await page.mouse.move(header!.x + 10, header!.y + 5, { steps: 10 });
    await page.mouse.up();
    await expect(card(progress, 'Mouse mover')).toBeVisible();

    // A failed save: the move shows at once (the answer is held until the test has seen it), then the
    // card returns with the toast. Its request is also the sentinel for the drops above: it is the
    // third status request, so they sent none.
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    const answer = gate();
    await page.route('**/api/tasks/*/status', async (route) => {
      await answer.passed;
      await route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ error: { code: 'internal', message: 'Internal server error' } }),
      });
    });
    // The board scrolls sideways to bring Review into view; drop once the card is over it. As above, a refetch can end
    // the keyboard drag before the arrow is seen: pick up again until it is.
    await expect(async () => {
      await pickUp(page, card(progress, 'Keyboard mover'), 'Keyboard mover', 'In Progress');
      await page.keyboard.press('ArrowRight');
      await expect(page.getByText('Task Keyboard mover is over Review.')).toBeAttached({ timeout: 2_000 });
    }).toPass({ timeout: 30_000 });
    const sentinel = page.waitForRequest(
      (r) => r.method() === 'PATCH' && r.url().endsWith(`/api/tasks/${keyboardMover.id}/status`),
    );
    await page.keyboard.press('Enter');
    await sentinel;
    expect(statusUrls.slice(2)).toEqual([`/api/tasks/${keyboardMover.id}/status`]);
    await expect(card(column(page, 'review'), 'Keyboard mover')).toBeVisible();
    answer.open();
    await expect(page.getByText(MSG.taskStatusFailed)).toBeVisible();
    await expect(card(progress, 'Keyboard mover')).toBeVisible();
    await expect(column(page, 'review').getByText('No tasks in Review')).toBeVisible();
    expect(errors.some((e) => e.includes(MSG.taskStatusFailed))).toBe(true);
    await page.unroute('**/api/tasks/*/status');
    await page.reload();
    await expect(card(progress, 'Keyboard mover')).toBeVisible();
  });

  test('filters from the URL and the panel, chips, Clear All, and a sortable list view', async ({ page, request }) => {
    const { owner, mia, apollo, borealis } = await seedTeam(request);
    const today = localDate(new Date());
    const seed = [
      { title: 'Overdue bug', dueDate: addDays(today, -1), priority: 'high', assigneeId: mia.id, projectId: apollo.id },
      { title: 'Old finished', dueDate: addDays(today, -3), status: 'completed', projectId: apollo.id },
      { title: 'Due today', dueDate: today, priority: 'urgent', status: 'in_progress', projectId: apollo.id },
      { title: 'Plus three', dueDate: addDays(today, 3), priority: 'low', status: 'review', projectId: apollo.id },
      { title: 'Plus eight', dueDate: addDays(today, 8), projectId: apollo.id, assigneeId: mia.id },
      { title: 'Boreal note', description: 'contains a Needle word', projectId: borealis.id },
    ];
    for (const t of seed) await newTask(request, owner, t);
    const all = seed.map((t) => t.title);
    const board = page.getByTestId('task-board');
    const shown = async (titles: string[]) => {
      for (const t of all) {
        if (titles.includes(t)) await expect(card(board, t)).toBeVisible();
        else await expect(card(board, t)).toHaveCount(0);
      }
    };
    const expectedDue = (f: 'overdue' | 'today' | 'this_week' | 'next_week') =>
      seed
        .filter((t) =>
          matchesDueFilter(
            { dueDate: t.dueDate ?? null, statusCategory: t.status === 'completed' ? 'completed' : 'started' },
            f,
            today,
          ),
        )
        .map((t) => t.title);

    await signIn(page, owner);
    // ?project= preselects the project filter.
    await page.goto(`/tasks?project=${borealis.id}`);
    await expect(page.getByLabel('Project')).toHaveValue(borealis.id);
    await shown(['Boreal note']);
    await page.getByLabel('Project').selectOption({ label: 'All Projects' });
    await shown(all);

    // Search on title or description (in SQL).
    await page.getByPlaceholder('Search tasks...').fill('needle');
    await shown(['Boreal note']);
    await expect(page).toHaveURL(/q=needle/);
    await page.getByPlaceholder('Search tasks...').fill('plus');
    await shown(['Plus three', 'Plus eight']);
    await page.getByPlaceholder('Search tasks...').fill('');
    await shown(all);

    await page.getByRole('button', { name: 'More Filters' }).click();
    const panel = page.getByRole('region', { name: 'Filters' });
    await expect(panel.getByLabel('Status').getByRole('option')).toHaveText([
      'All Status',
      'To Do',
      'In Progress',
      'Review',
      'Completed',
    ]);
    await expect(panel.getByLabel('Priority').getByRole('option')).toHaveText([
      'All Priorities',
      'Low',
      'Medium',
      'High',
      'Urgent',
    ]);
    await expect(panel.getByLabel('Due Date').getByRole('option')).toHaveText([
      'Any Due Date',
      'Overdue',
      'Due Today',
      'This Week',
      'Next Week',
    ]);
    await expect(panel.getByLabel('Assignee').getByRole('option')).toContainText(['All Assignees', 'Unassigned']);

    await panel.getByLabel('Status').selectOption({ label: 'In Progress' });
    await shown(['Due today']);
    await expect(countOf(page, 'todo')).toHaveText('0 tasks');
    const chips = page.getByRole('list', { name: 'Active filters' });
    await chips.getByRole('button', { name: 'Remove filter Status: In Progress' }).click();
    await shown(all);

    await panel.getByLabel('Priority').selectOption({ label: 'Urgent' });
    await shown(['Due today']);
    await panel.getByLabel('Priority').selectOption({ label: 'All Priorities' });

    await panel.getByLabel('Assignee').selectOption({ label: 'Mia Member' });
    await shown(['Overdue bug', 'Plus eight']);
    await panel.getByLabel('Assignee').selectOption({ label: 'Unassigned' });
    await shown(['Old finished', 'Due today', 'Plus three', 'Boreal note']);
    await expect(chips).toContainText('Assignee: Unassigned');
    await panel.getByLabel('Assignee').selectOption({ label: 'All Assignees' });

    const dueLabels = { overdue: 'Overdue', today: 'Due Today', this_week: 'This Week', next_week: 'Next Week' } as const;
    for (const [f, label] of Object.entries(dueLabels) as [keyof typeof dueLabels, string][]) {
      await panel.getByLabel('Due Date').selectOption({ label });
      await shown(expectedDue(f));
      await expect(chips).toContainText(`Due: ${label}`);
    }
    expect(expectedDue('overdue')).toEqual(['Overdue bug']);

    // Filters live in the URL: a reload keeps them.
    await panel.getByLabel('Priority').selectOption({ label: 'Medium' });
    await page.reload();
    await expect(page.getByRole('region', { name: 'Filters' }).getByLabel('Due Date')).toHaveValue('next_week');
    await expect(page.getByRole('region', { name: 'Filters' }).getByLabel('Priority')).toHaveValue('medium');
    await page.getByRole('button', { name: 'Clear All' }).click();
    await shown(all);
    await expect(page).toHaveURL(/\/tasks$/);
    await expect(chips).toHaveCount(0);

    // Two filters changed in one moment, before the page renders again: the second keeps the first.
    const filtersPanel = page.getByRole('region', { name: 'Filters' });
    const selects = [
      await filtersPanel.getByLabel('Priority').elementHandle(),
      await filtersPanel.getByLabel('Assignee').elementHandle(),
    ];
    await page.evaluate(
      ([priority, assignee, miaId]) => {
        for (const [select, value] of [
          [priority, 'high'],
          [assignee, miaId],
        ] as const) {
          (select as HTMLSelectElement).value = value as string;
          (select as HTMLSelectElement).dispatchEvent(new Event('change', { bubbles: true }));
        }
      },
      [selects[0], selects[1], mia.id] as const,
    );
    await expect(page).toHaveURL(/priority=high/);
    await expect(page).toHaveURL(new RegExp(`assignee=${mia.id}`));
    await shown(['Overdue bug']);
    await page.getByRole('button', { name: 'Clear All' }).click();
    await shown(all);

    // List view: a real table, sortable by column, with the same filters.
    await page.getByRole('button', { name: 'List' }).click();
    const table = page.getByRole('table');
    await expect(table.getByRole('columnheader')).toHaveText([
      'Title',
      'Status',
      'Priority',
      'Assignee',
      'Start Date',
      'Due Date',
      'Project',
      'Tags',
    ]);
    const firstCells = () => table.locator('tbody tr td:first-child');
    await table.getByRole('button', { name: 'Title' }).click();
    await expect(table.getByRole('columnheader', { name: 'Title' })).toHaveAttribute('aria-sort', 'ascending');
    await expect(firstCells()).toHaveText([...all].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
    await table.getByRole('button', { name: 'Title' }).click();
    await expect(table.getByRole('columnheader', { name: 'Title' })).toHaveAttribute('aria-sort', 'descending');
    await expect(firstCells()).toHaveText([...all].sort((a, b) => b.toLowerCase().localeCompare(a.toLowerCase())));
    await table.getByRole('button', { name: 'Priority' }).click();
    await expect(firstCells().first()).toHaveText('Plus three');
    await table.getByRole('button', { name: 'Priority' }).click();
    await expect(firstCells().first()).toHaveText('Due today');
    await table.getByRole('button', { name: 'Due Date' }).click();
    await expect(firstCells().first()).toHaveText('Old finished');
    await expect(table.locator('tbody tr').first()).toContainText(format(parseISO(addDays(today, -3)), 'MMM dd, yyyy'));
    await page.getByRole('region', { name: 'Filters' }).getByLabel('Status').selectOption({ label: 'Completed' });
    await expect(firstCells()).toHaveText(['Old finished']);
    // A row opens the edit modal.
    await table.getByRole('button', { name: 'Old finished' }).click();
    await expect(page.getByRole('dialog', { name: 'Edit Task' }).getByLabel('Title')).toHaveValue('Old finished');
  });

  test("a cold load of /tasks starts the board request beside the page's code, and asks for it once", async ({
    page,
    request,
  }) => {
    const { owner, apollo, borealis } = await seedTeam(request);
    await newTask(request, owner, { title: 'Early bird', projectId: apollo.id, status: 'review' });
    await newTask(request, owner, { title: 'Elsewhere', projectId: borealis.id });
    await signIn(page, owner);
    const boards: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/tasks/board')) boards.push(r.url());
    });
    // When the Tasks page first rendered: it sets the document's title.
    await page.addInitScript(() => {
      const w = window as unknown as { __tasksPageAt?: number };
      new MutationObserver(() => {
        if (w.__tasksPageAt === undefined && document.title.startsWith('Tasks')) w.__tasksPageAt = performance.now();
      }).observe(document, { subtree: true, childList: true, characterData: true });
    });
    const timings = () =>
      page.evaluate(() => {
        const entries = performance.getEntriesByType('resource');
        const board = entries.find((e) => e.name.includes('/api/tasks/board'));
        const chunk = entries.find((e) => /\/assets\/tasks-page-[^/]*\.js$/.test(e.name)) as
          | PerformanceResourceTiming
          | undefined;
        return {
          boardStart: board?.startTime ?? null,
          chunkEnd: chunk?.responseEnd ?? null,
          pageAt: (window as unknown as { __tasksPageAt?: number }).__tasksPageAt ?? null,
        };
      });

    // The plain board of one project: the request leaves before the Tasks page has rendered.
    await page.goto(`/tasks?project=${apollo.id}`);
    await expect(card(column(page, 'review'), 'Early bird')).toBeVisible();
    await expect(countOf(page, 'review')).toHaveText('1 tasks');
    await expect(countOf(page, 'todo')).toHaveText('0 tasks');
    const early = await timings();
    expect(early.boardStart).not.toBeNull();
    expect(early.pageAt).not.toBeNull();
    expect(early.boardStart!).toBeLessThan(early.pageAt!);
    await requestSentinel(page);
    expect(boards).toHaveLength(1);
    expect(boards[0]).toContain(`projectId=${apollo.id}`);

    // Other filters in the URL: the columns ask for themselves once the page renders, still one request.
    boards.length = 0;
    await page.goto('/tasks?q=Elsewhere');
    await expect(card(column(page, 'todo'), 'Elsewhere')).toBeVisible();
    await expect(column(page, 'review').getByText('No tasks in Review')).toBeVisible();
    const late = await timings();
    expect(late.boardStart!).toBeGreaterThan(late.chunkEnd!);
    await requestSentinel(page);
    expect(boards).toHaveLength(1);
    expect(boards[0]).toContain('q=Elsewhere');
  });

  test('a long column draws its first page with the exact count, and loads the rest as it scrolls near or on Show more', async ({
    page,
    request,
  }) => {
    const { owner, apollo } = await seedTeam(request);
    const total = LIMITS.boardFirstPage + LIMITS.boardMorePage + 5;
    for (let i = 0; i < total; i += 15) {
      await Promise.all(
        Array.from({ length: Math.min(15, total - i) }, (_, j) =>
          newTask(request, owner, { title: `Backlog ${String(i + j).padStart(3, '0')}`, projectId: apollo.id }),
        ),
      );
    }
    await signIn(page, owner);
    await page.goto(`/tasks?project=${apollo.id}`);
    const todo = column(page, 'todo');
    const cards = todo.getByTestId('task-card');
    await expect(countOf(page, 'todo')).toHaveText(`${total} tasks`);
    await expect(cards).toHaveCount(LIMITS.boardFirstPage);
    const more = todo.getByRole('button', { name: /^Show more/ });
    await expect(more).toHaveText(`Show more (${total - LIMITS.boardFirstPage} more)`);

    // Scrolling near the end of the column loads the next page by itself.
    await cards.nth(LIMITS.boardFirstPage - 3).scrollIntoViewIfNeeded();
    await expect(cards).toHaveCount(LIMITS.boardFirstPage + LIMITS.boardMorePage);
    await expect(more).toHaveText('Show more (5 more)');

    // A page that fails is asked for once, not again and again while the button stays in view; the error shows.
    let failedAsks = 0;
    const nextPage = /\/api\/tasks\?.*offset=/;
    await page.route(nextPage, (route) => {
      failedAsks += 1;
      return route.fulfill({ status: 404, json: { error: { code: 'not_found', message: 'Not found' } } });
    });
    await more.scrollIntoViewIfNeeded();
    await expect(todo.getByRole('alert')).toHaveText(MSG.loadFailed);
    // The error shows once the query has given up (no retries left); nothing asks again after it.
    await requestSentinel(page);
    expect(failedAsks).toBe(1);
    await page.unroute(nextPage);

    // Reaching the button from the keyboard loads the rest (the scroll that focus brings, or the button).
    await more.focus();
    await page.keyboard.press('Enter');
    await expect(cards).toHaveCount(total);
    await expect(more).toBeHidden();
    await expect(countOf(page, 'todo')).toHaveText(`${total} tasks`);
    await expect(card(todo, 'Backlog 000')).toBeAttached();

    // Without IntersectionObserver nothing loads by itself, and the button alone does it.
    await page.addInitScript(() => {
      delete (window as { IntersectionObserver?: unknown }).IntersectionObserver;
    });
    await page.reload();
    await expect(cards).toHaveCount(LIMITS.boardFirstPage);
    let nextPageAsks = 0;
    page.on('request', (r) => {
      if (nextPage.test(r.url())) nextPageAsks += 1;
    });
    await more.scrollIntoViewIfNeeded();
    await requestSentinel(page);
    expect(nextPageAsks).toBe(0);
    await expect(cards).toHaveCount(LIMITS.boardFirstPage);
    await more.focus();
    await page.keyboard.press('Enter');
    await expect(cards).toHaveCount(LIMITS.boardFirstPage + LIMITS.boardMorePage);
    await expect(more).toHaveText('Show more (5 more)');
  });

  test('the four columns fit beside the sidebar from 1280 px wide; on a phone the board scrolls sideways', async ({
    page,
    request,
  }) => {
    const { owner, apollo } = await seedTeam(request);
    await newTask(request, owner, { title: 'Shipped', projectId: apollo.id, status: 'completed' });
    await page.setViewportSize({ width: 1280, height: 800 });
    await signIn(page, owner);
    await page.getByRole('link', { name: 'Tasks' }).first().click();
    const board = page.getByTestId('task-board');
    await expect(card(column(page, 'completed'), 'Shipped')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Collapse sidebar' })).toBeVisible();
    const overflow = () => board.evaluate((el) => el.scrollWidth - el.clientWidth);
    expect(await overflow()).toBe(0);
    const done = (await column(page, 'completed').boundingBox())!;
    expect(done.x + done.width).toBeLessThanOrEqual(1280);
    expect(done.width).toBeGreaterThanOrEqual(224);

    await page.setViewportSize({ width: 390, height: 844 });
    await expect.poll(overflow).toBeGreaterThan(0);
    const todo = (await column(page, 'todo').boundingBox())!;
    expect(todo.width).toBeGreaterThan(250);
    expect(todo.width).toBeLessThan(390);
  });
});
