import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Page } from '@playwright/test';
import { axeViolations, createUser, type E2EUser, expect, signIn, test } from './fixtures';
import { checkAtPhoneWidth } from './phone-width';

/**
 * The admin panel's 'SCIM tokens' section (issue 41): a super admin creates a token in the UI and sees its secret once,
 * the identity provider can use it at /scim/v2, revoking it stops it; axe in both themes and at 390 px.
 */
const port = process.env.E2E_PORT || '3100';
const SHOTS = process.env.E2E_SHOTS_DIR ?? '/tmp/c-shots';
mkdirSync(SHOTS, { recursive: true });

test.describe.configure({ mode: 'serial' });

let admin: E2EUser;

test.beforeAll(async ({ request }) => {
  admin = await createUser(request, { fullName: 'Sam Scim' });
  // The real CLI sets the role, through the running server's socket in its DATA_DIR.
  execFileSync(process.execPath, ['--import', 'tsx', 'src/server/cli.ts', 'set-role', admin.email, 'super_admin'], {
    env: { ...process.env, DATA_DIR: resolve('.e2e', port, 'data'), DATABASE_URL: '' },
    encoding: 'utf8',
  });
});

const section = (page: Page) => page.locator('#scim-tokens');

async function openAdmin(page: Page) {
  await signIn(page, admin);
  await page.goto('/admin');
  await expect(section(page).getByRole('heading', { name: 'SCIM tokens' })).toBeVisible();
}

async function createInUi(page: Page, name: string): Promise<string> {
  await section(page).getByLabel('Token name').fill(name);
  await section(page).getByRole('button', { name: 'Create token' }).click();
  const shown = section(page).getByRole('region', { name: 'New SCIM token' });
  await expect(shown).toBeVisible();
  const token = await shown.getByRole('textbox').inputValue();
  expect(token).toMatch(/^scim_[A-Za-z0-9_-]{43}$/);
  return token;
}

test('a super admin creates a SCIM token, sees it once, the provider uses it, and revoking it stops it', async ({
  page,
  request,
}) => {
  await openAdmin(page);
  await expect(section(page).getByText('No SCIM tokens yet.')).toBeVisible();
  const token = await createInUi(page, 'Okta');
  await expect(page.getByText('SCIM token created')).toBeVisible();
  const scim = () => request.get('/scim/v2/ServiceProviderConfig', { headers: { authorization: `Bearer ${token}` } });
  const ok = await scim();
  expect(ok.status()).toBe(200);
  expect(ok.headers()['content-type']).toContain('application/scim+json');

  const row = section(page).getByRole('list', { name: 'Active SCIM tokens' }).getByRole('listitem').filter({ hasText: 'Okta' });
  await expect(row).toContainText(token.slice(0, 11));
  // Once: after 'Done', and after a reload, the secret is nowhere on the page.
  await section(page).getByRole('button', { name: 'Done' }).click();
  await expect(section(page).getByRole('region', { name: 'New SCIM token' })).toHaveCount(0);
  await page.reload();
  await expect(row).toBeVisible();
  expect(await page.content()).not.toContain(token);

  await row.getByRole('button', { name: 'Revoke' }).click();
  const dialog = page.getByRole('dialog', { name: 'Revoke the SCIM token “Okta”?' });
  await dialog.getByRole('button', { name: 'Revoke' }).click();
  await expect(page.getByText('SCIM token revoked')).toBeVisible();
  await expect(section(page).getByText('No SCIM tokens yet.')).toBeVisible();
  expect((await scim()).status()).toBe(401);
});

test('axe: no violations in light and dark (the new token shown, the list, the dialog)', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await openAdmin(page);
  await createInUi(page, 'Axe check');
  await expect(page.locator('[data-sonner-toast]')).toHaveCount(0, { timeout: 15_000 });
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    expect(await axeViolations(page, '#scim-tokens'), `SCIM tokens (${scheme})`).toEqual([]);
    await section(page).screenshot({ path: `${SHOTS}/scim-tokens-${scheme}.png` });
    const row = section(page).getByRole('listitem').filter({ hasText: 'Axe check' });
    await row.getByRole('button', { name: 'Revoke' }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke the SCIM token “Axe check”?' });
    await expect(dialog).toBeVisible();
    expect(await axeViolations(page), `revoke dialog (${scheme})`).toEqual([]);
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
  }
  await page.emulateMedia({ colorScheme: 'light' });
});

test('390 px: the section fits the screen, axe clean in light and dark', async ({ browser }, testInfo) => {
  await checkAtPhoneWidth(browser, testInfo, {
    section: '#scim-tokens',
    label: 'SCIM tokens',
    prepare: async (small, scheme) => {
      await openAdmin(small);
      await createInUi(small, `Phone ${scheme}`);
    },
    picture: (small, scheme) => section(small).screenshot({ path: `${SHOTS}/scim-tokens-390-${scheme}.png` }),
  });
});
