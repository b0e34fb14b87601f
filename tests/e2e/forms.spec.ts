import type { Page } from '@playwright/test';
import { OUTSIDE_TEXTS, fieldRequired } from '../../src/domain/outside-texts';
import type { FormListDto } from '../../src/domain/schemas/outside';
import type { ProjectDto } from '../../src/domain/schemas/project';
import type { TaskListDto } from '../../src/domain/schemas/task';
import { apiAs, auditBothThemes, axeViolations, card, expect, seedCrew, shotsDir, signIn, test } from './fixtures';

/**
 * Request forms (issue 40): the owner makes one in the project's settings, an anonymous visitor (a fresh browser
 * context: no session) fills it, and the owner finds the task on the board with 'Submitted via …' in its history; a
 * closed form says so. axe on the public form in light and dark and at 390 px. Pictures outside CI, or E2E_SHOTS=1.
 */
const SHOTS = shotsDir('forms');

async function shoot(page: Page, name: string) {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}
const auditBoth = (page: Page, label: string) => auditBothThemes(page, label, SHOTS);

test('the owner makes a form, an anonymous visitor sends a request, the owner sees the task; closed forms say so; axe', async ({
  page,
  request,
  browser,
}) => {
  const { owner, mia, team } = await seedCrew(request);
  const project = await apiAs<ProjectDto>(request, owner, 'post', '/api/projects', { name: 'Helpdesk', teamId: team.id });
  // Two of the team's custom fields the form can ask: a select and a multi-select.
  const color = '#0ea5e9';
  for (const [name, type] of [
    ['Area', 'select'],
    ['Devices', 'multi_select'],
  ] as const)
    await apiAs(request, owner, 'post', `/api/teams/${team.id}/fields`, {
      name,
      type,
      options: [
        { name: name === 'Area' ? 'Billing' : 'Phone', color },
        { name: name === 'Area' ? 'Printing' : 'Laptop', color },
      ],
    });

  // The owner: Settings → Forms → New form.
  await signIn(page, owner);
  await page.goto(`/projects/${project.id}/settings`);
  const section = page.getByRole('region', { name: OUTSIDE_TEXTS.forms });
  await expect(section.getByText('No forms yet.')).toBeVisible();
  await section.getByRole('button', { name: OUTSIDE_TEXTS.newForm }).click();
  const dialog = page.getByRole('dialog', { name: OUTSIDE_TEXTS.newForm });
  await dialog.getByLabel('Name', { exact: true }).fill('Bug reports');
  await dialog.getByLabel('Intro').fill('Tell us what broke. We answer within a day.');
  await dialog.getByLabel('Title: help text').fill('One line: what broke?');
  await dialog.getByRole('checkbox', { name: 'Priority', exact: true }).check();
  await dialog.getByRole('checkbox', { name: 'Area', exact: true }).check();
  await dialog.getByRole('checkbox', { name: 'Devices', exact: true }).check();
  await dialog.getByRole('checkbox', { name: 'Requester’s email is required' }).check();
  await dialog.getByLabel('Status of new requests').selectOption({ label: 'In Progress' });
  await dialog.getByLabel('Assign new requests to').selectOption({ label: 'Mia Member' });
  await shoot(page, 'editor');
  expect.soft(await axeViolations(page), 'axe violations on the editor').toEqual([]);
  await dialog.getByRole('button', { name: 'Create form' }).click();
  await expect(dialog).toBeHidden();
  const item = section.getByRole('listitem').filter({ hasText: 'Bug reports' });
  await expect(item.getByText('Open')).toBeVisible();
  await expect(item.getByRole('button', { name: 'Copy link of Bug reports' })).toBeVisible();
  await expect(item.getByRole('button', { name: 'Reset link of Bug reports' })).toBeVisible();
  await auditBoth(page, 'settings');

  const [form] = (await apiAs<FormListDto>(request, owner, 'get', `/api/projects/${project.id}/forms`)).forms;
  expect(form).toMatchObject({ name: 'Bug reports', status: 'in_progress', assigneeId: mia.id, open: true });
  const path = new URL(form!.url).pathname;

  // A visitor without an account: a fresh context, no session, no redirect to sign-in.
  const visitor = await browser.newContext();
  const anon = await visitor.newPage();
  await anon.goto(path);
  await expect(anon.getByRole('heading', { name: 'Bug reports', level: 1 })).toBeVisible();
  await expect(anon).toHaveURL(new RegExp(`${path}$`));
  await expect(anon.getByText('Tell us what broke.')).toBeVisible();
  const title = anon.getByLabel('Title');
  await expect(title).toHaveAccessibleDescription('One line: what broke?');
  // The honeypot is there for bots, never for people: off-screen, out of the tab order.
  const honeypot = anon.locator('input[name="website"]');
  await expect(honeypot).toHaveAttribute('tabindex', '-1');
  await expect(honeypot).not.toBeInViewport();
  await auditBoth(anon, 'form');
  await anon.setViewportSize({ width: 390, height: 844 });
  expect.soft(await axeViolations(anon), 'axe violations on the form at 390 px').toEqual([]);
  await shoot(anon, 'form-390');
  await anon.setViewportSize({ width: 1280, height: 800 });

  // Sent empty: the server's errors beside their fields, the first one focused.
  await anon.getByRole('button', { name: 'Send request' }).click();
  await expect(anon.getByText(fieldRequired('Title'))).toBeVisible();
  await expect(anon.getByText(fieldRequired('Your email'))).toBeVisible();
  await expect(title).toBeFocused();
  await expect(title).toHaveAttribute('aria-invalid', 'true');
  await shoot(anon, 'form-errors');
  expect.soft(await axeViolations(anon), 'axe violations on the form with errors').toEqual([]);

  await title.fill('The printer is on fire');
  await anon.getByLabel('Description').fill('Since **Monday**.');
  await anon.getByLabel('Your email').fill('jane@example.com');
  await anon.getByLabel('Priority').selectOption({ label: 'Urgent' });
  await anon.getByLabel('Area').selectOption({ label: 'Printing' });
  await anon.getByRole('group', { name: 'Devices' }).getByLabel('Laptop').check();
  await anon.getByRole('button', { name: 'Send request' }).click();
  await expect(anon.getByText(OUTSIDE_TEXTS.submitted)).toBeVisible();
  await auditBoth(anon, 'thanks');

  // The owner sees it on the board, in In Progress, and its history says where it came from.
  const tasks = await apiAs<TaskListDto>(request, owner, 'get', `/api/tasks?projectId=${project.id}`);
  const task = tasks.tasks.find((t) => t.title === 'The printer is on fire')!;
  expect(task).toMatchObject({ status: 'in_progress', priority: 'urgent', assigneeId: mia.id });
  expect(Object.keys(task.fields)).toHaveLength(2);
  await page.goto(`/tasks?project=${project.id}`);
  await expect(card(page, 'The printer is on fire')).toBeVisible();
  await page.goto(`/tasks/${task.id}`);
  const submitted = page.getByText('Submitted via Bug reports by jane@example.com');
  await expect(submitted).toBeVisible();
  await submitted.scrollIntoViewIfNeeded();
  await shoot(page, 'task-history');

  // Closed: the page says so, and so does a page opened before.
  await apiAs(request, owner, 'patch', `/api/forms/${form!.id}`, { open: false });
  await anon.goto(path);
  await expect(anon.getByText(OUTSIDE_TEXTS.formClosed)).toBeVisible();
  await auditBoth(anon, 'closed');
  // An unknown link.
  await anon.goto('/forms/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa');
  await expect(anon.getByText('This form does not exist.')).toBeVisible();
  await visitor.close();
});

test('a plain member sees the forms but none of the controls', async ({ page, request }) => {
  const { owner, mia, team } = await seedCrew(request);
  const project = await apiAs<ProjectDto>(request, owner, 'post', '/api/projects', { name: 'Intake', teamId: team.id });
  await apiAs(request, owner, 'post', `/api/projects/${project.id}/forms`, {
    name: 'Questions',
    fields: [{ key: 'title', label: 'Question' }],
  });
  await signIn(page, mia);
  await page.goto(`/projects/${project.id}/settings`);
  const section = page.getByRole('region', { name: OUTSIDE_TEXTS.forms });
  const item = section.getByRole('listitem').filter({ hasText: 'Questions' });
  await expect(item.getByRole('button', { name: 'Copy link of Questions' })).toBeVisible();
  await expect(section.getByRole('button', { name: OUTSIDE_TEXTS.newForm })).toHaveCount(0);
  await expect(item.getByRole('button', { name: 'Edit Questions' })).toHaveCount(0);
  await expect(item.getByRole('button', { name: 'Delete Questions' })).toHaveCount(0);

  // Live: the owner's changes elsewhere reach the open page (project.updated), without a reload.
  const made = await apiAs<FormListDto['forms'][number]>(request, owner, 'post', `/api/projects/${project.id}/forms`, {
    name: 'Feedback',
    fields: [{ key: 'title', label: 'Feedback' }],
  });
  const live = section.getByRole('listitem').filter({ hasText: 'Feedback' });
  await expect(live.getByText('Open')).toBeVisible();
  await apiAs(request, owner, 'patch', `/api/forms/${made.id}`, { open: false });
  await expect(live.getByText('Closed')).toBeVisible();
  await apiAs(request, owner, 'delete', `/api/forms/${made.id}`);
  await expect(live).toHaveCount(0);
});
