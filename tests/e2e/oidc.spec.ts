import { OAuth2Server } from 'oauth2-mock-server';
import { ERROR_MESSAGES } from '../../src/domain/errors';
import { MSG } from '../../src/domain/messages';
import { ACCOUNT_MSG } from '../../src/domain/account-messages';
import { baseURL as suiteBaseURL } from '../../playwright.config';
import { apiAs, createUser, expect, signIn, test, uniqueEmail } from './fixtures';
import { type OwnServer, startOwnServer } from './own-server';

// This spec runs against its own server, configured for a local mock OpenID provider.
const PORT = 3114;
const CLIENT_ID = 'crewboard-e2e';

const mock = new OAuth2Server();
let server: OwnServer;
/** Claims the mock adds to the next tokens it signs. */
let claims: Record<string, unknown> = {};

test.describe.configure({ mode: 'serial' });
test.use({ baseURL: `http://127.0.0.1:${PORT}` });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  await mock.issuer.keys.generate('RS256');
  await mock.start(0, '127.0.0.1');
  mock.service.on('beforeTokenSigning', (token) => {
    Object.assign(token.payload, claims);
  });
  server = await startOwnServer(PORT, {
    GOOGLE_CLIENT_ID: CLIENT_ID,
    GOOGLE_CLIENT_SECRET: 'e2e-secret',
    OIDC_ISSUER_URL: mock.issuer.url!,
    // The mails (verification links) are read from the log.
    LOG_LEVEL: 'info',
  });
});

test.afterAll(async () => {
  await server?.stop();
  await mock.stop();
});

test.beforeEach(() => {
  claims = {};
  mock.service.removeAllListeners('beforeResponse');
  mock.service.removeAllListeners('beforeAuthorizeRedirect');
});

test.describe('Google sign-in (OpenID Connect)', () => {
  test('click the Google button, come back signed in on /dashboard', async ({ page }) => {
    const email = uniqueEmail('google');
    claims = { sub: `google-${email}`, email, email_verified: true, name: 'Grace Hopper' };
    const hops: string[] = [];
    page.on('request', (r) => {
      if (r.isNavigationRequest()) hops.push(r.url());
    });

    await page.goto('/login');
    await page.getByRole('button', { name: 'Continue with Google' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.getByRole('button', { name: 'User menu' }).click();
    await expect(page.getByText('Grace Hopper')).toBeVisible();
    await expect(page.getByText(email)).toBeVisible();
    await page.keyboard.press('Escape');

    // It went through the issuer and back to the site root; no token stayed in the address bar.
    expect(hops.some((u) => u.startsWith(`${mock.issuer.url}/authorize?`))).toBe(true);
    expect(hops.some((u) => u.startsWith(`http://127.0.0.1:${PORT}/api/auth/google/callback?`))).toBe(true);
    expect(page.url()).not.toContain('oidc_code');
    const session = await page.evaluate(() => JSON.parse(localStorage.getItem('auth-storage') ?? '{}'));
    expect(session.state.user).toMatchObject({ email, fullName: 'Grace Hopper', role: 'team_member' });

    // A reload keeps the user signed in (the session is real).
    await page.reload();
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test('an existing account is linked (not duplicated) only once it has verified its address', async ({ page, request }) => {
    const user = await createUser(request, { fullName: 'Linus Linked' });
    claims = { sub: `google-${user.email}`, email: user.email, email_verified: true, name: 'Someone Else' };
    await page.goto('/login');
    await page.getByRole('button', { name: 'Continue with Google' }).click();
    // Issue 21: no silent takeover of an account whose address nobody proved.
    await expect(
      page.getByText(/^Authentication failed: An account with this email already exists and its address is not verified/),
    ).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);

    // The account proves its address (a verification link, read from the server's log), then the same sign-in links.
    await apiAs(request, user, 'post', '/api/auth/resend-verification');
    const verifyLink = () => server.mailedLinks(user.email).find((l) => l.includes('/verify-email?token='));
    await expect.poll(verifyLink).toBeTruthy();
    await page.goto(verifyLink()!);
    await expect(page.getByText(ACCOUNT_MSG.emailVerified)).toBeVisible();
    await page.goto('/login');
    await page.getByRole('button', { name: 'Continue with Google' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    const session = await page.evaluate(() => JSON.parse(localStorage.getItem('auth-storage') ?? '{}'));
    expect(session.state.user).toMatchObject({ id: user.id, fullName: 'Linus Linked' });
  });

  test('a refused sign-in returns to /login with the spec toast and its description (finding 8: sealed by our callback)', async ({
    page,
  }) => {
    claims = { sub: 'google-refused', email: uniqueEmail('refused'), email_verified: true };
    mock.service.once('beforeResponse', (response) => {
      response.statusCode = 400;
      response.body = { error: 'invalid_grant' };
    });
    await page.goto('/login');
    await page.getByRole('button', { name: 'Continue with Google' }).click();
    await expect(
      page.getByText(MSG.authFailedWith('The sign-in provider did not accept the sign-in. Please try again.')),
    ).toBeVisible();
    await expect(page).toHaveURL(/\/login$/); // the query string is cleaned
    await expect(page.getByRole('button', { name: 'Sign in with Email' })).toBeVisible();
  });

  test('the provider’s own error (user cancelled) shows its description', async ({ page }) => {
    mock.service.once('beforeAuthorizeRedirect', ({ url }) => {
      url.searchParams.delete('code');
      url.searchParams.set('error', 'access_denied');
      url.searchParams.set('error_description', 'The user cancelled the sign-in');
    });
    await page.goto('/login');
    await page.getByRole('button', { name: 'Continue with Google' }).click();
    await expect(page.getByText(MSG.authFailedWith('The user cancelled the sign-in'))).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
  });

  test('finding 8 (error description): a hand-made /login?error_description link shows only the generic text', async ({
    page,
  }) => {
    await page.goto('/login?error=access_denied&error_description=%3Cb%3ECall%20support%20on%20555%3C%2Fb%3E');
    await expect(page.getByText(MSG.authFailedGeneric)).toBeVisible();
    await expect(page.getByText(/Call support/)).toHaveCount(0);
    await expect(page).toHaveURL(/\/login$/);
  });

  test('finding 5 (login CSRF through the one-time Google code): a code opened in a second browser context is refused', async ({
    browser,
    page,
  }) => {
    const email = uniqueEmail('minted');
    claims = { sub: `google-${email}`, email, email_verified: true, name: 'Mallory Minter' };
    // Browser A runs the sign-in up to the redirect that carries the code, and does not open it.
    const minting = await browser.newContext({ baseURL: `http://127.0.0.1:${PORT}` });
    try {
      const start = await minting.request.get('/api/auth/google/start', { maxRedirects: 0 });
      const authorize = await minting.request.get(start.headers().location!, { maxRedirects: 0 });
      const callback = await minting.request.get(authorize.headers().location!, { maxRedirects: 0 });
      const landing = callback.headers().location!;
      expect(landing).toMatch(/^\/#oidc_code=/);

      // Browser B opens it (a link sent to the victim): refused, and B stays signed out.
      await page.goto(landing);
      await expect(page.getByText(MSG.authFailedWith(ERROR_MESSAGES.oidc_code_wrong_browser))).toBeVisible();
      await expect(page).toHaveURL(/\/login$/);
      expect((await page.evaluate(() => localStorage.getItem('auth-storage'))) ?? '').not.toContain(email);

      // Refused elsewhere, not spent: the browser that started the sign-in completes it.
      const own = await minting.newPage();
      await own.goto(landing);
      await expect(own).toHaveURL(/\/dashboard$/);
      const session = await own.evaluate(() => JSON.parse(localStorage.getItem('auth-storage') ?? '{}'));
      expect(session.state.user).toMatchObject({ email });
    } finally {
      await minting.close();
    }
  });

  test('finding 5: a Google code arriving in a signed-in browser does not replace its session', async ({ page, request }) => {
    const user = await createUser(request, { fullName: 'Paula Password' });
    await signIn(page, user);
    const email = uniqueEmail('switch');
    claims = { sub: `google-${email}`, email, email_verified: true, name: 'Someone Else' };
    // The same browser goes through a Google sign-in (start → issuer → callback → /#oidc_code=…).
    await page.goto('/api/auth/google/start');
    await expect(page.getByText(MSG.googleAlreadySignedIn(user.email))).toBeVisible();
    await expect(page).toHaveURL(/\/dashboard$/);
    const session = await page.evaluate(() => JSON.parse(localStorage.getItem('auth-storage') ?? '{}'));
    expect(session.state.user).toMatchObject({ id: user.id, email: user.email });
  });
});

test.describe('without Google configured', () => {
  test.use({ baseURL: suiteBaseURL });

  test('the Google button explains instead of navigating', async ({ page }) => {
    await page.goto('/login');
    await page.getByRole('button', { name: 'Continue with Google' }).click();
    await expect(page.getByRole('status').filter({ hasText: MSG.googleNotConfigured })).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
  });
});
