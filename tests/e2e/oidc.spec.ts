import { OAuth2Server } from 'oauth2-mock-server';
import { MSG } from '../../src/domain/messages';
import { baseURL as suiteBaseURL } from '../../playwright.config';
import { createUser, expect, test, uniqueEmail } from './fixtures';
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

  test('an existing account with the same verified email is linked, not duplicated', async ({ page, request }) => {
    const user = await createUser(request, { fullName: 'Linus Linked' });
    claims = { sub: `google-${user.email}`, email: user.email, email_verified: true, name: 'Someone Else' };
    await page.goto('/login');
    await page.getByRole('button', { name: 'Continue with Google' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    const session = await page.evaluate(() => JSON.parse(localStorage.getItem('auth-storage') ?? '{}'));
    expect(session.state.user).toMatchObject({ id: user.id, fullName: 'Linus Linked' });
  });

  test('a refused sign-in returns to /login with the spec toast', async ({ page }) => {
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
