import { mkdirSync } from 'node:fs';
import type { APIRequestContext, Page } from '@playwright/test';
import { axeViolations, createUser, type E2EUser, expect, signIn, test } from './fixtures';
import { checkAtPhoneWidth } from './phone-width';

/**
 * Settings → API tokens (issue 26): one user, one page for the file (serial). A token made in the UI is used over
 * HTTP as a script would, revoked in the UI, and refused on its next request.
 */
test.describe.configure({ mode: 'serial' });

const SHOTS = process.env.SHOTS_DIR ?? '/tmp/shots-tokens';

let page: Page;
let api: APIRequestContext;
let user: E2EUser;

const section = () => page.locator('#api-tokens');
const tokenList = () => section().getByRole('list', { name: 'Your tokens' });
const row = (name: string) => tokenList().getByRole('listitem').filter({ hasText: name });
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function openTokens() {
  await page.goto('/settings#api-tokens');
  await expect(page.getByRole('heading', { name: 'API tokens', level: 2 })).toBeVisible();
  await expect(page.locator('main .animate-pulse')).toHaveCount(0);
}

/** A token made through the form; its secret, read from the one place it is shown. */
async function createInUi(name: string, expiry: string, scope: string): Promise<string> {
  const form = section().getByRole('form', { name: 'Create a token' });
  await form.getByLabel('Name').fill(name);
  await form.getByLabel('Expiry').selectOption({ label: expiry });
  await form.getByLabel('Scope').selectOption({ label: scope });
  await form.getByRole('button', { name: 'Create token' }).click();
  const shown = section().getByRole('region', { name: 'Your new token' });
  await expect(shown).toBeVisible();
  await expect(shown.getByText('it is shown only once')).toBeVisible();
  const field = shown.getByRole('textbox', { name: `New API token: ${name}` });
  await expect(field).toBeFocused();
  const token = await field.inputValue();
  expect(token).toMatch(/^cb_[A-Za-z0-9_-]{43}$/);
  return token;
}

test.beforeAll(async ({ browser, playwright }, testInfo) => {
  mkdirSync(SHOTS, { recursive: true });
  const baseURL = testInfo.project.use.baseURL;
  api = await playwright.request.newContext({ baseURL });
  user = await createUser(api, { fullName: 'Tara Tokens' });
  const context = await browser.newContext({ baseURL, permissions: ['clipboard-read', 'clipboard-write'] });
  page = await context.newPage();
  await signIn(page, user);
});

test.afterAll(async () => {
  await page?.context().close();
  await api?.dispose();
});

test('create a token, shown once; use it; revoke it in the UI; its next request is refused', async () => {
  await openTokens();
  await expect(section().getByText('No API tokens yet.')).toBeVisible();

  // A name is required: the field says so and nothing is made.
  await section().getByRole('button', { name: 'Create token' }).click();
  await expect(section().getByText('Name is required')).toBeVisible();
  await expect(section().getByLabel('Name')).toHaveAttribute('aria-invalid', 'true');

  const token = await createInUi('CI reader', '30 days', 'Read-only');
  await expect(page.getByText('Token created')).toBeVisible();

  // Copy puts the secret on the clipboard.
  await section().getByRole('region', { name: 'Your new token' }).getByRole('button', { name: 'Copy' }).click();
  await expect(page.getByText('Token copied')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);

  // Listed with its scope, its dates, and no secret.
  const item = row('CI reader');
  await expect(item).toContainText('Read-only');
  await expect(item).toContainText('Never used');
  await expect(item).toContainText(/Created \w{3} \d{2}, \d{4}/);
  await expect(item).toContainText(/Expires \w{3} \d{2}, \d{4}/);
  await expect(item).toContainText(`${token.slice(0, 10)}…`);
  await expect(item).not.toContainText(token);

  // Shown once: after 'Done' (or a reload) the secret is nowhere on the page.
  await section().getByRole('button', { name: 'Done' }).click();
  await expect(section().getByRole('region', { name: 'Your new token' })).toHaveCount(0);
  await page.reload();
  await expect(row('CI reader')).toBeVisible();
  expect(await page.content()).not.toContain(token);

  // The script's side: the token reads tasks, may not write, and the page shows its last use.
  const read = await api.get('/api/tasks', { headers: bearer(token) });
  expect(read.status(), await read.text()).toBe(200);
  const write = await api.post('/api/tasks', { headers: bearer(token), data: { title: 'Nope', projectId: crypto.randomUUID() } });
  expect(write.status()).toBe(403);
  await page.reload();
  await expect(row('CI reader')).toContainText('Last used: Just now');

  // Revoke, confirmed in a dialog (Cancel first changes nothing).
  await row('CI reader').getByRole('button', { name: 'Revoke' }).click();
  const dialog = page.getByRole('dialog', { name: 'Revoke the token “CI reader”?' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  expect((await api.get('/api/tasks', { headers: bearer(token) })).status()).toBe(200);

  await row('CI reader').getByRole('button', { name: 'Revoke' }).click();
  await dialog.getByRole('button', { name: 'Revoke' }).click();
  await expect(page.getByText('Token revoked')).toBeVisible();
  await expect(section().getByText('No API tokens yet.')).toBeVisible();

  const after = await api.get('/api/tasks', { headers: bearer(token) });
  expect(after.status()).toBe(401);
});

test('a read-and-write token that never expires is listed as such', async () => {
  await openTokens();
  const token = await createInUi('Deploy bot', 'Never', 'Read and write');
  await expect(row('Deploy bot')).toContainText('Read and write');
  await expect(row('Deploy bot')).toContainText('Never expires');
  // It still cannot reach account or token management.
  const res = await api.get('/api/me/api-tokens', { headers: bearer(token) });
  expect(res.status()).toBe(403);
});

test('axe: no violations in light and dark (the new token shown, the list, the dialog)', async () => {
  await openTokens();
  await createInUi('Axe check', '365 days', 'Read-only');
  await expect(page.locator('[data-sonner-toast]')).toHaveCount(0, { timeout: 15_000 });
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    expect(await axeViolations(page, '#api-tokens'), `API tokens (${scheme})`).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/api-tokens-${scheme}.png`, fullPage: true });
    await row('Axe check').getByRole('button', { name: 'Revoke' }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke the token “Axe check”?' });
    await expect(dialog).toBeVisible();
    expect(await axeViolations(page), `revoke dialog (${scheme})`).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/api-tokens-dialog-${scheme}.png` });
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
  }
  await page.emulateMedia({ colorScheme: 'light' });
});

test('390 px: the section fits the screen, axe clean in light and dark', async ({ browser }, testInfo) => {
  await checkAtPhoneWidth(browser, testInfo, {
    section: '#api-tokens',
    label: 'API tokens',
    prepare: async (small) => {
      await signIn(small, user);
      await small.goto('/settings#api-tokens');
      const mine = small.locator('#api-tokens');
      await expect(mine.getByRole('list', { name: 'Your tokens' }).getByRole('listitem').first()).toBeVisible();
      await mine.getByLabel('Name').fill('Phone');
      await mine.getByRole('button', { name: 'Create token' }).click();
      await expect(mine.getByRole('region', { name: 'Your new token' })).toBeVisible();
    },
    picture: (small, scheme) => small.screenshot({ path: `${SHOTS}/api-tokens-390-${scheme}.png`, fullPage: true }),
  });
});

test('keyboard: the form, the list and the dialog are reachable and the dialog returns focus', async () => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await openTokens();
  // The form in order: Name, Expiry, Scope, Create token.
  const form = section().getByRole('form', { name: 'Create a token' });
  await form.getByLabel('Name').focus();
  await page.keyboard.press('Tab');
  await expect(form.getByLabel('Expiry')).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(form.getByLabel('Scope')).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(form.getByRole('button', { name: 'Create token' })).toBeFocused();

  const revoke = row('Axe check').getByRole('button', { name: 'Revoke' });
  await revoke.focus();
  await expect(revoke).toBeFocused();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Revoke the token “Axe check”?' });
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(revoke).toBeFocused();
});
