import type { Page } from '@playwright/test';
import { ERROR_MESSAGES } from '../../src/domain/errors';
import { MSG } from '../../src/domain/messages';
import { SECURITY_MSG } from '../../src/domain/schemas/security';
import { SETTINGS_MSG } from '../../src/domain/settings-messages';
import { codeMaker, wrongCode } from '../helpers/totp';
import { axeViolations, createUser, type E2EUser, expect, signIn, submitPassword, test } from './fixtures';

/** Settings → Security: two-factor sign-in turned on in the page, used at sign-in, and the sessions list. */

async function openSecurity(page: Page) {
  await page.goto('/settings#security');
  await expect(page.getByRole('heading', { name: 'Security', level: 2 })).toBeVisible();
  await expect(page.locator('main .animate-pulse')).toHaveCount(0);
}

async function audit(page: Page, label: string) {
  // A toast fading in or out would be sampled half-way by the contrast check: audit once they are gone.
  await expect(page.locator('[data-sonner-toast]')).toHaveCount(0);
  expect.soft(await axeViolations(page), `axe violations on ${label}`).toEqual([]);
}

async function signOut(page: Page) {
  await page.getByRole('button', { name: 'User menu' }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/login$/);
}

/** The password step of /login, for an account with two-factor sign-in on: the code step follows. */
async function passwordStep(page: Page, user: Pick<E2EUser, 'email' | 'password'>) {
  await submitPassword(page, user);
  await expect(page.getByLabel(SECURITY_MSG.authCode)).toBeFocused();
}

async function codeStep(page: Page, code: string) {
  await page.getByLabel(SECURITY_MSG.authCode).fill(code);
  await page.getByRole('button', { name: 'Verify' }).click();
}

for (const scheme of ['light', 'dark'] as const) {
  test.describe(`two-factor authentication (${scheme})`, () => {
    test.use({ colorScheme: scheme, permissions: ['clipboard-read', 'clipboard-write'] });

    test('turn it on in Settings → sign out → sign in with a code from the shown key; a recovery code works once', async ({
      page,
      request,
    }) => {
      test.setTimeout(180_000);
      const user = await createUser(request);
      await signIn(page, user);

      // Setup: the QR code and the key in text, then a code from it.
      await openSecurity(page);
      await page.getByRole('button', { name: 'Set up two-factor authentication' }).click();
      // The password again first: a wrong one is refused beside the field.
      const setupPassword = page
        .getByRole('form', { name: 'Set up two-factor authentication' })
        .getByLabel(SETTINGS_MSG.currentPassword);
      await expect(setupPassword).toBeFocused();
      await audit(page, `two-factor password check (${scheme})`);
      await setupPassword.fill('not my password');
      await page.getByRole('button', { name: 'Continue' }).click();
      await expect(page.getByText(ERROR_MESSAGES.wrong_password).first()).toBeVisible();
      await setupPassword.fill(user.password);
      await page.getByRole('button', { name: 'Continue' }).click();
      await expect(page.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
      const key = (await page.getByText(/^[A-Z2-7]{4}( [A-Z2-7]{1,4})+$/).textContent())!.replace(/\s/g, '');
      expect(key).toHaveLength(32);
      const nextCode = codeMaker(key);
      await expect(page.getByLabel(SECURITY_MSG.authCode)).toBeFocused();
      await audit(page, `two-factor setup (${scheme})`);
      await page.getByLabel(SECURITY_MSG.authCode).fill(wrongCode(key));
      await page.getByRole('button', { name: 'Turn on' }).click();
      await expect(page.getByText(ERROR_MESSAGES.mfa_code_invalid).first()).toBeVisible();
      await page.getByLabel(SECURITY_MSG.authCode).fill(nextCode());
      await page.getByRole('button', { name: 'Turn on' }).click();
      await expect(page.getByText(SECURITY_MSG.twoFactorEnabled)).toBeVisible();

      // The recovery codes, shown this once, with a copy button.
      await expect(page.getByRole('heading', { name: 'Save your recovery codes' })).toBeFocused();
      const codes = await page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem').allTextContents();
      expect(codes).toHaveLength(10);
      await audit(page, `recovery codes (${scheme})`);
      await page.getByRole('button', { name: 'Copy codes' }).click();
      await expect(page.getByText(SECURITY_MSG.recoveryCodesCopied)).toBeVisible();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(codes.join('\n'));
      await page.getByRole('button', { name: 'Done' }).click();
      await expect(page.getByRole('button', { name: SECURITY_MSG.regenerateRecoveryCodes })).toBeFocused();
      await expect(page.getByText('10 recovery codes left.')).toBeVisible();
      await expect(page.getByRole('list', { name: 'Recovery codes' })).toHaveCount(0);

      // Sign-in now asks for the code after the password.
      await signOut(page);
      await passwordStep(page, user);
      await audit(page, `sign-in code step (${scheme})`);
      await codeStep(page, wrongCode(key));
      await expect(page.getByText(ERROR_MESSAGES.mfa_code_invalid).first()).toBeVisible();
      await expect(page).toHaveURL(/\/login$/);
      await codeStep(page, nextCode());
      await expect(page).toHaveURL(/\/dashboard$/);
      await expect(page.getByText(MSG.welcomeBack).first()).toBeVisible();

      // A recovery code instead of the app's: once.
      await signOut(page);
      await passwordStep(page, user);
      await codeStep(page, codes[0]!);
      await expect(page).toHaveURL(/\/dashboard$/);
      await signOut(page);
      await passwordStep(page, user);
      await codeStep(page, codes[0]!);
      await expect(page.getByText(ERROR_MESSAGES.mfa_code_invalid).first()).toBeVisible();
      await expect(page).toHaveURL(/\/login$/);
      await codeStep(page, codes[1]!);
      await expect(page).toHaveURL(/\/dashboard$/);

      // New recovery codes, after the password: ten, shown once; the old ones stop working.
      await openSecurity(page);
      await expect(page.getByText('8 recovery codes left.')).toBeVisible();
      await page.getByRole('button', { name: SECURITY_MSG.regenerateRecoveryCodes }).click();
      const regeneratePassword = page
        .getByRole('form', { name: SECURITY_MSG.regenerateRecoveryCodes })
        .getByLabel(SETTINGS_MSG.currentPassword);
      await expect(regeneratePassword).toBeFocused();
      await audit(page, `regenerate recovery codes (${scheme})`);
      await regeneratePassword.fill(user.password);
      await page.getByRole('button', { name: 'Generate new codes' }).click();
      await expect(page.getByText(SECURITY_MSG.recoveryCodesRegenerated)).toBeVisible();
      await expect(page.getByRole('heading', { name: 'Save your recovery codes' })).toBeFocused();
      await expect(page.getByText('Your previous recovery codes no longer work.')).toBeVisible();
      const fresh = await page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem').allTextContents();
      expect(fresh).toHaveLength(10);
      expect(fresh.filter((c) => codes.includes(c))).toEqual([]);
      await page.getByRole('button', { name: 'Done' }).click();
      await expect(page.getByText('10 recovery codes left.')).toBeVisible();
      await signOut(page);
      await passwordStep(page, user);
      await codeStep(page, codes[2]!);
      await expect(page.getByText(ERROR_MESSAGES.mfa_code_invalid).first()).toBeVisible();
      await codeStep(page, fresh[0]!);
      await expect(page).toHaveURL(/\/dashboard$/);

      // Off, confirmed with the password.
      await openSecurity(page);
      await expect(page.getByText('9 recovery codes left.')).toBeVisible();
      await page.getByRole('button', { name: 'Turn off two-factor authentication' }).click();
      await expect(page.getByLabel(SECURITY_MSG.authCode)).toBeFocused();
      await page.getByRole('button', { name: 'Use your password instead' }).click();
      await page.getByLabel('Password', { exact: true }).fill(user.password);
      await audit(page, `two-factor turn off (${scheme})`);
      await page.getByRole('button', { name: 'Turn off', exact: true }).click();
      await expect(page.getByText(SECURITY_MSG.twoFactorDisabled)).toBeVisible();
      await expect(page.getByRole('button', { name: 'Set up two-factor authentication' })).toBeFocused();
      await signOut(page);
      await signIn(page, user);
    });

    test('active sessions: this device, sign out another, then all others (keyboard)', async ({ page, request }) => {
      const user = await createUser(request);
      await signIn(page, user);

      await openSecurity(page);
      const list = page.getByRole('list', { name: 'Active sessions' });
      // The API sign-in of createUser, and this browser.
      await expect(list.getByRole('listitem')).toHaveCount(2);
      const here = list.getByRole('listitem').filter({ hasText: 'This device' });
      await expect(here).toContainText(/Chrome on \w+/);
      await expect(here).toContainText('127.0.0.1');
      await expect(here.getByRole('button', { name: SECURITY_MSG.signOut })).toHaveCount(0);
      await audit(page, `active sessions (${scheme})`);

      const other = list.getByRole('listitem').filter({ hasNotText: 'This device' });
      await other.getByRole('button', { name: SECURITY_MSG.signOut }).focus();
      await page.keyboard.press('Enter');
      await expect(page.getByText(SECURITY_MSG.sessionSignedOut)).toBeVisible();
      await expect(list.getByRole('listitem')).toHaveCount(1);
      await expect(list).toBeFocused();
      await expect(page.getByRole('button', { name: SECURITY_MSG.signOutOtherSessions })).toBeDisabled();

      // Two more elsewhere, then all of them at once.
      for (let i = 0; i < 2; i++) {
        const res = await request.post('/api/auth/token?grant_type=password', {
          data: { email: user.email, password: user.password },
        });
        expect(res.status()).toBe(200);
      }
      await page.reload();
      await expect(list.getByRole('listitem')).toHaveCount(3);
      await page.getByRole('button', { name: SECURITY_MSG.signOutOtherSessions }).click();
      await expect(page.getByText(SECURITY_MSG.otherSessionsSignedOut)).toBeVisible();
      await expect(list.getByRole('listitem')).toHaveCount(1);
      await expect(list.getByRole('listitem')).toContainText('This device');
      // This session still works.
      await page.reload();
      await expect(page.getByRole('heading', { name: 'Security', level: 2 })).toBeVisible();
    });
  });
}
