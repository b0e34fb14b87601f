import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { apiAs, createUser, expect, signIn, test, type E2EUser } from './fixtures';

const port = process.env.E2E_PORT || '3100';

/** The real CLI, talking to the running server through the socket in its DATA_DIR. */
function setRole(email: string, role: 'super_admin' | 'team_member') {
  const out = execFileSync(process.execPath, ['--import', 'tsx', 'src/server/cli.ts', 'set-role', email, role], {
    env: { ...process.env, DATA_DIR: resolve('.e2e', port, 'data'), DATABASE_URL: '' },
    encoding: 'utf8',
  });
  expect(out).toContain(`${email} is now ${role}`);
}

async function makeAdmin(request: import('@playwright/test').APIRequestContext): Promise<E2EUser> {
  const admin = await createUser(request, { fullName: 'Ada Admin' });
  setRole(admin.email, 'super_admin');
  return admin;
}

test.describe('admin panel', () => {
  test('a team_member neither sees the link nor passes the /admin guard', async ({ page, request }) => {
    const member = await createUser(request);
    await signIn(page, member);
    await expect(page.getByRole('link', { name: 'Admin Panel' })).toHaveCount(0);
    await page.goto('/admin');
    await expect(page).toHaveURL(/\/dashboard$/);
    const res = await request.get('/api/admin/overview', { headers: { authorization: `Bearer ${member.accessToken}` } });
    expect(res.status()).toBe(403);
  });

  test('a super_admin (set by the CLI while the server runs) sees real figures, users and alerts', async ({ page, request }) => {
    const admin = await makeAdmin(request);
    const newest = await createUser(request, { fullName: 'Newest Nora' });
    const before = await apiAs<{ stats: { totalUsers: number } }>(request, admin, 'get', '/api/admin/overview');
    await signIn(page, admin);
    await page.getByRole('link', { name: 'Admin Panel' }).click();
    await expect(page).toHaveURL(/\/admin$/);
    await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();

    const figures = page.getByRole('region', { name: 'System figures' });
    await expect(figures.getByText('Total Users')).toBeVisible();
    // Other tests sign people up in parallel: the figure shown lies between the counts before and after.
    await expect(figures.getByText('Active Users (30 days)', { exact: true })).toBeVisible();
    const after = await apiAs<{ stats: { totalUsers: number } }>(request, admin, 'get', '/api/admin/overview');
    const allowed = Array.from(
      { length: after.stats.totalUsers - before.stats.totalUsers + 1 },
      (_, i) => before.stats.totalUsers + i,
    );
    await expect(figures.getByText(new RegExp(`^(${allowed.join('|')})$`)).first()).toBeVisible();
    for (const label of ['Active Users (30 days)', 'Teams', 'Projects', 'Tasks', 'Completed This Month']) {
      await expect(figures.getByText(label, { exact: true })).toBeVisible();
    }

    const table = page.getByRole('table', { name: 'Recent users, newest first' });
    const row = table.getByRole('row').filter({ hasText: newest.email });
    await expect(row).toContainText('Newest Nora');
    await expect(row).toContainText('team member');
    await expect(row).toContainText('Active');
    // The admin's own row offers no deactivation.
    await expect(table.getByRole('row').filter({ hasText: admin.email })).toContainText('You');

    await expect(page.getByText('Database reachable')).toBeVisible();
    await expect(page.getByText('Migrations current')).toBeVisible();
    await expect(page.getByText('Google sign-in not configured')).toBeVisible();
    // Whether this server has SMTP_URL (and so verification) is its own business: the card and the alert say which.
    await expect(page.getByText(/Email verification (is off|required)$/)).toBeVisible();
    const email = page.getByRole('region', { name: 'Email' });
    await expect(email.getByText(/^(SMTP|Log \(no SMTP_URL\))$/)).toBeVisible();
    for (const label of ['Transport', 'Queued', 'Sent (30 days)', 'Failed (30 days)', 'Last error']) {
      await expect(email.getByText(label, { exact: true })).toBeVisible();
    }
  });

  test('deactivating a user ends their session at once; reactivating lets them back in', async ({ page, browser, request }) => {
    const admin = await makeAdmin(request);
    const target = await createUser(request, { fullName: 'Dora Deactivated' });

    // The target is signed in, in another browser.
    const other = await browser.newContext();
    const targetPage = await other.newPage();
    await signIn(targetPage, target);

    await signIn(page, admin);
    await page.goto('/admin');
    await page.getByRole('searchbox', { name: 'Search users' }).fill(target.email);
    const table = page.getByRole('table', { name: 'Users matching the search' });
    await expect(table.getByRole('row')).toHaveCount(2);
    await table.getByRole('button', { name: 'Deactivate Dora Deactivated' }).click();
    const dialog = page.getByRole('dialog', { name: 'Deactivate user' });
    await expect(dialog).toContainText('They are signed out everywhere at once');
    await dialog.getByRole('button', { name: 'Deactivate' }).click();
    await expect(page.getByText('Dora Deactivated was deactivated and signed out')).toBeVisible();
    await expect(table.getByRole('row').filter({ hasText: target.email })).toContainText('Inactive');

    // Their requests are refused, and the app signs them out by itself: the server closes their event
    // stream at once, and reconnecting finds the session gone (no click needed).
    const refused = await request.get('/api/auth/user', { headers: { authorization: `Bearer ${target.accessToken}` } });
    expect(refused.status()).toBe(401);
    await expect(targetPage).toHaveURL(/\/login$/, { timeout: 15_000 });

    await table.getByRole('button', { name: 'Reactivate Dora Deactivated' }).click();
    await page.getByRole('dialog', { name: 'Reactivate user' }).getByRole('button', { name: 'Reactivate' }).click();
    await expect(page.getByText('Dora Deactivated was reactivated')).toBeVisible();
    await expect(table.getByRole('row').filter({ hasText: target.email })).toContainText('Active');
    await signIn(targetPage, target);
    await other.close();
  });
});
