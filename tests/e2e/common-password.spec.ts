import { MSG } from '../../src/domain/messages';
import { expect, test, uniqueEmail } from './fixtures';

// Finding 8 (issue 20): the server refuses a common new password; both sign-up forms show why beside the field.
test.describe('finding 8: common passwords', () => {
  const tooCommon = new RegExp(MSG.passwordTooCommon.replace(/[.]/g, '\\.'));

  test('finding 8: the /signup page shows a common password refused beside the field', async ({ page }) => {
    await page.goto('/signup');
    await page.getByLabel('Full name').fill('Cody Common');
    await page.getByLabel('Email').fill(uniqueEmail('common'));
    await page.getByLabel('Password', { exact: true }).fill('password1');
    await page.getByLabel('Confirm password').fill('password1');
    await page.getByLabel(/I agree to the Terms/).check();
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect(page.getByLabel('Password', { exact: true })).toHaveAccessibleDescription(tooCommon);
    await expect(page.getByLabel('Password', { exact: true })).toHaveAttribute('aria-invalid', 'true');
    await expect(page).toHaveURL(/\/signup$/);
  });

  test('finding 8: the login screen sign-up form shows it too', async ({ page }) => {
    await page.goto('/login');
    await page.getByRole('button', { name: 'Sign up with Email' }).click();
    await page.getByLabel('Full name').fill('Cody Common');
    await page.getByLabel('Email').fill(uniqueEmail('common'));
    await page.getByLabel('Password', { exact: true }).fill('qwerty');
    await page.getByLabel('Confirm password').fill('qwerty');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByLabel('Password', { exact: true })).toHaveAccessibleDescription(tooCommon);
    await expect(page.getByText(MSG.accountCreated)).toBeHidden();
  });
});
