import type { Page } from '@playwright/test';
import { addDays, localIsoDate } from '../../src/domain/dates';
import type { TaskDto } from '../../src/domain/schemas/task';
import type { TeamDto } from '../../src/domain/schemas/team';
import { addMember, apiAs, axeViolations, createUser, type E2EUser, expect, signIn, test } from './fixtures';

const group = (page: Page, name: string) => page.getByRole('region', { name: new RegExp(`^${name} \\d`) });
/** The titles of a group's cards, in order. */
const titlesIn = (page: Page, name: string) => group(page, name).getByRole('heading', { level: 3 });
const cardLink = (page: Page, title: string) => page.getByRole('link', { name: title, exact: true });

let wendy: E2EUser;
let mia: E2EUser;
const today = localIsoDate(new Date());
const titles = {
  overdue: 'Overdue quarterly report',
  today: 'Today standup notes',
  noDate: 'Someday tidy the wiki',
  fromMia: 'Review what Mia wrote',
  delegated: 'Delegated to Mia',
  done: 'Already completed thing',
};

test.describe
  .serial('My work and the calendar feed', () => {
    test.beforeAll(async ({ request }) => {
      wendy = await createUser(request, { fullName: 'Wendy Worker' });
      mia = await createUser(request, { fullName: 'Mia Member' });
      const team = await apiAs<TeamDto>(request, wendy, 'post', '/api/teams', { name: 'Planning Crew' });
      await addMember(request, wendy, team.id, mia);
      const project = await apiAs<{ id: string }>(request, wendy, 'post', '/api/projects', {
        name: 'Roadmap',
        teamId: team.id,
      });
      const task = (by: E2EUser, title: string, assigneeId: string, dueDate: string | null, status = 'todo') =>
        apiAs<TaskDto>(request, by, 'post', '/api/tasks', { title, projectId: project.id, assigneeId, dueDate, status });
      await task(wendy, titles.overdue, wendy.id, addDays(today, -2));
      await task(wendy, titles.today, wendy.id, today);
      await task(wendy, titles.noDate, wendy.id, null);
      await task(mia, titles.fromMia, wendy.id, addDays(today, 30));
      await task(wendy, titles.delegated, mia.id, today);
      await task(wendy, titles.done, wendy.id, today, 'completed');
    });

    test('groups my open tasks, toggles to what I created, and changes a status that stays after a reload', async ({ page }) => {
      await signIn(page, wendy);
      await page.getByRole('region', { name: 'Upcoming Deadlines' }).getByRole('link', { name: 'View all' }).click();
      await expect(page).toHaveURL(/\/my-work$/);
      await expect(page.getByRole('heading', { level: 1, name: 'My work' })).toBeVisible();
      await expect(page).toHaveTitle(/^My work/);

      await expect(titlesIn(page, 'Overdue')).toHaveText([titles.overdue]);
      await expect(titlesIn(page, 'Today')).toHaveText([titles.today]);
      await expect(group(page, 'This week').getByText('Nothing else due this week.')).toBeVisible();
      await expect(titlesIn(page, 'Later')).toHaveText([titles.fromMia]);
      await expect(titlesIn(page, 'No date')).toHaveText([titles.noDate]);
      await expect(cardLink(page, titles.delegated)).toHaveCount(0);
      await expect(cardLink(page, titles.done)).toHaveCount(0);

      // 'Created by me': what I made, whoever it is assigned to; not what Mia made for me.
      await page.getByRole('switch', { name: 'Created by me' }).click();
      await expect(page).toHaveURL(/created=1/);
      await expect(titlesIn(page, 'Today')).toHaveText([titles.delegated, titles.today]);
      await expect(cardLink(page, titles.fromMia)).toHaveCount(0);
      await page.getByRole('switch', { name: 'Created by me' }).click();
      await expect(cardLink(page, titles.fromMia)).toBeVisible();

      // Sort by recently created: the choice is in the URL.
      await page.getByLabel('Sort by').selectOption('created');
      await expect(page).toHaveURL(/sort=created/);

      // Quick status change, from the card's menu; it is saved.
      const todayCard = page.getByTestId('my-work-card').filter({ has: cardLink(page, titles.today) });
      await page.getByRole('button', { name: `Change status of ${titles.today}` }).click();
      // Shown at once, saved after: the reload waits for the save's answer.
      const saved = page.waitForResponse(
        (r) => /^\/api\/tasks\/[^/]+\/status$/.test(new URL(r.url()).pathname) && r.request().method() === 'PATCH',
      );
      await page.getByRole('menuitemradio', { name: 'In Progress' }).click();
      await expect(todayCard).toContainText('In Progress');
      expect((await saved).status()).toBe(200);
      await page.reload();
      await expect(page).toHaveURL(/sort=created/);
      await expect(todayCard).toContainText('In Progress');

      // A failed save puts the status back and says so.
      await page.route('**/api/tasks/*/status', (route) =>
        route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":{"code":"internal","message":"x"}}' }),
      );
      await page.getByRole('button', { name: `Change status of ${titles.today}` }).click();
      await page.getByRole('menuitemradio', { name: 'Review' }).click();
      await expect(page.getByText('Failed to update task status')).toBeVisible();
      await expect(todayCard).toContainText('In Progress');
      await expect(todayCard).not.toContainText('Review');
      await page.unroute('**/api/tasks/*/status');

      // A teammate's work (where the palette sends a person): what my teams show of it.
      await page.goto(`/my-work?user=${mia.id}`);
      await expect(page.getByRole('heading', { level: 1, name: "Mia Member's work" })).toBeVisible();
      await expect(titlesIn(page, 'Today')).toHaveText([titles.delegated]);
      await page.getByRole('switch', { name: 'Created by Mia' }).click();
      await expect(titlesIn(page, 'Later')).toHaveText([titles.fromMia]);
      await page.goto('/my-work?user=00000000-0000-4000-8000-000000000000');
      await expect(page.getByRole('heading', { level: 1, name: 'Person not found' })).toBeVisible();

      // The card opens the task's page.
      await page.goto('/my-work');
      await cardLink(page, titles.overdue).click();
      await expect(page).toHaveURL(/\/tasks\/[0-9a-f-]{36}$/);
    });

    test('My work has no WCAG A/AA violations in light and dark, and fits 390 px', async ({ page }) => {
      await signIn(page, wendy);
      for (const colorScheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme });
        await page.goto('/my-work');
        await expect(titlesIn(page, 'Overdue')).toHaveText([titles.overdue]);
        expect(await axeViolations(page), colorScheme).toEqual([]);
      }
      await page.setViewportSize({ width: 390, height: 844 });
      await expect(cardLink(page, titles.overdue)).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    });

    test('Settings: Subscribe shows a feed URL that serves the tasks; Reset link retires the old one', async ({
      page,
      request,
    }) => {
      await signIn(page, wendy);
      await page.goto('/settings#calendar-feed');
      const section = page.getByRole('region', { name: 'Calendar feed' });
      await section.getByRole('button', { name: 'Subscribe', exact: true }).click();
      const field = section.getByRole('textbox', { name: 'Calendar address' });
      await expect(field).toHaveValue(/\/api\/calendar\/feeds\/cal_[\w-]{43}\/crewboard\.ics$/);
      const first = new URL(await field.inputValue()).pathname;

      const feed = await request.get(first);
      expect(feed.status()).toBe(200);
      expect(feed.headers()['content-type']).toBe('text/calendar; charset=utf-8');
      const text = (await feed.text()).replace(/\r\n[ \t]/g, '');
      expect(text).toContain(`SUMMARY:${titles.today}\r\n`);
      expect(text).toContain(`DTSTART;VALUE=DATE:${today.replaceAll('-', '')}\r\n`);
      expect(text).not.toContain(titles.noDate);

      await section.getByRole('button', { name: 'Reset link' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Reset link' }).click();
      await expect(page.getByRole('dialog')).toHaveCount(0);
      await expect(field).not.toHaveValue(new RegExp(first.replaceAll('/', '\\/')));
      const second = new URL(await field.inputValue()).pathname;
      expect((await request.get(first)).status()).toBe(404);
      expect((await request.get(second)).status()).toBe(200);
      expect(await axeViolations(page, '#calendar-feed')).toEqual([]);
    });
  });
