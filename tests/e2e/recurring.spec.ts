import { mkdirSync } from 'node:fs';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { longDayLabel, shortDayLabel } from '../../src/domain/calendar';
import { addDays } from '../../src/domain/dates';
import type { ProjectDto } from '../../src/domain/schemas/project';
import type { TaskDto } from '../../src/domain/schemas/task';
import { wallClock } from '../../src/domain/schemas/time-zone';
import { apiAs, axeViolations, card, column, dragRight, expect, seedCrew, signIn, test } from './fixtures';

/**
 * Recurring tasks in the client (issue 39): 'Repeat' in the New Task form and on the task page ('Custom…' too), the
 * card's repeat icon and its words for screen readers, completing a weekly task making the next one due the next
 * Monday, the calendar's faded future dates, 'Stop repeating'; axe in both themes, wide and at 390 px.
 */

const SHOTS = '/tmp/shots-C';
mkdirSync(SHOTS, { recursive: true });

/** The browsers' zone: the one a series made in the form is stored in. */
const ZONE = 'Europe/Berlin';
/** The first Monday after today in that zone (never today: a date 'On schedule' would make at once). */
function comingMonday(): string {
  const today = wallClock(Date.now(), ZONE);
  return addDays(today.date, 8 - today.weekday);
}

const WEEKLY = 'Repeats weekly on Monday';
const taskDialog = (page: Page) => page.getByRole('dialog', { name: 'Edit Task' });
const repeatOf = (dialog: Locator) => dialog.getByRole('region', { name: 'Repeat', exact: true });
/** A calendar day's cell, found by the heading that names it in full. */
const day = (page: Page, date: string) =>
  page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: longDayLabel(date), exact: true }) });

async function seed(request: APIRequestContext) {
  const { owner, team } = await seedCrew(request);
  const project = await apiAs<ProjectDto>(request, owner, 'post', '/api/projects', { name: 'Apollo', teamId: team.id });
  const newTask = (title: string, extra: Record<string, unknown> = {}) =>
    apiAs<TaskDto>(request, owner, 'post', '/api/tasks', { title, projectId: project.id, ...extra });
  const tasksTitled = async (title: string) =>
    (await apiAs<{ tasks: TaskDto[] }>(request, owner, 'get', `/api/tasks?projectId=${project.id}&limit=100`)).tasks.filter(
      (t) => t.title === title,
    );
  return { owner, team, project, newTask, tasksTitled };
}

test.describe('recurring tasks', () => {
  test.use({ timezoneId: ZONE });

  test("weekly on Monday 'When completed': made in the form, completed, the next one due the next Monday; the calendar; Stop repeating", async ({
    page,
    request,
  }) => {
    test.setTimeout(180_000);
    const { owner, tasksTitled } = await seed(request);
    const monday = comingMonday();
    const nextMonday = addDays(monday, 7);
    await signIn(page, owner);

    // The form: 'Weekly on Monday' is offered for a task due on a Monday, 'When completed' is the mode.
    await page.goto('/tasks');
    await page.getByRole('button', { name: 'New Task' }).click();
    const form = page.getByRole('dialog', { name: 'Create New Task' });
    await form.getByLabel('Title').fill('Weekly report');
    await form.getByLabel('Project').selectOption({ label: 'Apollo' });
    await form.getByLabel('Due Date').fill(monday);
    const repeat = form.getByLabel('Repeat', { exact: true });
    await expect(repeat.locator('option')).toHaveText([
      'Does not repeat',
      'Daily',
      'Weekly on Monday',
      `Monthly on day ${Number(monday.slice(8))}`,
      'Every weekday',
      'Custom…',
    ]);
    await expect(form.getByLabel('Repeat mode')).toHaveCount(0);
    await repeat.selectOption({ label: 'Weekly on Monday' });
    await expect(form.getByLabel('Repeat mode')).toHaveValue('on_completion');
    await expect(form.getByText('The next task is made when this one is completed.')).toBeVisible();
    await form.getByRole('button', { name: 'Create Task' }).click();
    await expect(form).toBeHidden();

    const [first] = await tasksTitled('Weekly report');
    expect(first?.repeat).toMatchObject({
      rule: 'FREQ=WEEKLY;BYDAY=MO',
      mode: 'on_completion',
      timezone: ZONE,
      nextDate: nextMonday,
    });

    // The card: the icon, and what it means for screen readers.
    const todo = column(page, 'todo');
    const mark = card(todo, 'Weekly report').getByTestId('card-repeat');
    await expect(mark).toHaveText(WEEKLY);
    await expect(mark).toHaveAttribute('title', WEEKLY);
    await expect(mark.locator('svg')).toHaveAttribute('aria-hidden', 'true');

    // The task page says how it repeats and its next date.
    await card(todo, 'Weekly report').click();
    const section = repeatOf(taskDialog(page));
    await expect(section.getByTestId('repeat-summary')).toHaveText(WEEKLY);
    await expect(section.getByTestId('repeat-next')).toHaveText(`Next: ${shortDayLabel(nextMonday)}`);
    await expect(section.getByText('When completed ·')).toBeVisible();
    await taskDialog(page).getByRole('button', { name: 'Cancel' }).click();
    await expect(taskDialog(page)).toBeHidden();

    // Completed on the board: the next one is there, due the next Monday, and it carries the repeat now.
    await dragRight(page, todo, 'Weekly report', 'To Do', ['In Progress', 'Review', 'Completed']);
    const done = column(page, 'completed');
    await expect(card(done, 'Weekly report')).toBeVisible();
    await expect(card(done, 'Weekly report').getByTestId('card-repeat')).toHaveCount(0);
    const next = card(todo, 'Weekly report');
    await expect(next.locator(`time[datetime="${nextMonday}"]`)).toBeVisible();
    await expect(next.getByTestId('card-repeat')).toHaveText(WEEKLY);
    const series = await tasksTitled('Weekly report');
    expect(series).toHaveLength(2);
    const second = series.find((t) => t.id !== first!.id)!;
    expect(second).toMatchObject({ dueDate: nextMonday, seriesId: first!.seriesId, statusCategory: 'unstarted' });
    expect(second.repeat?.nextDate).toBe(addDays(nextMonday, 7));
    expect(series.find((t) => t.id === first!.id)?.repeat).toBeNull();
    await page.screenshot({ path: `${SHOTS}/recurring-board-after-completion.png` });

    // The list view marks the carrying task's row alone.
    await page.getByRole('button', { name: 'List', exact: true }).click();
    const rows = page.getByRole('row').filter({ hasText: 'Weekly report' });
    await expect(rows).toHaveCount(2);
    await expect(page.getByRole('table').getByTestId('card-repeat')).toHaveCount(1);
    await expect(page.getByRole('table').getByTestId('card-repeat')).toHaveText(WEEKLY);
    await page.getByRole('button', { name: 'Board', exact: true }).click();

    // The calendar: the next task on its Monday, the one after it faded, a link to the repeating task, not draggable.
    const after = addDays(nextMonday, 7);
    await page.goto(`/calendar?view=week&date=${after}`);
    const future = day(page, after).getByRole('link', { name: 'Weekly report (repeats)', exact: true });
    await expect(future).toBeVisible();
    await expect(future).toHaveAttribute('href', `/tasks/${second.id}`);
    await expect(future).toHaveCSS('border-top-style', 'dashed');
    await expect(future).not.toHaveAttribute('aria-roledescription', /.+/);
    await page.screenshot({ path: `${SHOTS}/recurring-calendar-week.png` });
    await page.goto(`/calendar?view=week&date=${nextMonday}`);
    await expect(day(page, nextMonday).getByTestId('calendar-task')).toHaveAttribute('data-task-id', second.id);
    await expect(day(page, nextMonday).getByTestId('calendar-occurrence')).toHaveCount(0);

    // The faded date opens the repeating task; 'Stop repeating' ends the series.
    await page.goto(`/calendar?view=week&date=${after}`);
    await day(page, after).getByRole('link', { name: 'Weekly report (repeats)', exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/tasks/${second.id}$`));
    const page2 = repeatOf(taskDialog(page));
    await expect(page2.getByTestId('repeat-summary')).toHaveText(WEEKLY);
    await page2.getByRole('button', { name: 'Stop repeating' }).click();
    await expect(page2.getByTestId('repeat-summary')).toHaveCount(0);
    await expect(page2.getByText('Part of a repeating series.')).toBeVisible();
    await expect(page2.getByLabel('Repeat', { exact: true })).toHaveValue('none');
    await expect(page2.getByRole('status').filter({ hasText: 'Stopped repeating' })).toBeAttached();
    expect((await tasksTitled('Weekly report')).every((t) => t.repeat === null)).toBe(true);
    await taskDialog(page).getByRole('button', { name: 'Cancel' }).click();
    await expect(day(page, after).getByTestId('calendar-occurrence')).toHaveCount(0);
  });

  test("the task page: 'Custom…' builds a rule (every 2 weeks on Monday and Thursday, 6 times), then 'On schedule'", async ({
    page,
    request,
  }) => {
    const { owner, newTask } = await seed(request);
    const monday = comingMonday();
    const task = await newTask('Sprint review', { dueDate: monday });
    await signIn(page, owner);
    await page.goto(`/tasks/${task.id}`);
    const section = repeatOf(taskDialog(page));
    await expect(section.getByLabel('Repeat', { exact: true })).toHaveValue('none');

    await section.getByLabel('Repeat', { exact: true }).selectOption({ label: 'Custom…' });
    const custom = page.getByRole('dialog', { name: 'Custom repeat' });
    // It starts from every week on the due date's weekday.
    await expect(custom.getByRole('checkbox', { name: 'Monday' })).toBeChecked();
    await expect(custom.getByText('Repeats weekly on Monday')).toBeVisible();
    await custom.getByLabel('Repeat every').fill('2');
    await expect(custom.getByLabel('Unit').locator('option:checked')).toHaveText('weeks');
    // No weekday at all is refused, at the weekdays.
    await custom.getByText('Mon', { exact: true }).click();
    await custom.getByRole('button', { name: 'Done' }).click();
    await expect(custom.getByText('Choose at least one weekday')).toBeVisible();
    await custom.getByText('Mon', { exact: true }).click();
    await custom.getByText('Thu', { exact: true }).click();
    await custom.getByRole('radio', { name: 'After' }).check();
    await custom.getByLabel('Number of times').fill('6');
    await expect(custom.getByText('Repeats every 2 weeks on Monday and Thursday, 6 times')).toBeVisible();
    await custom.getByRole('button', { name: 'Done' }).click();
    await expect(custom).toBeHidden();

    await expect(section.getByTestId('repeat-summary')).toHaveText('Repeats every 2 weeks on Monday and Thursday, 6 times');
    await expect(section.getByLabel('Repeat', { exact: true })).toHaveValue('custom');
    await expect(section.getByTestId('repeat-custom-rule')).toHaveText('Repeats every 2 weeks on Monday and Thursday, 6 times');
    // The Thursday after the Monday is next.
    await expect(section.getByTestId('repeat-next')).toHaveText(`Next: ${shortDayLabel(addDays(monday, 3))}`);
    let saved = await apiAs<TaskDto>(request, owner, 'get', `/api/tasks/${task.id}`);
    expect(saved.repeat).toMatchObject({
      rule: 'FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH;COUNT=6',
      mode: 'on_completion',
      timezone: ZONE,
    });

    await section.getByLabel('Repeat mode').selectOption({ label: 'On schedule' });
    await expect(section.getByText('On schedule ·')).toBeVisible();
    await expect(section.getByText('Each task is made on its date, done or not.')).toBeVisible();
    saved = await apiAs<TaskDto>(request, owner, 'get', `/api/tasks/${task.id}`);
    expect(saved.repeat).toMatchObject({ rule: 'FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH;COUNT=6', mode: 'on_schedule' });

    // The form's own save after the in-place ones is not a stale edit.
    await taskDialog(page).getByLabel('Title').fill('Sprint review and demo');
    await taskDialog(page).getByRole('button', { name: 'Update Task' }).click();
    await expect(taskDialog(page)).toBeHidden();
    saved = await apiAs<TaskDto>(request, owner, 'get', `/api/tasks/${task.id}`);
    expect(saved.title).toBe('Sprint review and demo');
    expect(saved.repeat?.mode).toBe('on_schedule');
  });

  for (const scheme of ['light', 'dark'] as const) {
    test(`axe and pictures: the card, the task page, the form and 'Custom…', the calendar (${scheme}, wide and 390 px)`, async ({
      browser,
      request,
    }) => {
      test.setTimeout(240_000);
      const { owner, newTask } = await seed(request);
      const monday = comingMonday();
      const task = await newTask('Weekly report', {
        dueDate: monday,
        repeat: { rule: 'FREQ=WEEKLY;BYDAY=MO', mode: 'on_completion', timezone: ZONE },
      });
      for (const viewport of [
        { width: 1280, height: 900 },
        { width: 390, height: 844 },
      ]) {
        const context = await browser.newContext({ viewport, colorScheme: scheme, timezoneId: ZONE });
        const page = await context.newPage();
        await signIn(page, owner);
        const tag = `${viewport.width}-${scheme}`;

        await page.goto('/tasks');
        const taskCard = card(column(page, 'todo'), 'Weekly report');
        await expect(taskCard.getByTestId('card-repeat')).toHaveText(WEEKLY);
        expect(await axeViolations(page), `axe on the board, ${tag}`).toEqual([]);
        await taskCard.screenshot({ path: `${SHOTS}/recurring-card-${tag}.png` });

        await page.goto(`/tasks/${task.id}`);
        const section = repeatOf(taskDialog(page));
        await expect(section.getByTestId('repeat-summary')).toHaveText(WEEKLY);
        expect(await axeViolations(page), `axe on the task page, ${tag}`).toEqual([]);
        await section.scrollIntoViewIfNeeded();
        await page.screenshot({ path: `${SHOTS}/recurring-page-${tag}.png` });
        await taskDialog(page).getByRole('button', { name: 'Cancel' }).click();

        await page.getByRole('button', { name: 'New Task' }).click();
        const form = page.getByRole('dialog', { name: 'Create New Task' });
        await form.getByLabel('Due Date').fill(monday);
        await form.getByLabel('Repeat', { exact: true }).selectOption({ label: 'Every weekday' });
        await form.getByLabel('Repeat mode').selectOption({ label: 'On schedule' });
        expect(await axeViolations(page), `axe on the form, ${tag}`).toEqual([]);
        await form.getByLabel('Repeat mode').scrollIntoViewIfNeeded();
        await page.screenshot({ path: `${SHOTS}/recurring-form-${tag}.png` });
        await form.getByLabel('Repeat', { exact: true }).selectOption({ label: 'Custom…' });
        const custom = page.getByRole('dialog', { name: 'Custom repeat' });
        await custom.getByRole('radio', { name: 'On' }).check();
        await expect(custom.getByText(/^Repeats every weekday, until/)).toBeVisible();
        expect(await axeViolations(page), `axe on 'Custom…', ${tag}`).toEqual([]);
        await page.screenshot({ path: `${SHOTS}/recurring-custom-${tag}.png` });
        await custom.getByRole('button', { name: 'Cancel' }).click();
        await expect(form.getByLabel('Repeat', { exact: true })).toHaveValue('weekdays');
        await form.getByRole('button', { name: 'Cancel' }).click();

        // The calendar two weeks on: the faded dates (a month's grid wide, the agenda at 390 px).
        const after = addDays(monday, 14);
        await page.goto(`/calendar?view=${viewport.width > 800 ? 'month' : 'week'}&date=${after}`);
        await expect(page.getByRole('link', { name: 'Weekly report (repeats)', exact: true }).first()).toBeVisible();
        expect(await axeViolations(page), `axe on the calendar, ${tag}`).toEqual([]);
        await page.screenshot({ path: `${SHOTS}/recurring-calendar-${tag}.png`, fullPage: true });
        await context.close();
      }
    });
  }
});
