import { mkdirSync } from 'node:fs';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { MSG } from '../../src/domain/messages';
import { NOTIFICATION_TEXT } from '../../src/domain/schemas/notification';
import type { ProjectDto } from '../../src/domain/schemas/project';
import type { TaskDto } from '../../src/domain/schemas/task';
import type { CommentDto } from '../../src/domain/schemas/task-detail';
import type { TeamDto } from '../../src/domain/schemas/team';
import { apiAs, axeViolations, card, column, createUser, expect, pickUp, seedCrew, signIn, test } from './fixtures';

/**
 * The task page (issue 22): a card opens the task at /tasks/:id over the board, with its comments (@mentions),
 * history and watchers beside the form.
 */

const SHOTS = '/tmp/shots';
const UUID_RE = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

const taskDialog = (page: Page) => page.getByRole('dialog', { name: 'Edit Task' });
const activity = (dialog: Locator) => dialog.getByRole('region', { name: 'Activity' });
const commentBox = (dialog: Locator) => dialog.getByRole('combobox', { name: 'Add a comment' });
const commentBy = (dialog: Locator, author: string, text: string) =>
  activity(dialog).getByRole('article', { name: author }).filter({ hasText: text });

const DESCRIPTION = [
  '## The plan',
  '',
  '- **Draft** the post',
  '- Read [the style guide](https://example.org/style)',
  '',
  'Run `npm run docs` first.',
].join('\n');

async function seed(request: APIRequestContext) {
  const { owner, mia, team } = await seedCrew(request);
  const project = await apiAs<ProjectDto>(request, owner, 'post', '/api/projects', { name: 'Apollo', teamId: team.id });
  const task = await apiAs<TaskDto>(request, owner, 'post', '/api/tasks', {
    title: 'Write the launch post',
    description: DESCRIPTION,
    projectId: project.id,
    priority: 'high',
  });
  const other = await apiAs<TaskDto>(request, owner, 'post', '/api/tasks', {
    title: 'Low key chore',
    projectId: project.id,
    priority: 'low',
  });
  return { owner, mia, team, project, task, other };
}

const isFocused = (locator: Locator) => locator.evaluate((el) => el === document.activeElement).catch(() => false);

/** Tab (or Shift+Tab) until `target` has focus. */
async function tabTo(page: Page, target: Locator, { back = false, max = 120 } = {}) {
  for (let i = 0; i < max; i++) {
    if (await isFocused(target)) return;
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`Tab never reached ${target}`);
}

test.describe('task page', () => {
  test('a card opens at /tasks/:id over the board; reload, Escape, Back, the list and a hidden task', async ({
    page,
    request,
  }) => {
    const { owner, task } = await seed(request);
    const stranger = await createUser(request, { fullName: 'Sid Stranger' });
    const strangerTeam = await apiAs<TeamDto>(request, stranger, 'post', '/api/teams', { name: 'Elsewhere' });
    const strangerProject = await apiAs<ProjectDto>(request, stranger, 'post', '/api/projects', {
      name: 'Hidden',
      teamId: strangerTeam.id,
    });
    const hidden = await apiAs<TaskDto>(request, stranger, 'post', '/api/tasks', {
      title: 'Not yours',
      projectId: strangerProject.id,
    });

    await signIn(page, owner);
    await page.goto('/tasks?priority=high');
    await expect(card(column(page, 'todo'), 'Write the launch post')).toBeVisible();
    await expect(card(column(page, 'todo'), 'Low key chore')).toHaveCount(0);
    // Marks the board's element: the same element after closing means the board did not remount.
    await page.getByTestId('task-board').evaluate((el) => {
      el.setAttribute('data-e2e-mark', 'kept');
    });

    await card(column(page, 'todo'), 'Write the launch post').click();
    await expect(page).toHaveURL(new RegExp(`/tasks/${task.id}\\?priority=high$`));
    const dialog = taskDialog(page);
    await expect(dialog.getByLabel('Title')).toHaveValue('Write the launch post');
    // The description shows rendered: a heading, a list, a safe external link, code.
    await expect(dialog.getByRole('heading', { name: 'The plan' })).toBeVisible();
    await expect(dialog.getByText('Draft', { exact: true })).toHaveJSProperty('tagName', 'STRONG');
    const link = dialog.getByRole('link', { name: 'the style guide' });
    await expect(link).toHaveAttribute('href', 'https://example.org/style');
    await expect(link).toHaveAttribute('target', '_blank');
    await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    await expect(dialog.getByText('npm run docs')).toHaveJSProperty('tagName', 'CODE');
    // The sections beside the form.
    for (const name of ['Comments', 'Attachments', 'Checklist', 'Activity']) {
      await expect(dialog.getByRole('heading', { name, exact: false }).first()).toBeVisible();
    }
    await expect(activity(dialog)).toContainText('Olive Owner created this task');
    // Edit turns the description into its text field, label 'Description' as before.
    await dialog.getByRole('button', { name: 'Edit description' }).click();
    await expect(dialog.getByLabel('Description', { exact: true })).toHaveValue(DESCRIPTION);
    await expect(dialog.getByLabel('Description', { exact: true })).toBeFocused();

    // Reload: the same modal over the board.
    await page.reload();
    await expect(page).toHaveURL(new RegExp(`/tasks/${task.id}\\?priority=high$`));
    await expect(taskDialog(page).getByLabel('Title')).toHaveValue('Write the launch post', { timeout: 30_000 });
    // The board is under it (hidden from assistive technology while the dialog is open, so found by test id).
    await expect(page.getByTestId('task-card').filter({ hasText: 'Write the launch post' })).toBeAttached();

    // Escape: back to the board with the filters.
    await page.keyboard.press('Escape');
    await expect(taskDialog(page)).toBeHidden();
    await expect(page).toHaveURL(/\/tasks\?priority=high$/);
    await expect(card(column(page, 'todo'), 'Low key chore')).toHaveCount(0);

    // Opened from the board, the close button goes back; the board is the same element (not remounted).
    await page.getByTestId('task-board').evaluate((el) => {
      el.setAttribute('data-e2e-mark', 'kept');
    });
    await card(column(page, 'todo'), 'Write the launch post').click();
    await expect(page).toHaveURL(new RegExp(`/tasks/${task.id}\\?priority=high$`));
    await taskDialog(page).getByRole('button', { name: 'Close' }).click();
    await expect(page).toHaveURL(/\/tasks\?priority=high$/);
    await expect(page.getByTestId('task-board')).toHaveAttribute('data-e2e-mark', 'kept');

    // Browser Back from the task returns to the board; Forward opens it again.
    await card(column(page, 'todo'), 'Write the launch post').click();
    await expect(taskDialog(page)).toBeVisible();
    await page.goBack();
    await expect(page).toHaveURL(/\/tasks\?priority=high$/);
    await expect(taskDialog(page)).toBeHidden();
    await page.goForward();
    await expect(taskDialog(page).getByLabel('Title')).toHaveValue('Write the launch post');
    await page.keyboard.press('Escape');
    await expect(page).toHaveURL(/\/tasks\?priority=high$/);

    // Save closes too, with the same toast as ever, and returns to the board's URL.
    await card(column(page, 'todo'), 'Write the launch post').click();
    await taskDialog(page).getByLabel('Title').fill('Write the launch post!');
    await taskDialog(page).getByRole('button', { name: 'Update Task' }).click();
    await expect(page.getByText(MSG.taskUpdated)).toBeVisible();
    await expect(page).toHaveURL(/\/tasks\?priority=high$/);

    // The list view opens tasks the same way, and keeps its own query string.
    await page.goto('/tasks?view=list');
    await page.getByRole('table').getByRole('button', { name: 'Low key chore' }).click();
    await expect(page).toHaveURL(new RegExp(`/tasks/${UUID_RE}\\?view=list$`));
    await expect(taskDialog(page).getByLabel('Title')).toHaveValue('Low key chore');
    await page.keyboard.press('Escape');
    await expect(page).toHaveURL(/\/tasks\?view=list$/);
    await expect(page.getByRole('table')).toBeVisible();

    // Another team's task, a task that does not exist and a malformed id: not found, with a way back.
    for (const id of [hidden.id, '00000000-0000-4000-8000-000000000000', 'nope']) {
      await page.goto(`/tasks/${id}`);
      const missing = page.getByRole('dialog', { name: 'Task not found' });
      await expect(missing).toContainText('This task does not exist, or you do not have access to it.');
      await expect(missing).not.toContainText('Not yours');
      await missing.getByRole('button', { name: 'Back to tasks' }).click();
      await expect(page).toHaveURL(/\/tasks$/);
      await expect(missing).toBeHidden();
    }
  });

  test('comment, edit and delete; mention a teammate who sees it live and is notified; history shows a drag', async ({
    browser,
    page,
    request,
  }) => {
    test.setTimeout(180_000);
    const { owner, mia, task } = await seed(request);
    await signIn(page, owner);
    await page.goto('/tasks');

    // A status change by keyboard drag and drop.
    const todo = column(page, 'todo');
    await expect(card(todo, 'Write the launch post')).toBeVisible();
    await expect(async () => {
      await pickUp(page, card(todo, 'Write the launch post'), 'Write the launch post', 'To Do');
      await page.keyboard.press('ArrowRight');
      await expect(page.getByText('Task Write the launch post is over In Progress.')).toBeAttached({ timeout: 2_000 });
    }).toPass({ timeout: 30_000 });
    await page.keyboard.press('Space');
    await expect(card(column(page, 'in_progress'), 'Write the launch post')).toBeVisible();
    await expect(page.getByText('Moved task Write the launch post to In Progress')).toBeAttached();

    // Mia has the task open in her own browser.
    const miaContext = await browser.newContext();
    const miaPage = await miaContext.newPage();
    await signIn(miaPage, mia);
    await miaPage.goto(`/tasks/${task.id}`);
    const miaDialog = taskDialog(miaPage);
    // A cold load of the task's URL (generous: CI shares two cores between servers and browsers).
    await expect(miaDialog.getByLabel('Title')).toHaveValue('Write the launch post', { timeout: 30_000 });

    // The board ignores a click just after a drop: click until the task opens.
    const dialog = taskDialog(page);
    await expect(async () => {
      if (!(await dialog.isVisible())) await card(column(page, 'in_progress'), 'Write the launch post').click();
      await expect(dialog).toBeVisible({ timeout: 1_000 });
    }).toPass();
    await expect(activity(dialog)).toContainText('Olive Owner moved this from To Do to In Progress');
    await expect(activity(dialog)).toContainText('Olive Owner created this task');
    await expect(activity(dialog).getByRole('listitem').first()).toContainText(
      /moved this from To Do to In Progress · (Just now|1 minute ago)/,
    );

    // Comment with the button; Markdown renders.
    await commentBox(dialog).fill('**Hello** team, see `the brief`');
    await dialog.getByRole('button', { name: 'Comment', exact: true }).click();
    const hello = commentBy(dialog, 'Olive Owner', 'Hello team');
    await expect(hello).toBeVisible();
    await expect(hello.getByText('Hello', { exact: true })).toHaveJSProperty('tagName', 'STRONG');
    await expect(hello.locator('time')).toHaveText('Just now');
    await expect(hello.locator('time')).toHaveAttribute('title', /\d/);
    await expect(commentBox(dialog)).toHaveValue('');
    await expect(dialog.getByRole('heading', { name: 'Comments (1)' })).toBeVisible();
    // Empty: refused, with the schema's message.
    await dialog.getByRole('button', { name: 'Comment', exact: true }).click();
    await expect(dialog.getByText('Comment cannot be empty')).toBeVisible();

    // Ctrl+Enter sends.
    await commentBox(dialog).fill('Second thought');
    await commentBox(dialog).press('Control+Enter');
    const second = commentBy(dialog, 'Olive Owner', 'Second thought');
    await expect(second).toBeVisible();
    // Newest first.
    await expect(activity(dialog).getByRole('article').first()).toContainText('Second thought');

    // Edit: Escape cancels the edit (not the dialog), Save keeps it, 'edited' shows.
    await second.getByRole('button', { name: 'Edit comment' }).click();
    const editBox = second.getByRole('combobox', { name: 'Edit comment' });
    await expect(editBox).toBeFocused();
    await editBox.press('Escape');
    await expect(editBox).toBeHidden();
    await expect(dialog).toBeVisible();
    await second.getByRole('button', { name: 'Edit comment' }).click();
    await editBox.fill('Second thought, edited');
    await second.getByRole('button', { name: 'Save' }).click();
    const edited = commentBy(dialog, 'Olive Owner', 'Second thought, edited');
    await expect(edited).toContainText('edited');
    await expect(edited.getByText('edited', { exact: true })).toHaveAttribute('title', /^Edited /);

    // Delete, confirmed in place.
    await edited.getByRole('button', { name: 'Delete comment' }).click();
    await edited.getByRole('button', { name: 'Yes, delete' }).click();
    await expect(commentBy(dialog, 'Olive Owner', 'Second thought')).toHaveCount(0);
    await expect(hello).toBeVisible();

    // Mention: '@' lists the team, typing narrows it, Enter picks; the box shows the name, the server gets the id.
    const box = commentBox(dialog);
    await box.fill('');
    await box.pressSequentially('Please review @');
    const list = dialog.getByRole('listbox', { name: 'People to mention' });
    await expect(list.getByRole('option')).toHaveCount(2);
    await expect(list).toContainText('Olive Owner');
    await expect(list).toContainText('Mia Member');
    await box.pressSequentially('mi');
    await expect(list.getByRole('option')).toHaveCount(1);
    await expect(list.getByRole('option')).toHaveAccessibleName('Mia Member');
    await expect(box).toHaveAttribute('aria-expanded', 'true');
    await box.press('Enter');
    await expect(list).toBeHidden();
    await expect(box).toHaveValue('Please review @Mia Member ');
    await box.pressSequentially('before Friday');
    const posted = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith(`/api/tasks/${task.id}/comments`));
    await box.press('Control+Enter');
    expect((await posted).postDataJSON()).toEqual({ body: `Please review <@${mia.id}> before Friday` });
    const mention = commentBy(dialog, 'Olive Owner', 'Please review');
    await expect(mention.getByText('@Mia Member', { exact: true })).toBeVisible();

    // Mia's open panel shows the comment without a reload, and she is notified.
    await expect(commentBy(miaDialog, 'Olive Owner', 'Please review')).toBeVisible();
    // Not hers: no Edit; not a manager: no Delete.
    await expect(commentBy(miaDialog, 'Olive Owner', 'Please review').getByRole('button')).toHaveCount(0);
    await miaPage.keyboard.press('Escape');
    await expect(miaPage).toHaveURL(/\/tasks$/);
    await miaPage.goto('/notifications');
    await expect(
      miaPage
        .getByRole('list', { name: 'Notifications' })
        .getByText(NOTIFICATION_TEXT.mentioned.message('Olive Owner', 'Write the launch post')),
    ).toBeVisible();
    await miaContext.close();

    // Watch: the creator watches by default; Unwatch and Watch again.
    const watchers = (n: number) => `(${n} ${n === 1 ? 'watcher' : 'watchers'})`;
    const watch = activity(dialog).getByRole('button', { name: /^(Watch|Unwatch) \(\d+ watchers?\)$/ });
    await expect(watch).toHaveAccessibleName(/^Unwatch \(\d+ watchers?\)$/);
    const before = Number((await watch.getAttribute('aria-label'))!.match(/\d+/)![0]);
    await watch.click();
    await expect(watch).toHaveAccessibleName(`Watch ${watchers(before - 1)}`);
    await watch.click();
    await expect(watch).toHaveAccessibleName(`Unwatch ${watchers(before)}`);

    // The card counts the comments.
    await page.keyboard.press('Escape');
    await expect(card(column(page, 'in_progress'), 'Write the launch post')).toContainText('2 comments');
  });

  test('keyboard only: open a card, comment, mention, close', async ({ page, request }) => {
    const { owner, task } = await seed(request);
    await signIn(page, owner);
    await page.goto('/tasks');
    const target = card(column(page, 'todo'), 'Write the launch post');
    await expect(target).toBeVisible();
    await tabTo(page, target);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(new RegExp(`/tasks/${task.id}$`));
    const dialog = taskDialog(page);
    await expect(dialog).toBeVisible();
    const box = commentBox(dialog);
    await tabTo(page, box);
    await page.keyboard.type('Ping @');
    const list = dialog.getByRole('listbox', { name: 'People to mention' });
    await expect(list.getByRole('option')).toHaveCount(2);
    // ArrowDown and ArrowUp walk the options (wrapping; the box keeps focus and points at the active one).
    const selected = list.getByRole('option', { selected: true });
    const first = (await selected.getAttribute('id'))!;
    await page.keyboard.press('ArrowDown');
    await expect(selected).not.toHaveId(first);
    await page.keyboard.press('ArrowDown');
    await expect(selected).toHaveId(first);
    await page.keyboard.press('ArrowUp');
    await expect(selected).not.toHaveId(first);
    await page.keyboard.press('ArrowDown');
    // Typing narrows the list; Tab picks.
    await page.keyboard.type('mi');
    await expect(list.getByRole('option')).toHaveCount(1);
    await expect(selected).toHaveAccessibleName('Mia Member');
    const activeId = await list.getByRole('option', { selected: true }).getAttribute('id');
    await expect(box).toHaveAttribute('aria-activedescendant', activeId!);
    await page.keyboard.press('Tab');
    await expect(box).toBeFocused();
    await expect(box).toHaveValue('Ping @Mia Member ');
    // Escape closes an open list, and only the list.
    await page.keyboard.type('and @');
    await expect(list).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(list).toBeHidden();
    await expect(dialog).toBeVisible();
    await page.keyboard.press('Backspace');
    await page.keyboard.type('thanks');
    await page.keyboard.press('Control+Enter');
    const comment = commentBy(dialog, 'Olive Owner', 'Ping');
    await expect(comment).toContainText('Ping @Mia Member and thanks');
    await expect(comment.getByText('@Mia Member', { exact: true })).toBeVisible();
    // Escape closes the task; focus goes back to its card.
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(/\/tasks$/);
    await expect(target).toBeFocused();
  });

  for (const scheme of ['light', 'dark'] as const) {
    test(`the panel with comments and the mentions list has no WCAG A/AA violations (${scheme})`, async ({
      browser,
      request,
    }) => {
      test.setTimeout(180_000);
      mkdirSync(SHOTS, { recursive: true });
      const { owner, mia, task } = await seed(request);
      await apiAs<CommentDto>(request, mia, 'post', `/api/tasks/${task.id}/comments`, {
        body: `Looks good <@${owner.id}>!\n\n1. one\n2. two\n\n> quoted [link](https://example.org)`,
      });
      await apiAs<CommentDto>(request, owner, 'post', `/api/tasks/${task.id}/comments`, { body: 'Thanks, **merging** now.' });
      await apiAs(request, owner, 'patch', `/api/tasks/${task.id}/status`, { status: 'review' });
      for (const viewport of [
        { width: 1280, height: 900 },
        { width: 390, height: 844 },
      ]) {
        const context = await browser.newContext({ viewport, colorScheme: scheme });
        const page = await context.newPage();
        await signIn(page, owner);
        await page.goto(`/tasks/${task.id}`);
        const dialog = taskDialog(page);
        await expect(commentBy(dialog, 'Mia Member', 'Looks good')).toBeVisible({ timeout: 30_000 });
        await expect(activity(dialog)).toContainText('moved this from To Do to Review');
        await expect(dialog.locator('.animate-pulse, .animate-spin')).toHaveCount(0);
        const tag = `${viewport.width}-${scheme}`;
        await page.screenshot({ path: `${SHOTS}/task-panel-${tag}.png` });
        await commentBox(dialog).pressSequentially('@');
        await expect(dialog.getByRole('listbox', { name: 'People to mention' })).toBeVisible();
        expect(await axeViolations(page), `axe on the task panel, ${tag}`).toEqual([]);
        await page.screenshot({ path: `${SHOTS}/task-mentions-${tag}.png` });
        await activity(dialog).scrollIntoViewIfNeeded();
        await page.screenshot({ path: `${SHOTS}/task-activity-${tag}.png`, fullPage: true });
        await context.close();
      }
    });
  }
});
