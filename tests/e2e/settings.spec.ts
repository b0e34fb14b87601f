import type { Page } from '@playwright/test';
import { MSG } from '../../src/domain/messages';
import { SECURITY_MSG } from '../../src/domain/schemas/security';
import { SETTINGS_MSG } from '../../src/domain/settings-messages';
import { axeViolations, createUser, expect, signIn, test } from './fixtures';

/** /settings with its data shown (the sections' placeholders gone). */
async function openSettings(page: Page, hash = '') {
  await page.goto(`/settings${hash}`);
  await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
  await expect(page.locator('main .animate-pulse')).toHaveCount(0);
}

const userMenu = (page: Page) => page.getByRole('button', { name: 'User menu' });

test.describe('settings', () => {
  test("the user menu's Profile opens it; a new name changes the top bar's initials at once", async ({ page, request }) => {
    const user = await createUser(request, { fullName: 'Erin Example' });
    await signIn(page, user);
    await expect(userMenu(page)).toContainText('EE');
    await userMenu(page).click();
    await page.getByRole('menuitem', { name: 'Profile' }).click();
    await expect(page).toHaveURL(/\/settings#profile$/);
    await expect(page.getByRole('heading', { name: 'Profile', level: 2 })).toBeFocused();

    const name = page.getByLabel('Full name');
    await expect(name).toHaveValue('Erin Example');
    await name.fill('Q');
    await page.getByRole('button', { name: SETTINGS_MSG.saveChanges }).click();
    await expect(page.getByText(MSG.fullNameMin)).toBeVisible();
    await name.fill('Quinn Zephyr');
    await page.getByLabel('Time zone').selectOption('Asia/Tokyo');
    await page.getByRole('button', { name: SETTINGS_MSG.saveChanges }).click();
    await expect(page.getByText(SETTINGS_MSG.profileUpdated)).toBeVisible();
    await expect(userMenu(page)).toContainText('QZ');

    await openSettings(page);
    await expect(page.getByLabel('Full name')).toHaveValue('Quinn Zephyr');
    await expect(page.getByLabel('Time zone')).toHaveValue('Asia/Tokyo');
    await expect(userMenu(page)).toContainText('QZ');
  });

  test('change password, then sign in with the new one', async ({ page, request }) => {
    const user = await createUser(request);
    await signIn(page, user);
    await openSettings(page, '#account');
    const form = page.getByRole('form', { name: SETTINGS_MSG.changePassword });
    await form.getByLabel(SETTINGS_MSG.currentPassword, { exact: true }).fill('not my password');
    await form.getByLabel(SETTINGS_MSG.newPassword, { exact: true }).fill('a fresh secret 42');
    await form.getByLabel(SETTINGS_MSG.confirmPassword, { exact: true }).fill('a fresh secret 24');
    await page.getByRole('button', { name: SETTINGS_MSG.changePassword }).click();
    await expect(form.getByText(MSG.passwordsMismatch)).toBeVisible();
    await form.getByLabel(SETTINGS_MSG.confirmPassword, { exact: true }).fill('a fresh secret 42');
    await page.getByRole('button', { name: SETTINGS_MSG.changePassword }).click();
    await expect(form.getByText(MSG.currentPasswordWrong)).toBeVisible();

    await form.getByLabel(SETTINGS_MSG.currentPassword, { exact: true }).fill(user.password);
    await page.getByRole('button', { name: SETTINGS_MSG.changePassword }).click();
    await expect(page.getByText(SETTINGS_MSG.passwordChanged, { exact: true })).toBeVisible();
    await expect(form.getByLabel(SETTINGS_MSG.newPassword, { exact: true })).toHaveValue('');

    await userMenu(page).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await signIn(page, { email: user.email, password: 'a fresh secret 42' });
  });

  test("appearance: Light / Dark / System, the same setting as the top bar's switch", async ({ page, request }) => {
    const user = await createUser(request);
    await page.emulateMedia({ colorScheme: 'light' });
    await signIn(page, user);
    await openSettings(page, '#appearance');
    const html = page.locator('html');
    await expect(page.getByRole('radio', { name: /^System/ })).toBeChecked();
    await expect(html).not.toHaveClass(/dark/);

    await page.getByRole('radio', { name: /^Dark/ }).check();
    await expect(html).toHaveClass(/dark/);
    await expect(page.getByRole('button', { name: 'Theme: dark' })).toBeVisible();

    // The top bar's switch moves the radio too.
    await page.getByRole('button', { name: 'Theme: dark' }).click();
    await page.getByRole('menuitemradio', { name: 'Light' }).click();
    await expect(page.getByRole('radio', { name: /^Light/ })).toBeChecked();
    await expect(html).not.toHaveClass(/dark/);

    // By keyboard: the radio group moves with the arrow keys.
    await page.getByRole('radio', { name: /^Light/ }).focus();
    await page.keyboard.press('ArrowRight');
    await expect(page.getByRole('radio', { name: /^Dark/ })).toBeChecked();
    await expect(html).toHaveClass(/dark/);
    await page.reload();
    await expect(html).toHaveClass(/dark/);
  });

  test('notification switches save at once and stay after a reload', async ({ page, request }) => {
    const user = await createUser(request);
    await signIn(page, user);
    await openSettings(page, '#notifications');
    const assignedInApp = page.getByRole('switch', { name: 'A task is assigned to you: In-app' });
    const digest = page.getByRole('switch', { name: 'Send me a daily digest' });
    await expect(assignedInApp).toHaveAttribute('aria-checked', 'true');
    const saved = page.waitForResponse(
      (r) => r.url().endsWith('/api/me/notification-preferences') && r.request().method() === 'PUT',
    );
    await assignedInApp.click();
    await saved;
    await digest.press('Space');
    await expect(digest).toHaveAttribute('aria-checked', 'false');
    await expect(assignedInApp).toHaveAttribute('aria-checked', 'false');
    await openSettings(page, '#notifications');
    await expect(page.getByRole('switch', { name: 'A task is assigned to you: In-app' })).toHaveAttribute(
      'aria-checked',
      'false',
    );
    await expect(page.getByRole('switch', { name: 'A task is assigned to you: Email' })).toHaveAttribute('aria-checked', 'true');
    await expect(page.getByRole('switch', { name: 'Send me a daily digest' })).toHaveAttribute('aria-checked', 'false');
  });

  test('delete account: typed confirmation, then signed out for good', async ({ page, request }) => {
    const user = await createUser(request);
    await signIn(page, user);
    await openSettings(page, '#account');
    await page.getByRole('button', { name: 'Delete account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete account' });
    const confirm = dialog.getByRole('button', { name: 'Delete account' });
    await dialog.getByLabel(/to confirm/).fill('someone@else.example');
    await expect(confirm).toBeDisabled();
    await dialog.getByLabel(/to confirm/).fill(user.email);
    await dialog.getByLabel(SETTINGS_MSG.currentPassword, { exact: true }).fill(user.password);
    await confirm.click();
    await expect(page.getByText(SETTINGS_MSG.accountDeleted)).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
    const res = await request.post('/api/auth/token?grant_type=password', {
      data: { email: user.email, password: user.password },
    });
    expect(res.status()).toBe(400);
  });

  test('avatar: a picture chosen is cropped square and previewed, then the top bar shows it; removed, the initials', async ({
    page,
    request,
  }) => {
    const user = await createUser(request, { fullName: 'Ava Tarr' });
    await signIn(page, user);
    await openSettings(page, '#profile');
    await expect(userMenu(page)).toContainText('AT');
    await expect(userMenu(page).locator('img')).toHaveCount(0);

    // A landscape PNG made by the browser: 300 × 200, the centre square is what stays.
    const png = await page.evaluate(() => {
      const canvas = document.createElement('canvas');
      canvas.width = 300;
      canvas.height = 200;
      const context = canvas.getContext('2d')!;
      context.fillStyle = '#d33';
      context.fillRect(0, 0, 300, 200);
      context.fillStyle = '#33d';
      context.fillRect(50, 0, 200, 200);
      return canvas.toDataURL('image/png').split(',')[1]!;
    });
    const picker = page.getByLabel('Avatar image');
    await picker.setInputFiles({ name: 'holiday.png', mimeType: 'image/png', buffer: Buffer.from(png, 'base64') });
    const preview = page.getByRole('img', { name: 'Preview of your new avatar' });
    await expect(preview).toBeVisible();
    await expect(page.getByRole('button', { name: SETTINGS_MSG.saveAvatar })).toBeFocused();
    const size = await preview.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight]);
    expect(size).toEqual([256, 256]);
    // Only the blue centre square is left: a corner pixel is blue, not the red margin.
    const corner = await preview.evaluate((img: HTMLImageElement) => {
      const canvas = document.createElement('canvas');
      canvas.width = 256;
      canvas.height = 256;
      const context = canvas.getContext('2d')!;
      context.drawImage(img, 0, 0);
      return [...context.getImageData(2, 2, 1, 1).data];
    });
    expect(corner.slice(0, 3)).toEqual([0x33, 0x33, 0xdd]);
    await expect(page.locator('[data-sonner-toast]')).toHaveCount(0);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      expect(await axeViolations(page), `avatar preview (${scheme})`).toEqual([]);
    }
    await expect(userMenu(page).locator('img')).toHaveCount(0);

    await page.getByRole('button', { name: SETTINGS_MSG.saveAvatar }).click();
    await expect(page.getByText(SETTINGS_MSG.avatarUpdated)).toBeVisible();
    const topBarImage = userMenu(page).locator('img');
    await expect(topBarImage).toHaveCount(1);
    await expect(topBarImage).toHaveAttribute('src', /^\/api\/avatars\//);
    await expect.poll(() => topBarImage.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(256);
    await expect(page.getByRole('img', { name: 'Your avatar' })).toBeVisible();
    await expect(page.getByRole('button', { name: SETTINGS_MSG.changeAvatar })).toBeFocused();

    // It stays after a reload, and teammates' lists get it from the API.
    await page.reload();
    await expect(page.locator('main .animate-pulse')).toHaveCount(0);
    await expect(userMenu(page).locator('img')).toHaveCount(1);
    // A toast fading out would be sampled half-way by the contrast check.
    await expect(page.locator('[data-sonner-toast]')).toHaveCount(0);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      expect(await axeViolations(page), `settings with an avatar (${scheme})`).toEqual([]);
    }
    const me = await (await request.get('/api/auth/user', { headers: { authorization: `Bearer ${user.accessToken}` } })).json();
    expect(me.avatar).toMatch(/^\/api\/avatars\//);

    // A file that is no image is refused on this device, before any upload.
    await picker.setInputFiles({ name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('not an image at all') });
    await expect(page.getByText(SETTINGS_MSG.avatarUnreadable)).toBeVisible();
    await expect(page.getByRole('img', { name: 'Preview of your new avatar' })).toHaveCount(0);

    await page.getByRole('button', { name: SETTINGS_MSG.removeAvatar }).click();
    await expect(page.getByText(SETTINGS_MSG.avatarRemoved)).toBeVisible();
    await expect(userMenu(page).locator('img')).toHaveCount(0);
    await expect(userMenu(page)).toContainText('AT');
    await expect(page.getByRole('button', { name: SETTINGS_MSG.removeAvatar })).toHaveCount(0);
  });

  test('an unknown email-change link says so', async ({ page }) => {
    await page.goto('/confirm-email?token=not-a-real-token');
    // Checked when the page opens (issue 35, item 13): no button to press first.
    await expect(page.getByText(MSG.linkInvalid)).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);
  });

  for (const scheme of ['light', 'dark'] as const) {
    test(`axe: no violations on /settings and its dialog at 1440 and 390 px (${scheme})`, async ({ browser, request }) => {
      test.setTimeout(240_000);
      const user = await createUser(request);
      for (const viewport of [
        { width: 1440, height: 900 },
        { width: 390, height: 844 },
      ]) {
        const context = await browser.newContext({ viewport, colorScheme: scheme });
        const page = await context.newPage();
        await signIn(page, user);
        await openSettings(page);
        expect(await axeViolations(page), `/settings ${viewport.width} ${scheme}`).toEqual([]);
        // Nothing wider than the screen.
        const overflow = await page.evaluate(() => {
          const main = document.getElementById('main')!;
          return main.scrollWidth - main.clientWidth;
        });
        expect(overflow).toBeLessThanOrEqual(0);
        await page.getByRole('button', { name: 'Delete account' }).click();
        const dialog = page.getByRole('dialog', { name: 'Delete account' });
        await expect(dialog).toBeVisible();
        await expect(dialog.getByRole('button', { name: 'Delete account' })).toBeDisabled();
        expect(await axeViolations(page), `delete dialog ${viewport.width} ${scheme}`).toEqual([]);
        await page.keyboard.press('Escape');
        await expect(dialog).toBeHidden();
        await context.close();
      }
    });
  }
});

test.describe("settings: 'Also revoke API tokens and calendar links' (issue 35, item 1)", () => {
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  test('ticked beside a password change, unticked beside signing out the other sessions; each does what it says', async ({
    page,
    request,
  }) => {
    const user = await createUser(request);
    /** A write token and a calendar feed made through the API; what they answer is checked after each step. */
    const makeCredentials = async (accessToken: string) => {
      const token = await request.post('/api/me/api-tokens', {
        headers: bearer(accessToken),
        data: { name: 'Deploy script', scope: 'write', expiresInDays: null },
      });
      expect(token.status()).toBe(201);
      const feed = await request.post('/api/me/calendar-feed', { headers: bearer(accessToken) });
      expect(feed.status()).toBe(201);
      return { token: (await token.json()).token as string, feed: new URL((await feed.json()).url as string).pathname };
    };
    const answers = async (held: { token: string; feed: string }) => [
      (await request.get('/api/teams', { headers: bearer(held.token) })).status(),
      (await request.get(held.feed)).status(),
    ];

    await signIn(page, user);
    await openSettings(page, '#account');
    const form = page.getByRole('form', { name: SETTINGS_MSG.changePassword });
    const box = form.getByRole('checkbox', { name: SECURITY_MSG.alsoRevokeTokens });
    const change = async (from: string, to: string) => {
      await form.getByLabel(SETTINGS_MSG.currentPassword, { exact: true }).fill(from);
      await form.getByLabel(SETTINGS_MSG.newPassword, { exact: true }).fill(to);
      await form.getByLabel(SETTINGS_MSG.confirmPassword, { exact: true }).fill(to);
      await page.getByRole('button', { name: SETTINGS_MSG.changePassword }).click();
      await expect(page.getByText(SETTINGS_MSG.passwordChanged, { exact: true }).last()).toBeVisible();
      await expect(form.getByLabel(SETTINGS_MSG.newPassword, { exact: true })).toHaveValue('');
    };

    // Unticked (by keyboard): the token and the feed stay.
    const kept = await makeCredentials(user.accessToken);
    await expect(box).toBeChecked();
    await box.focus();
    await page.keyboard.press('Space');
    await expect(box).not.toBeChecked();
    await change(user.password, 'a fresh secret 42');
    expect(await answers(kept)).toEqual([200, 200]);

    // Ticked again after the change (the form starts over): both go.
    await expect(box).toBeChecked();
    await change('a fresh secret 42', 'a fresher secret 43');
    expect(await answers(kept)).toEqual([401, 404]);

    // 'Sign out all other sessions': its box starts unticked; ticked, the new token and feed go with the sessions.
    const other = await request.post('/api/auth/token?grant_type=password', {
      data: { email: user.email, password: 'a fresher secret 43' },
    });
    expect(other.status()).toBe(200);
    // The password change signed out the session createUser opened: the new one makes them.
    const held = await makeCredentials((await other.json()).access_token);
    await openSettings(page, '#security');
    // A full load: the session list then holds the session just opened.
    await page.reload();
    await expect(page.locator('main .animate-pulse')).toHaveCount(0);
    const security = page.getByRole('region', { name: 'Security' });
    const sessionsBox = security.getByRole('checkbox', { name: SECURITY_MSG.alsoRevokeTokens });
    await expect(sessionsBox).not.toBeChecked();
    await sessionsBox.check();
    await security.getByRole('button', { name: SECURITY_MSG.signOutOtherSessions }).click();
    await expect(page.getByText(SECURITY_MSG.otherSessionsSignedOut)).toBeVisible();
    expect(await answers(held)).toEqual([401, 404]);
    await expect(page.locator('#api-tokens').getByText('Deploy script')).toHaveCount(0);
  });
});
