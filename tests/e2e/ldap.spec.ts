import { MSG } from '../../src/domain/messages';
import { SERVICE_DN, SERVICE_PASSWORD, slapdMissing, startSlapd, SUFFIX, type TestLdapServer } from '../helpers/slapd';
import { auditBothThemes, axeViolations, expect, shotsDir, test } from './fixtures';
import { type OwnServer, startOwnServer } from './own-server';

// This spec runs against its own server, configured for a real OpenLDAP (Debian's slapd) on 127.0.0.1 over StartTLS.
const PORT = 3243;
const missing = slapdMissing();

let slapd: TestLdapServer;
let server: OwnServer;

test.describe.configure({ mode: 'serial' });
test.use({ baseURL: `http://127.0.0.1:${PORT}` });

test.describe('Directory sign-in (LDAP)', () => {
  test.skip(Boolean(missing), missing);

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    slapd = await startSlapd([{ uid: 'ada', mail: 'ada@example.org', cn: 'Ada Lovelace', password: 'ada-directory-pw' }], []);
    server = await startOwnServer(PORT, {
      LDAP_URL: slapd.url,
      LDAP_BIND_DN: SERVICE_DN,
      LDAP_BIND_PASSWORD: SERVICE_PASSWORD,
      LDAP_SEARCH_BASE: `ou=people,${SUFFIX}`,
      LDAP_CA_FILE: slapd.caFile,
    });
  });

  test.afterAll(async () => {
    await server?.stop();
    await slapd?.stop();
  });

  test('sign in with a directory username in the browser, with the keyboard', async ({ page }) => {
    const shots = shotsDir('ldap');
    await page.goto('/login');
    await page.getByRole('button', { name: 'Sign in with Email' }).click();
    const name = page.getByLabel('Email or username');
    await expect(name).toBeFocused();
    await expect(name).toHaveAttribute('type', 'text');
    if (shots) await auditBothThemes(page, 'login-directory', shots);
    else expect.soft(await axeViolations(page)).toEqual([]);

    // A wrong password: the usual message, still on /login.
    await name.fill('ada');
    await page.getByLabel('Password', { exact: true }).fill('not-the-password');
    await page.keyboard.press('Enter');
    await expect(page.getByText(MSG.invalidCredentials).first()).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);

    await page.getByLabel('Password', { exact: true }).fill('ada-directory-pw');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.getByRole('button', { name: 'User menu' }).click();
    await expect(page.getByText('Ada Lovelace')).toBeVisible();
    await expect(page.getByText('ada@example.org')).toBeVisible();
    await page.keyboard.press('Escape');
  });

  test('the form at 390 px', async ({ page }) => {
    const shots = shotsDir('ldap');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/login');
    await page.getByRole('button', { name: 'Sign in with Email' }).click();
    await expect(page.getByLabel('Email or username')).toBeVisible();
    expect.soft(await axeViolations(page)).toEqual([]);
    if (shots) await page.screenshot({ path: `${shots}/login-directory-390.png`, fullPage: true });
  });
});
