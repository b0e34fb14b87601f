import type { Page } from '@playwright/test';
import type { ProjectDto } from '../../src/domain/schemas/project';
import type { TaskDto } from '../../src/domain/schemas/task';
import { apiAs, auditBothThemes, expect, seedCrew, shotsDir, signIn, test } from './fixtures';

/**
 * Issue 40, tasks by email: on the project's settings, the owner turns the intake address on, sees it, copies it and
 * resets it (a new address; the old one is dead). A plain member sees no controls. axe in light and dark and at 390 px.
 * Pictures into /tmp/shots-intake outside CI (or E2E_SHOTS=1). The e2e server's INBOUND_MAIL_DOMAIN is
 * in.crewboard.test (scripts/e2e-server.mjs).
 */
const SHOTS = shotsDir('intake');
const ADDRESS = /^help-desk\+[a-z2-7]{32}@in\.crewboard\.test$/;

const section = (page: Page) => page.getByRole('region', { name: 'Email to this project' });

test('the owner turns the intake address on, copies it and resets it; a member sees no controls', async ({
  browser,
  request,
}, testInfo) => {
  const baseURL = testInfo.project.use.baseURL!;
  const { owner, mia, team } = await seedCrew(request);
  const project = await apiAs<ProjectDto>(request, owner, 'post', '/api/projects', { name: 'Help Desk', teamId: team.id });

  const context = await browser.newContext({ baseURL, permissions: ['clipboard-read', 'clipboard-write'] });
  const page = await context.newPage();
  await signIn(page, owner);
  await page.goto(`/projects/${project.id}/settings`);
  const intake = section(page);
  await expect(intake.getByRole('heading', { name: 'Email to this project' })).toBeVisible();
  const toggle = intake.getByRole('switch', { name: 'Intake address' });
  await expect(toggle).toHaveAttribute('aria-checked', 'false');
  await expect(intake.getByLabel('Address of this project')).toHaveCount(0);
  await intake.scrollIntoViewIfNeeded();
  await auditBothThemes(page, 'settings-off', SHOTS);

  await toggle.click();
  await expect(page.getByText('The intake address is on')).toBeVisible();
  await expect(toggle).toHaveAttribute('aria-checked', 'true');
  const field = intake.getByLabel('Address of this project');
  const first = await field.inputValue();
  expect(first).toMatch(ADDRESS);
  await intake.getByRole('button', { name: 'Copy', exact: true }).click();
  await expect(page.getByText('Address copied')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(first);
  await auditBothThemes(page, 'settings-on', SHOTS);

  // Reset, confirmed: a new address.
  await intake.getByRole('button', { name: 'Reset', exact: true }).click();
  const confirm = page.getByRole('dialog', { name: 'Reset the intake address?' });
  await expect(confirm).toBeVisible();
  await auditBothThemes(page, 'reset-confirm', SHOTS);
  await confirm.getByRole('button', { name: 'Reset', exact: true }).click();
  await expect(page.getByText('A new address was made')).toBeVisible();
  await expect(field).not.toHaveValue(first);
  const second = await field.inputValue();
  expect(second).toMatch(ADDRESS);
  // The server agrees: the address it shows is the new one.
  const now = await apiAs<{ address: string }>(request, owner, 'get', `/api/projects/${project.id}/intake`);
  expect(now.address).toBe(second);

  // At 390 px wide: the field and its buttons stack, nothing overflows.
  await page.setViewportSize({ width: 390, height: 844 });
  // Loaded at that width, as a phone does (the sidebar is then closed).
  await page.reload();
  await expect(field).toHaveValue(second);
  await intake.scrollIntoViewIfNeeded();
  await expect(field).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await auditBothThemes(page, 'settings-390', SHOTS);

  // Turned off: the address is gone.
  await page.setViewportSize({ width: 1280, height: 900 });
  await toggle.click();
  await expect(page.getByText('The intake address is off')).toBeVisible();
  await expect(intake.getByLabel('Address of this project')).toHaveCount(0);

  // A mail's text reaches the description as written (a plain-text body is not converted): a javascript: link in it,
  // Markdown or HTML, is shown as text, never as a link.
  const mailed = await apiAs<TaskDto>(request, owner, 'post', '/api/tasks', {
    title: 'Mailed with a trap',
    projectId: project.id,
    description:
      'See [Open me](javascript:alert(document.domain)) or <a href="javascript:alert(1)">Raw link</a> or [Fine](https://example.org/).',
  });
  await page.goto(`/tasks/${mailed.id}`);
  const detail = page.getByRole('dialog', { name: 'Edit Task' });
  await expect(detail.getByRole('link', { name: 'Fine' })).toBeVisible();
  await expect(detail.getByText(/See Open me or/)).toBeVisible();
  await expect(detail.getByRole('link', { name: 'Open me' })).toHaveCount(0);
  await expect(detail.getByRole('link', { name: 'Raw link' })).toHaveCount(0);
  await expect(page.locator('a[href^="javascript:" i]')).toHaveCount(0);
  await context.close();

  // A plain member: no section at all (the server would answer 403).
  const memberContext = await browser.newContext({ baseURL });
  const memberPage = await memberContext.newPage();
  await signIn(memberPage, mia);
  await memberPage.goto(`/projects/${project.id}/settings`);
  await expect(memberPage.getByRole('heading', { name: /settings$/ })).toBeVisible();
  await expect(section(memberPage)).toHaveCount(0);
  await memberContext.close();
});
