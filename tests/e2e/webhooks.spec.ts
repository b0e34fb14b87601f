import type { APIRequestContext, Page } from '@playwright/test';
import { Webhook } from 'standardwebhooks';
import type { ProjectDto } from '../../src/domain/schemas/project';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver';
import { apiAs, axeViolations, type E2EUser, expect, seedCrew, signIn, test } from './fixtures';

/**
 * Team settings → Webhooks (issue 26), against a real receiver on 127.0.0.1 (the e2e server runs with
 * WEBHOOKS_ALLOW_PRIVATE=true): add a hook, see its secret once, send a test event, read the delivery log, redeliver.
 * One team, one page, in order (serial). WEBHOOK_SHOTS=<dir> also saves screenshots there.
 */
test.describe.configure({ mode: 'serial' });

let page: Page;
let api: APIRequestContext;
let owner: E2EUser;
let teamId: string;
let receiver: WebhookReceiver;
let secret = '';
const shots = process.env.WEBHOOK_SHOTS;

const section = () => page.getByRole('region', { name: 'Webhooks' });
const hookUrl = () => `${receiver.origin}/e2e-hook`;

test.beforeAll(async ({ browser, playwright }, testInfo) => {
  const baseURL = testInfo.project.use.baseURL;
  receiver = await startWebhookReceiver();
  api = await playwright.request.newContext({ baseURL });
  const crew = await seedCrew(api);
  owner = crew.owner;
  teamId = crew.team.id;
  page = await (await browser.newContext({ baseURL, permissions: ['clipboard-read', 'clipboard-write'] })).newPage();
  await signIn(page, owner);
});

test.afterAll(async () => {
  await page?.context().close();
  await api?.dispose();
  await receiver?.close();
});

test('an owner adds a webhook and sees its signing secret once', async () => {
  await page.goto(`/teams/${teamId}/settings`);
  await expect(section().getByText('No webhooks yet.', { exact: false })).toBeVisible();
  await section().getByRole('button', { name: 'Add webhook' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add webhook' });
  // Submitting without events says what is missing.
  await dialog.getByLabel('Payload URL').fill(hookUrl());
  await dialog.getByLabel('Description').fill('Build server');
  await dialog.getByRole('button', { name: 'Add webhook' }).click();
  await expect(dialog.getByText('Choose at least one event')).toBeVisible();
  await dialog.getByRole('checkbox', { name: 'Select all events' }).check();
  await expect(dialog.getByRole('checkbox', { name: /Member left/ })).toBeChecked();
  await dialog.getByRole('checkbox', { name: /Member left/ }).uncheck();
  await expect(dialog.getByRole('checkbox', { name: 'Select all events' })).not.toBeChecked();
  if (shots) await page.screenshot({ path: `${shots}/form-light.png` });
  await dialog.getByRole('button', { name: 'Add webhook' }).click();

  const shown = page.getByRole('dialog', { name: 'Webhook added' });
  const field = shown.getByLabel('Signing secret');
  await expect(field).toHaveValue(/^whsec_[A-Za-z0-9+/]+=*$/);
  secret = await field.inputValue();
  await shown.getByRole('button', { name: 'Copy' }).click();
  await expect(page.getByText('Secret copied')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  if (shots) await page.screenshot({ path: `${shots}/secret-light.png` });
  await shown.getByRole('button', { name: 'Done' }).click();
  await expect(shown).toBeHidden();

  const item = section().getByRole('listitem').filter({ hasText: hookUrl() }).first();
  await expect(item.getByText('Active', { exact: true })).toBeVisible();
  await expect(item.getByText('Build server')).toBeVisible();
  await expect(item.getByText('Task moved')).toBeVisible();
  await expect(item.getByText('Member left')).toHaveCount(0);
  // Shown once: not on the page any more, nor after a reload.
  await expect(page.getByText(secret)).toHaveCount(0);
  await page.reload();
  await expect(section().getByText(hookUrl())).toBeVisible();
  expect(await page.content()).not.toContain(secret.slice(6));
});

test("'Send test event' reaches the receiver, signed; the log shows it with its status code; 'Redeliver' sends it again", async () => {
  const item = section().getByRole('listitem').filter({ hasText: hookUrl() }).first();
  await item.getByRole('button', { name: 'Send test event' }).click();
  await expect(page.getByText('Test event queued')).toBeVisible();
  await expect.poll(() => receiver.at('/e2e-hook').length).toBe(1);
  const ping = receiver.at('/e2e-hook')[0]!;
  expect(new Webhook(secret).verify(ping.body, ping.headers as Record<string, string>)).toMatchObject({ type: 'ping' });

  const log = item.getByRole('table', { name: 'Recent deliveries' });
  const pingRow = log.getByRole('row').filter({ hasText: 'ping' });
  await expect(pingRow).toHaveCount(1);
  await expect(pingRow.getByText('Delivered')).toBeVisible();
  await expect(pingRow.getByRole('cell', { name: '200', exact: true })).toBeVisible();
  await expect(pingRow.getByText(/\d+ ms/)).toBeVisible();

  // An event from the API shows up in the log beside it.
  const project = await apiAs<ProjectDto>(api, owner, 'post', '/api/projects', { name: 'Hooked', teamId });
  await apiAs(api, owner, 'post', '/api/tasks', { title: 'Ring the bell', projectId: project.id });
  await expect
    .poll(() => receiver.at('/e2e-hook').map((r) => JSON.parse(r.body).type))
    .toEqual(['ping', 'project.created', 'task.created']);
  // The open log looks again every few seconds.
  await expect(log.getByRole('row').filter({ hasText: 'task.created' }).getByText('Delivered')).toBeVisible({ timeout: 15_000 });

  await pingRow.getByRole('button', { name: /Redeliver/ }).click();
  await expect(page.getByText('Redelivery queued')).toBeVisible();
  await expect.poll(() => receiver.at('/e2e-hook').length).toBe(4);
  const again = receiver.at('/e2e-hook')[3]!;
  expect(again.body).toBe(ping.body);
  expect(again.headers['webhook-id']).not.toBe(ping.headers['webhook-id']);
  await expect(log.getByRole('row').filter({ hasText: 'ping' })).toHaveCount(2);
  await expect(log.getByRole('row').filter({ hasText: 'ping' }).getByText('Delivered')).toHaveCount(2);
  if (shots) await page.screenshot({ path: `${shots}/log-light.png`, fullPage: true });
});

test('pause and resume, edit, then delete with a confirmation', async () => {
  const item = section().getByRole('listitem').filter({ hasText: hookUrl() }).first();
  await item.getByRole('button', { name: 'Pause' }).click();
  await expect(item.getByText('Paused', { exact: true })).toBeVisible();
  await item.getByRole('button', { name: 'Resume' }).click();
  await expect(item.getByText('Active', { exact: true })).toBeVisible();

  await item.getByRole('button', { name: 'Edit' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit webhook' });
  await expect(dialog.getByLabel('Payload URL')).toHaveValue(hookUrl());
  await dialog.getByLabel('Description').fill('Deploy bot');
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(dialog).toBeHidden();
  await expect(item.getByText('Deploy bot')).toBeVisible();
});

for (const scheme of ['light', 'dark'] as const) {
  test(`the section has no axe violations (${scheme}), with the form and the log open`, async () => {
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto(`/teams/${teamId}/settings`);
    const item = section().getByRole('listitem').filter({ hasText: hookUrl() }).first();
    await item.getByRole('button', { name: 'Delivery log' }).click();
    await expect(item.getByRole('table', { name: 'Recent deliveries' })).toBeVisible();
    // The section (the page around it belongs to the team settings route).
    expect(await axeViolations(page, 'section[aria-labelledby="webhooks-heading"]')).toEqual([]);
    if (shots) await section().screenshot({ path: `${shots}/section-${scheme}.png` });
    await section().getByRole('button', { name: 'Add webhook' }).click();
    await expect(page.getByRole('dialog', { name: 'Add webhook' })).toBeVisible();
    expect(await axeViolations(page, '[role="dialog"]')).toEqual([]);
    if (shots) await page.screenshot({ path: `${shots}/form-${scheme}.png` });
    await page.keyboard.press('Escape');
  });
}

test('at 390 px the section and its log fit the screen width (the log scrolls inside)', async ({ browser }, testInfo) => {
  for (const scheme of ['light', 'dark'] as const) {
    const context = await browser.newContext({
      baseURL: testInfo.project.use.baseURL,
      viewport: { width: 390, height: 2000 },
      colorScheme: scheme,
    });
    const narrow = await context.newPage();
    await signIn(narrow, owner);
    await narrow.goto(`/teams/${teamId}/settings`);
    const region = narrow.getByRole('region', { name: 'Webhooks' });
    await region.getByRole('button', { name: 'Delivery log' }).click();
    await expect(region.getByRole('table', { name: 'Recent deliveries' })).toBeVisible();
    expect(await narrow.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    if (shots) await region.screenshot({ path: `${shots}/section-${scheme}-390.png` });
    await context.close();
  }
});

test('delete asks first, then the hook is gone', async () => {
  await page.emulateMedia({ colorScheme: 'light' });
  const item = section().getByRole('listitem').filter({ hasText: hookUrl() }).first();
  await item.getByRole('button', { name: 'Delete' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete this webhook?' });
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('region', { name: /Notifications/ }).getByText('Webhook deleted')).toBeVisible();
  await expect(section().getByText(hookUrl())).toHaveCount(0);
  await expect(section().getByText('No webhooks yet.', { exact: false })).toBeVisible();
});
