import { createUser, expect, signIn, test } from './fixtures';
import { type OwnServer, startOwnServer } from './own-server';

// Its own server with a 20 s access-token lifetime (ACCESS_TOKEN_TTL), so refreshes happen often.
const PORT = 3124;
let server: OwnServer;

test.describe.configure({ mode: 'serial' });
test.use({ baseURL: `http://127.0.0.1:${PORT}` });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  server = await startOwnServer(PORT, { ACCESS_TOKEN_TTL: '20' });
});
test.afterAll(async () => {
  await server?.stop();
});

const storedSession = (page: import('@playwright/test').Page) =>
  page.evaluate(() => JSON.parse(localStorage.getItem('auth-storage') ?? '{}')?.state?.session ?? null);

test.describe('session auto-refresh', () => {
  test('with a 20 s token the user keeps working past 60 s without being signed out', async ({ page, request }) => {
    test.setTimeout(180_000);
    const user = await createUser(request, { fullName: 'Rita Refresh' });
    const refreshes: number[] = [];
    const events: { at: number; kind: 'refresh' | '401' }[] = [];
    page.on('request', (req) => {
      if (req.url().includes('/api/auth/token?grant_type=refresh_token')) events.push({ at: Date.now(), kind: 'refresh' });
    });
    page.on('response', (res) => {
      if (res.url().includes('/api/auth/token?grant_type=refresh_token')) refreshes.push(res.status());
      else if (res.url().includes('/api/') && res.status() === 401) events.push({ at: Date.now(), kind: '401' });
    });
    await signIn(page, user);
    const first = await storedSession(page);
    expect(first.expires_in).toBe(20);
    const startedAt = Date.now();

    const stops = [
      { link: 'Tasks', url: /\/tasks$/ },
      { link: 'Projects', url: /\/projects$/ },
      { link: 'Teams', url: /\/teams$/ },
      { link: 'Dashboard', url: /\/dashboard$/ },
    ];
    let i = 0;
    while (Date.now() - startedAt < 75_000) {
      // Real time on purpose: the user works on while the 20 s token ages and the client's refresh tick runs.
      await page.waitForTimeout(7_000);
      const stop = stops[i++ % stops.length]!;
      await page.getByRole('navigation').getByRole('link', { name: stop.link, exact: true }).click();
      await expect(page).toHaveURL(stop.url);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    }

    // Still signed in, on a fresh token issued well after the first one expired.
    expect(page.url()).not.toContain('/login');
    const last = await storedSession(page);
    expect(last.access_token).not.toBe(first.access_token);
    expect(last.expires_at).toBeGreaterThan(first.expires_at + 40);
    expect(refreshes.length).toBeGreaterThanOrEqual(2);
    expect(refreshes.every((s) => s === 200)).toBe(true);
    // The 30 s ticker refreshed on its own, not only as a reaction to an expired token (a 401).
    const proactive = events.filter(
      (e) => e.kind === 'refresh' && !events.some((o) => o.kind === '401' && o.at <= e.at && e.at - o.at < 2_000),
    );
    expect(proactive.length).toBeGreaterThanOrEqual(2);
    const me = await page.evaluate(async (token) => {
      const res = await fetch('/api/auth/user', { headers: { authorization: `Bearer ${token}` } });
      return res.status;
    }, last.access_token);
    expect([200, 401]).toContain(me); // 401 only if it expired in the last few seconds
    await page.getByRole('button', { name: 'User menu' }).click();
    await expect(page.getByText('Rita Refresh')).toBeVisible();
  });

  test('a refused refresh signs the user out cleanly', async ({ page, request }) => {
    test.setTimeout(120_000);
    const user = await createUser(request);
    await signIn(page, user);
    const session = await storedSession(page);
    // The session ends server-side (as when an admin deactivates the user or it is revoked).
    const out = await request.post('/api/auth/logout', { headers: { authorization: `Bearer ${session.access_token}` } });
    expect(out.status()).toBe(204);
    // Within one tick the refresh is refused and the app returns to /login.
    await expect(page).toHaveURL(/\/login$/, { timeout: 45_000 });
    await expect(page.getByRole('button', { name: 'Sign in with Email' })).toBeVisible();
    expect(await storedSession(page)).toBeNull();
  });
});
