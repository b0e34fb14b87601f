import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Page } from '@playwright/test';
import type { TeamDto } from '../../src/domain/schemas/team';
import { apiAs, axeViolations, createUser, expect, signIn, test, uniqueEmail } from './fixtures';

const port = process.env.E2E_PORT || '3100';
const shots = process.env.AUDIT_SHOTS;

/** The real CLI, through the running server's socket (its set-role is audited too). */
function setRole(email: string, role: 'super_admin' | 'team_member') {
  const out = execFileSync(process.execPath, ['--import', 'tsx', 'src/server/cli.ts', 'set-role', email, role], {
    env: { ...process.env, DATA_DIR: resolve('.e2e', port, 'data'), DATABASE_URL: '' },
    encoding: 'utf8',
  });
  expect(out).toContain(`${email} is now ${role}`);
}

async function settled(page: Page) {
  await expect(page.locator('main .animate-spin, main .animate-pulse')).toHaveCount(0);
}

async function shot(page: Page, name: string) {
  if (!shots) return;
  mkdirSync(shots, { recursive: true });
  await page.locator('[data-audit-log]').screenshot({ path: `${shots}/${name}.png` });
}

test.describe('audit log', () => {
  test("an owner sees the team's audit rows on its settings page after inviting someone; axe light and dark", async ({
    page,
    request,
  }) => {
    const owner = await createUser(request, { fullName: 'Olive Owner' });
    const team = await apiAs<TeamDto>(request, owner, 'post', '/api/teams', { name: 'Audited Crew' });
    const invitee = uniqueEmail('invitee');
    await signIn(page, owner);
    await page.goto(`/teams/${team.id}/settings`);
    const section = page.getByRole('region', { name: 'Audit log' });
    await expect(section.getByText('No audit entries yet')).toBeVisible();

    await apiAs(request, owner, 'post', `/api/teams/${team.id}/invitations`, { email: invitee, role: 'admin' });
    await page.reload();
    const table = section.getByRole('table', { name: 'Audit log, newest first' });
    const row = table.getByRole('row').filter({ hasText: 'Invitation sent' });
    await expect(row).toContainText(owner.email);
    await expect(row).toContainText(invitee);
    await expect(row).toContainText('invitation');
    await expect(row.getByRole('cell').nth(4)).toHaveText(/\d|:/);
    await expect(table.getByRole('columnheader')).toHaveText(['Time', 'Actor', 'Action', 'Target', 'IP']);

    // The action filter: a team's log offers only team actions.
    const action = section.getByLabel('Action');
    await expect(action.locator('option', { hasText: 'Signed in' })).toHaveCount(0);
    await action.selectOption({ label: 'Team deleted' });
    await expect(section.getByText('No entries match these filters')).toBeVisible();
    await action.selectOption({ label: 'All actions' });
    await expect(row).toBeVisible();

    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await settled(page);
      // The section this feature owns (the page around it is checked by its own spec).
      expect(await axeViolations(page, '[data-audit-log]'), scheme).toEqual([]);
      await shot(page, `team-${scheme}`);
    }
    await page.setViewportSize({ width: 390, height: 844 });
    await settled(page);
    expect(await axeViolations(page, '[data-audit-log]'), '390 px').toEqual([]);
    await shot(page, 'team-390');
  });

  test('a member does not see the section, and the API refuses them', async ({ page, request }) => {
    const owner = await createUser(request);
    const member = await createUser(request, { fullName: 'Mia Member' });
    const team = await apiAs<TeamDto>(request, owner, 'post', '/api/teams', { name: 'Members Only' });
    const inv = await apiAs<{ id: string }>(request, owner, 'post', `/api/teams/${team.id}/invitations`, {
      email: member.email,
    });
    await apiAs(request, member, 'post', `/api/invitations/${inv.id}/respond`, { accept: true });
    await signIn(page, member);
    await page.goto(`/teams/${team.id}/settings`);
    await expect(page.getByRole('heading', { name: 'Members Only settings' })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Audit log' })).toHaveCount(0);
    const res = await request.get(`/api/teams/${team.id}/audit`, { headers: { authorization: `Bearer ${member.accessToken}` } });
    expect(res.status()).toBe(403);
  });

  test('a super admin reads the admin panel audit log, filters by action, loads more and downloads the CSV; axe light and dark', async ({
    page,
    request,
  }) => {
    const admin = await createUser(request, { fullName: 'Ada Admin' });
    setRole(admin.email, 'super_admin');
    const target = await createUser(request, { fullName: 'Deactivated Dan' });
    await apiAs(request, admin, 'patch', `/api/admin/users/${target.id}`, { isActive: false });
    // A failed sign-in, named by the address tried.
    const bad = await request.post('/api/auth/token?grant_type=password', {
      data: { email: target.email, password: 'wrong guess 1' },
    });
    expect(bad.status()).toBeGreaterThanOrEqual(400);

    await signIn(page, admin);
    await page.goto('/admin');
    const section = page.getByRole('region', { name: 'Audit log' });
    const table = section.getByRole('table', { name: 'Audit log, newest first' });
    await expect(table.getByRole('row').filter({ hasText: 'Signed in' }).first()).toBeVisible();

    await section.getByLabel('Action').selectOption({ label: 'User deactivated' });
    const deactivated = table.getByRole('row').filter({ hasText: target.email });
    await expect(deactivated).toContainText('User deactivated');
    await expect(deactivated).toContainText(admin.email);
    await expect(table.getByRole('row').filter({ hasText: 'Signed in' })).toHaveCount(0);

    await section.getByLabel('Action').selectOption({ label: 'System role set' });
    const roleSet = table.getByRole('row').filter({ hasText: admin.email });
    await expect(roleSet).toContainText('Command line');

    await section.getByLabel('Action').selectOption({ label: 'All actions' });
    await section.getByLabel('Actor').fill(target.email);
    // Applied once typing pauses: then every row is the target's.
    await expect(table.locator('tbody tr').filter({ hasNotText: target.email })).toHaveCount(0);
    await expect(table.getByRole('row').filter({ hasText: 'Sign-in failed' })).toBeVisible();

    // Download CSV: the rows the filters match.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      section.getByRole('button', { name: 'Download CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('crewboard-audit.csv');
    const csv = readFileSync(await download.path(), 'utf8');
    const lines = csv.trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'id,time,action,action_label,actor_id,actor_email,ip,team_id,target_type,target_id,target_label,details',
    );
    expect(csv).toContain('auth.sign_in_failed');
    expect(lines.slice(1).every((l) => l.includes(target.email))).toBe(true);

    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await settled(page);
      expect(await axeViolations(page, 'main'), scheme).toEqual([]);
      await shot(page, `admin-${scheme}`);
    }

    // Load more: more than one page of this admin's own sign-ins.
    await section.getByLabel('Actor').fill('');
    for (let i = 0; i < 50; i++) {
      await request.post('/api/auth/token?grant_type=password', { data: { email: admin.email, password: admin.password } });
    }
    await page.reload();
    await section.getByLabel('Action').selectOption({ label: 'Signed in' });
    await expect(table.locator('tbody tr')).toHaveCount(50);
    await section.getByRole('button', { name: 'Load more' }).click();
    await expect.poll(() => table.locator('tbody tr').count()).toBeGreaterThan(50);
  });
});
