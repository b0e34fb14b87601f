import type { Locator, Page } from '@playwright/test';
import { SHARE_NOT_FOUND } from '../../src/domain/outside-texts';
import type { ShareSettingsDto } from '../../src/domain/schemas/outside';
import type { ProjectDto } from '../../src/domain/schemas/project';
import type { TaskDto } from '../../src/domain/schemas/task';
import { apiAs, auditBothThemes, axeViolations, expect, seedCrew, shotsDir, signIn, test } from './fixtures';

/**
 * Issue 40, the public board link: the owner turns it on in the board's 'Share' dialog and copies it; a fresh browser
 * (no session) opens it and sees the board, which follows a member's changes live; a reset stops the old link at once.
 * axe on the shared page in light and dark and at 390 px. Pictures into /tmp/shots-share outside CI (or E2E_SHOTS=1).
 */
const SHOTS = shotsDir('share');

async function shoot(page: Page, name: string) {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

const auditBoth = (page: Page, label: string) => auditBothThemes(page, label, SHOTS);

const column = (page: Page, name: string) => page.getByRole('region', { name, exact: true });
/** A card of the shared board (within a column, when given), found by its title. */
const sharedCard = (page: Page, title: string, within: Page | Locator = page) =>
  within.getByRole('article').filter({ has: page.getByRole('heading', { name: title, exact: true }) });

test('the owner shares the board; a stranger sees it live, without signing in; a reset stops the old link', async ({
  browser,
  request,
}, testInfo) => {
  const baseURL = testInfo.project.use.baseURL!;
  const { owner, mia, team } = await seedCrew(request);
  const project = await apiAs<ProjectDto>(request, owner, 'post', '/api/projects', { name: 'Launch', teamId: team.id });
  const press = await apiAs<TaskDto>(request, owner, 'post', '/api/tasks', {
    title: 'Write the press release',
    projectId: project.id,
    priority: 'high',
    dueDate: '2026-12-24',
    tags: ['press', 'launch'],
    description: 'Draft **two** versions:\n\n- short\n- long',
    assigneeId: mia.id,
  });
  await apiAs(request, owner, 'post', `/api/tasks/${press.id}/checklist`, { title: 'Draft' });
  await apiAs(request, owner, 'post', '/api/tasks', { title: 'Quote the CEO', projectId: project.id, parentId: press.id });
  const venue = await apiAs<TaskDto>(request, owner, 'post', '/api/tasks', { title: 'Book the venue', projectId: project.id });

  // The owner, on the project's board: 'Share' opens the dialog; the link is off until turned on.
  const ownerContext = await browser.newContext({ baseURL, permissions: ['clipboard-read', 'clipboard-write'] });
  const page = await ownerContext.newPage();
  await signIn(page, owner);
  // Reached as a person does: the projects page, then the project's card (its board is /tasks?project=<id>).
  await page.goto('/projects');
  await page.getByRole('link', { name: 'Launch', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/tasks\\?project=${project.id}$`));
  const shareButton = page.getByRole('button', { name: 'Share', exact: true });
  await expect(shareButton).toBeVisible();
  await shoot(page, 'board-header');
  // By keyboard: focus it and press Enter.
  await shareButton.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Share Launch' });
  const publicLink = dialog.getByRole('switch', { name: 'Public link' });
  await expect(publicLink).toHaveAttribute('aria-checked', 'false');
  await expect(dialog.getByLabel('Link to the shared board')).toHaveCount(0);
  await publicLink.click();
  await expect(page.getByText('The public link is on')).toBeVisible();
  await expect(publicLink).toHaveAttribute('aria-checked', 'true');
  const linkField = dialog.getByLabel('Link to the shared board');
  const url = await linkField.inputValue();
  expect(url).toMatch(/\/share\/[A-Za-z0-9_-]{32}$/);
  await dialog.getByRole('switch', { name: 'Show people' }).click();
  await expect(dialog.getByRole('switch', { name: 'Show people' })).toHaveAttribute('aria-checked', 'true');
  await dialog.getByRole('switch', { name: 'Show descriptions' }).click();
  await expect(dialog.getByRole('switch', { name: 'Show descriptions' })).toHaveAttribute('aria-checked', 'true');
  await dialog.getByRole('button', { name: 'Copy link' }).click();
  await expect(page.getByText('Link copied')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
  for (const colorScheme of ['dark', 'light'] as const) {
    await page.emulateMedia({ colorScheme });
    expect.soft(await axeViolations(page, '[role="dialog"]'), `axe violations on the share dialog (${colorScheme})`).toEqual([]);
    await shoot(page, `dialog-${colorScheme}`);
  }
  const path = new URL(url).pathname;

  // A fresh browser, never signed in: the board, read-only, with no sign-in in the way.
  const strangerContext = await browser.newContext({ baseURL });
  const shared = await strangerContext.newPage();
  const response = await shared.goto(path);
  expect(response?.headers()['x-robots-tag']).toBe('noindex');
  expect(response?.headers()['referrer-policy']).toBe('no-referrer');
  await expect(shared.getByRole('heading', { name: 'Launch', level: 1 })).toBeVisible();
  await expect(shared).toHaveURL(new RegExp(`${path}$`));
  await expect(shared.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
  const pressCard = sharedCard(shared, 'Write the press release');
  // Top-level cards only: the sub-task is counted on its parent, not shown.
  await expect(column(shared, 'To Do').getByRole('article')).toHaveCount(2);
  await expect(pressCard).toContainText('High');
  await expect(pressCard).toContainText('Dec 24');
  await expect(pressCard).toContainText('press');
  await expect(pressCard).toContainText('Mia Member');
  await expect(pressCard).toContainText('Checklist: 0/1');
  await expect(pressCard).toContainText('Sub-tasks: 0/1');
  await expect(pressCard.getByRole('listitem').filter({ hasText: 'short' })).toBeVisible();
  await expect(pressCard.getByText('two', { exact: true })).toHaveJSProperty('tagName', 'STRONG');
  await expect(shared.getByText(mia.email)).toHaveCount(0);
  await auditBoth(shared, 'board');

  // A member's changes reach the open page: a new card, then a card moved to another column.
  await apiAs(request, mia, 'post', '/api/tasks', { title: 'Order the banners', projectId: project.id });
  await expect(sharedCard(shared, 'Order the banners')).toBeVisible();
  await apiAs(request, mia, 'patch', `/api/tasks/${venue.id}/status`, { status: 'in_progress' });
  await expect(sharedCard(shared, 'Book the venue', column(shared, 'In Progress'))).toBeVisible();
  await expect(column(shared, 'To Do').getByRole('article')).toHaveCount(2);
  await expect(column(shared, 'In Progress').getByRole('heading', { level: 2 })).toContainText('1');

  // 390 px wide: the columns stack, nothing wider than the screen.
  await shared.setViewportSize({ width: 390, height: 844 });
  expect(await shared.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await auditBoth(shared, 'board-390');
  await shared.setViewportSize({ width: 1280, height: 800 });

  // Reset (confirmed): a new link; the open page says the old one is gone, at once, and so does opening it again.
  await dialog.getByRole('button', { name: 'Reset link' }).click();
  const confirm = page.getByRole('dialog', { name: 'Reset the public link?' });
  await confirm.getByRole('button', { name: 'Reset link' }).click();
  await expect(page.getByText('A new link was made')).toBeVisible();
  await expect(linkField).not.toHaveValue(url);
  const newUrl = await linkField.inputValue();
  expect(newUrl).toMatch(/\/share\/[A-Za-z0-9_-]{32}$/);
  await expect(shared.getByRole('heading', { name: SHARE_NOT_FOUND, level: 1 })).toBeVisible();
  await shared.goto(path);
  await expect(shared.getByRole('heading', { name: SHARE_NOT_FOUND, level: 1 })).toBeVisible();
  await auditBoth(shared, 'gone');
  // The new one works.
  await shared.goto(new URL(newUrl).pathname);
  await expect(shared.getByRole('heading', { name: 'Launch', level: 1 })).toBeVisible();

  // The settings page has the same 'Share'; turning it off there stops the link.
  await page.keyboard.press('Escape');
  await page.goto(`/projects/${project.id}/settings`);
  const section = page.getByRole('region', { name: 'Share' });
  await expect(section.getByText('On: anyone with the link can see this board.')).toBeVisible();
  await section.getByRole('button', { name: 'Share', exact: true }).click();
  await page.getByRole('dialog', { name: 'Share Launch' }).getByRole('switch', { name: 'Public link' }).click();
  await expect(page.getByText('The public link is off', { exact: true })).toBeVisible();
  await expect(shared.getByRole('heading', { name: SHARE_NOT_FOUND, level: 1 })).toBeVisible();
  const settings = await apiAs<ShareSettingsDto>(request, owner, 'get', `/api/projects/${project.id}/share`);
  expect(settings).toEqual({ enabled: false, showPeople: true, showDescriptions: true, url: null });
  await page.keyboard.press('Escape');
  await expect(section.getByText('Off: nobody outside the team can see this board.')).toBeVisible();
  // Focus back on the button that opened the dialog.
  await expect(section.getByRole('button', { name: 'Share', exact: true })).toBeFocused();
  await shoot(page, 'settings-light');

  await ownerContext.close();
  await strangerContext.close();
});

test('a plain member has no Share on the settings page, and the API refuses them', async ({ browser, request }, testInfo) => {
  const { owner, mia, team } = await seedCrew(request);
  const project = await apiAs<ProjectDto>(request, owner, 'post', '/api/projects', { name: 'Quiet', teamId: team.id });
  const context = await browser.newContext({ baseURL: testInfo.project.use.baseURL });
  const page = await context.newPage();
  await signIn(page, mia);
  await page.goto(`/projects/${project.id}/settings`);
  await expect(page.getByRole('heading', { name: 'Workflow', level: 2 })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Share', level: 2 })).toHaveCount(0);
  const res = await request.put(`/api/projects/${project.id}/share`, {
    data: { enabled: true },
    headers: { authorization: `Bearer ${mia.accessToken}` },
  });
  expect(res.status()).toBe(403);
  await context.close();
});
