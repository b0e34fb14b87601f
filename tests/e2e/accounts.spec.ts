import type { Page } from '@playwright/test';
import { MSG } from '../../src/domain/messages';
import { ACCOUNT_MSG } from '../../src/domain/account-messages';
import type { InvitationDto, TeamDto } from '../../src/domain/schemas/team';
import { apiAs, axeViolations, createUser, expect, signIn, test, uniqueEmail } from './fixtures';
import { type OwnServer, startOwnServer } from './own-server';

/**
 * Issue 21, accounts you can trust: password reset, email verification and invitations that need a proven address.
 * The spec runs its own server with EMAIL_VERIFICATION=required and no SMTP_URL, so every mail is written to the
 * server's log (recipient, subject, links): the links are read from there, as a first-run operator would.
 */
const PORT = Number(process.env.E2E_PORT || 3100) + 34;
let server: OwnServer;

test.describe.configure({ mode: 'serial' });
test.use({ baseURL: `http://127.0.0.1:${PORT}` });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  server = await startOwnServer(PORT, { EMAIL_VERIFICATION: 'required', LOG_LEVEL: 'info' });
});

test.afterAll(async () => {
  await server?.stop();
});

/** The newest link to `path` mailed to `to`, waiting for the outbox worker to deliver it (to the log). */
async function mailedLink(to: string, path: string, after: string[] = []): Promise<string> {
  let found: string | undefined;
  await expect
    .poll(
      () => {
        found = server
          .mailedLinks(to)
          .filter((l) => new URL(l).pathname === path && !after.includes(l))
          .at(-1);
        return found;
      },
      { message: `a ${path} link mailed to ${to}`, timeout: 20_000 },
    )
    .toBeTruthy();
  return found!;
}

async function audit(page: Page, label: string) {
  const summary = await axeViolations(page);
  console.log(`axe ${label}: ${summary.length} violations`);
  expect.soft(summary, `axe violations on ${label}`).toEqual([]);
}

test('forgot password → mail → new password: signed in with it, the old one refused, another browser signed out', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const user = await createUser(request, { fullName: 'Rosa Reset', password: 'old password 11' });
  // Another browser where the account is signed in.
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await signIn(otherPage, user);

  await page.goto('/login');
  await page.getByRole('button', { name: 'Sign in with Email' }).click();
  await page.getByLabel('Email').fill(user.email);
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await expect(page.getByRole('heading', { name: 'Forgot password?' })).toBeVisible();
  // The address typed on /login comes along.
  await expect(page.getByLabel('Email')).toHaveValue(user.email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByText(ACCOUNT_MSG.forgotPasswordSent)).toBeFocused();

  const link = await mailedLink(user.email, '/reset-password');
  expect(link.startsWith(`http://127.0.0.1:${PORT}/reset-password?token=`)).toBe(true);
  await page.goto(link);
  await page.getByLabel('New password').fill('short');
  await page.getByRole('button', { name: 'Reset password' }).click();
  await expect(page.getByText(MSG.passwordMin8)).toBeVisible();
  await page.getByLabel('New password').fill('a brand new secret 22');
  await page.getByLabel('Confirm password').fill('a brand new secret 22');
  await page.getByRole('button', { name: 'Reset password' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText(ACCOUNT_MSG.passwordResetDone)).toBeVisible();

  // The old password is refused, the new one signs in.
  await page.getByRole('button', { name: 'Sign in with Email' }).click();
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill('old password 11');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByText(MSG.invalidCredentials)).toBeVisible();
  await page.getByLabel('Password', { exact: true }).fill('a brand new secret 22');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  // The other browser's session has ended.
  await otherPage.reload();
  await expect(otherPage).toHaveURL(/\/login$/);
  await other.close();

  // The link was single use: opened again, it says so at once (issue 35, item 13: no form to fill in first), with the
  // way to ask for a new one.
  await page.goto(link);
  await expect(page.getByText(MSG.linkInvalid)).toBeFocused();
  await expect(page.getByLabel('New password')).toHaveCount(0);
  await page.getByRole('link', { name: 'Send me a new link' }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
});

test('an unknown address gets the same answer, and no mail', async ({ page }) => {
  const email = uniqueEmail('nobody');
  await page.goto('/forgot-password');
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByText(ACCOUNT_MSG.forgotPasswordSent)).toBeVisible();
  // A mail for a known address queued after this one is logged after it: once it is there, nothing came for `email`.
  const sentinel = await createUser(page.request);
  await mailedLink(sentinel.email, '/verify-email');
  expect(server.mailedLinks(email)).toEqual([]);
});

test('sign up → verify by the link → the banner goes', async ({ page }) => {
  const email = uniqueEmail('verify');
  await page.goto('/signup');
  await page.getByLabel('Full name').fill('Vic Verify');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('verify me please 44');
  await page.getByLabel('Confirm password').fill('verify me please 44');
  await page.getByLabel('I agree to the Terms of Service and Privacy Policy').check();
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page).toHaveURL(/\/login$/);
  const first = await mailedLink(email, '/verify-email');

  await signIn(page, { email, password: 'verify me please 44' });
  const banner = page.getByRole('region', { name: 'Email verification' });
  await expect(banner.getByText(ACCOUNT_MSG.verifyEmailBanner)).toBeVisible();
  await banner.getByRole('button', { name: ACCOUNT_MSG.resendEmail }).click();
  await expect(page.getByText(ACCOUNT_MSG.verificationSent(email))).toBeVisible();
  // The new link replaces the first one.
  const fresh = await mailedLink(email, '/verify-email', [first]);

  await page.goto(first);
  await expect(page.getByText(MSG.linkInvalid)).toBeVisible();
  await page.goto(fresh);
  await expect(page.getByText(ACCOUNT_MSG.emailVerified)).toBeVisible();
  await page.getByRole('link', { name: 'Continue to Crewboard' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.locator('main h1')).toBeVisible();
  await expect(page.getByText(ACCOUNT_MSG.verifyEmailBanner)).toHaveCount(0);
  await page.reload();
  await expect(page.locator('main h1')).toBeVisible();
  await expect(page.getByText(ACCOUNT_MSG.verifyEmailBanner)).toHaveCount(0);
});

test('an unverified invitee is not shown the invitation; verified, or through the invitation’s own link, accepted', async ({
  page,
  request,
}) => {
  const owner = await createUser(request, { fullName: 'Olga Owner' });
  const invitee = await createUser(request, { fullName: 'Ivan Invitee' });
  const team = await apiAs<TeamDto>(request, owner, 'post', '/api/teams', { name: 'Proof Crew' });
  await apiAs<InvitationDto>(request, owner, 'post', `/api/teams/${team.id}/invitations`, {
    email: invitee.email,
    role: 'admin',
  });

  // Unproven, the address is not even shown the invitation (issue 35, item 2: whoever registered it first could be
  // anyone): the dashboard's list comes back without it.
  const listed = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/invitations' && r.ok());
  await signIn(page, invitee);
  await listed;
  const accept = page.getByRole('button', { name: 'Accept invitation to Proof Crew' });
  await expect(accept).toHaveCount(0);

  await page.goto(await mailedLink(invitee.email, '/verify-email'));
  await expect(page.getByText(ACCOUNT_MSG.emailVerified)).toBeVisible();
  await page.goto('/dashboard');
  await accept.click();
  await expect(page.getByText(MSG.invitationAccepted)).toBeVisible();
  await page.goto('/teams');
  await expect(page.getByRole('button', { name: 'Proof Crew' })).toBeVisible();

  // Another unverified invitee follows the invitation's mail: its link proves the address for that invitation.
  const second = await createUser(request, { fullName: 'Paula Proof' });
  await apiAs<InvitationDto>(request, owner, 'post', `/api/teams/${team.id}/invitations`, { email: second.email });
  await page.context().clearCookies();
  await page.evaluate(() => localStorage.clear());
  await signIn(page, second);
  await page.goto(await mailedLink(second.email, '/dashboard'));
  await accept.click();
  await expect(page.getByText(MSG.invitationAccepted)).toBeVisible();
});

for (const scheme of ['light', 'dark'] as const) {
  test(`the new pages and the banner have no WCAG A/AA violations (${scheme})`, async ({ browser, request }) => {
    test.setTimeout(120_000);
    const context = await browser.newContext({ colorScheme: scheme, baseURL: `http://127.0.0.1:${PORT}` });
    const page = await context.newPage();
    await page.goto('/forgot-password');
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect(page.getByLabel('Email')).toHaveAttribute('aria-invalid', 'true');
    await audit(page, `/forgot-password with errors (${scheme})`);
    await page.getByLabel('Email').fill(uniqueEmail('axe'));
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect(page.getByText(ACCOUNT_MSG.forgotPasswordSent)).toBeVisible();
    await audit(page, `/forgot-password answered (${scheme})`);

    // A live link (an unknown one says so at once, without the form).
    const resetting = await createUser(request);
    await apiAs(request, resetting, 'post', '/api/auth/forgot-password', { email: resetting.email });
    await page.goto(await mailedLink(resetting.email, '/reset-password'));
    await page.getByRole('button', { name: 'Reset password' }).click();
    await expect(page.getByLabel('New password')).toHaveAttribute('aria-invalid', 'true');
    await audit(page, `/reset-password with errors (${scheme})`);
    await page.goto('/reset-password?token=not-a-real-token');
    await expect(page.getByText(MSG.linkInvalid)).toBeFocused();
    await audit(page, `/reset-password invalid link (${scheme})`);

    await page.goto('/verify-email?token=not-a-real-token');
    await expect(page.getByText(MSG.linkInvalid)).toBeVisible();
    await audit(page, `/verify-email invalid link, signed out (${scheme})`);

    const user = await createUser(request);
    await signIn(page, user);
    await expect(page.getByText(ACCOUNT_MSG.verifyEmailBanner)).toBeVisible();
    // The 'Welcome back!' toast fades in and out: sampled half-way, its colours would fail the contrast check.
    await expect(page.locator('[data-sonner-toast]')).toHaveCount(0);
    await audit(page, `dashboard with the verification banner (${scheme})`);
    await page.goto('/verify-email?token=not-a-real-token');
    await expect(page.getByRole('button', { name: ACCOUNT_MSG.resendEmail })).toBeVisible();
    await audit(page, `/verify-email invalid link, signed in (${scheme})`);
    await page.goto(await mailedLink(user.email, '/verify-email'));
    await expect(page.getByText(ACCOUNT_MSG.emailVerified)).toBeVisible();
    await audit(page, `/verify-email verified (${scheme})`);
    await context.close();
  });
}

test('a used link says so when its page opens, before anything is typed: reset, verification, email change', async ({
  page,
  request,
}) => {
  // Issue 35, item 13. Opening a live link spends nothing: it still works afterwards.
  test.setTimeout(120_000);
  const user = await createUser(request, { fullName: 'Uma Used', password: 'old password 44' });

  await apiAs(request, user, 'post', '/api/auth/forgot-password', { email: user.email });
  const reset = await mailedLink(user.email, '/reset-password');
  await page.goto(reset);
  await expect(page.getByLabel('New password')).toBeFocused();
  const token = new URL(reset).searchParams.get('token');
  await apiAs(request, user, 'post', '/api/auth/reset-password', { token, password: 'a brand new secret 44' });
  await page.goto(reset);
  await expect(page.getByText(MSG.linkInvalid)).toBeFocused();
  await expect(page.getByLabel('New password')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Reset password' })).toHaveCount(0);
  await page.getByRole('link', { name: 'Send me a new link' }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);

  const other = await createUser(request, { fullName: 'Vic Verify' });
  const verify = await mailedLink(other.email, '/verify-email');
  await apiAs(request, other, 'post', '/api/auth/verify-email', { token: new URL(verify).searchParams.get('token') });
  await page.goto(verify);
  await expect(page.getByText(MSG.linkInvalid)).toBeFocused();

  const next = uniqueEmail('moved');
  await apiAs(request, other, 'post', '/api/me/email', { email: next, currentPassword: other.password });
  const change = await mailedLink(next, '/confirm-email');
  await page.goto(change);
  const confirm = page.getByRole('button', { name: 'Confirm new email address' });
  await expect(confirm).toBeVisible();
  await apiAs(request, other, 'post', '/api/auth/confirm-email-change', { token: new URL(change).searchParams.get('token') });
  await page.goto(change);
  await expect(page.getByText(MSG.linkInvalid)).toBeFocused();
  await expect(confirm).toHaveCount(0);
});
