import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import { MSG } from '../../src/domain/messages';
import type { AuthProvidersDto } from '../../src/domain/schemas/oidc';
import type { ProjectDto } from '../../src/domain/schemas/project';
import type { TaskDto } from '../../src/domain/schemas/task';
import type { InvitationDto, TeamDto } from '../../src/domain/schemas/team';
import { addDays, localDate } from '../../src/domain/task-filters';
import { apiAs, axeViolations, createUser, type E2EUser, expect, signIn, test } from './fixtures';

const port = process.env.E2E_PORT || '3100';

/** Runs axe on the page as it is now, prints the route/state checked, and fails on any WCAG 2.2 A/AA violation. */
async function audit(page: Page, label: string) {
  const summary = await axeViolations(page);
  console.log(`axe ${label}: ${summary.length} violations`);
  expect.soft(summary, `axe violations on ${label}`).toEqual([]);
}

const SCHEMES = ['light', 'dark'] as const;

/**
 * The page as it is now, audited in the light scheme and then the dark one (the app follows the system's by default),
 * ending in light: one walk through the states checks both themes.
 */
async function auditBoth(page: Page, label: string) {
  for (const colorScheme of SCHEMES) {
    await page.emulateMedia({ colorScheme });
    await audit(page, `${label} (${colorScheme})`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

const PUBLIC_ROUTES = ['/login', '/signup', '/forgot-password', '/reset-password', '/verify-email'];
const APP_ROUTES = [
  '/dashboard',
  '/tasks',
  '/projects',
  '/teams',
  '/notes',
  '/calendar',
  '/timesheet',
  '/analytics',
  '/settings',
  '/notifications',
  '/admin',
];

/** The real CLI, talking to the running server through the socket in its DATA_DIR. */
function makeSuperAdmin(email: string) {
  const out = execFileSync(process.execPath, ['--import', 'tsx', 'src/server/cli.ts', 'set-role', email, 'super_admin'], {
    env: { ...process.env, DATA_DIR: resolve('.e2e', port, 'data'), DATABASE_URL: '' },
    encoding: 'utf8',
  });
  expect(out).toContain(`${email} is now super_admin`);
}

async function invite(request: APIRequestContext, owner: E2EUser, teamId: string, user: E2EUser, accept: boolean) {
  const inv = await apiAs<InvitationDto>(request, owner, 'post', `/api/teams/${teamId}/invitations`, {
    email: user.email,
    role: 'member',
  });
  if (accept) await apiAs(request, user, 'post', `/api/invitations/${inv.id}/respond`, { accept: true });
}

/**
 * A super admin who owns a team with a member, two projects and tasks in every column (one overdue, tags, assignees),
 * has notifications (tasks a teammate assigned to them) and a pending invitation to another team.
 */
async function seedWorld(request: APIRequestContext) {
  const me = await createUser(request, { fullName: 'Avery Auditor' });
  const mia = await createUser(request, { fullName: 'Mia Member' });
  const zed = await createUser(request, { fullName: 'Zed Other' });
  makeSuperAdmin(me.email);
  const team = await apiAs<TeamDto>(request, me, 'post', '/api/teams', {
    name: 'Audit Crew',
    description: 'People who check things',
  });
  await invite(request, me, team.id, mia, true);
  const other = await apiAs<TeamDto>(request, zed, 'post', '/api/teams', { name: 'Zed Squad' });
  await invite(request, zed, other.id, me, false);
  const apollo = await apiAs<ProjectDto>(request, me, 'post', '/api/projects', {
    name: 'Apollo',
    teamId: team.id,
    description: 'Land on the moon',
    status: 'active',
    endDate: addDays(localDate(new Date()), 30),
  });
  await apiAs<ProjectDto>(request, me, 'post', '/api/projects', { name: 'Borealis', teamId: team.id, status: 'planning' });
  const today = localDate(new Date());
  const tasks: [string, Record<string, unknown>][] = [
    ['Write the brief', { status: 'todo', priority: 'high', dueDate: addDays(today, -2), tags: ['docs', 'q1'] }],
    ['Review the mockups', { status: 'in_progress', priority: 'medium', dueDate: today, tags: ['design'] }],
    ['Check contrast', { status: 'review', priority: 'low', dueDate: addDays(today, 5) }],
    ['Ship the beta', { status: 'completed', priority: 'high', tags: ['release'] }],
  ];
  for (const [title, body] of tasks) {
    await apiAs<TaskDto>(request, mia, 'post', '/api/tasks', {
      title,
      projectId: apollo.id,
      assigneeId: me.id,
      description: `${title} in detail`,
      ...body,
    });
  }
  return { me, mia, team };
}

async function visit(page: Page, route: string) {
  await page.goto(route);
  await expect(page.locator('main h1').first()).toBeVisible();
  // The realtime stream keeps a request open, so wait for spinners and skeletons instead of network idle.
  await expect(page.locator('main .animate-spin, main .animate-pulse')).toHaveCount(0);
}

test('the axe check fails a page that breaks the rules', async ({ page }) => {
  // The suite's own axe runner (fixtures.ts), shown to find what it is there to find: a missing text alternative, a
  // contrast below 4.5:1, and an unlabelled field; within `include`, only what is inside.
  await page.setContent(`<main><h1>Probe</h1><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">
    <p style="color:#999;background:#fff">Faint text</p><section id="form"><input type="text"></section></main>`);
  const all = (await axeViolations(page)).map((line) => line.split(':')[0]);
  expect(all).toEqual(expect.arrayContaining(['image-alt', 'color-contrast', 'label']));
  expect((await axeViolations(page, '#form')).map((line) => line.split(':')[0])).toEqual(['label']);
});

for (const scheme of ['light', 'dark'] as const) {
  test.describe(`accessibility (${scheme})`, () => {
    test.use({ colorScheme: scheme });

    test('public pages have no WCAG A/AA violations', async ({ page }) => {
      for (const route of PUBLIC_ROUTES) {
        await page.goto(route);
        await expect(page.getByRole('heading').first()).toBeVisible();
        await audit(page, `${route} (${scheme})`);
      }
      await page.goto('/login');
      await page.getByRole('button', { name: 'Sign in with Email' }).click();
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await audit(page, `/login sign-in form with errors (${scheme})`);
      await page.getByRole('button', { name: 'Back to options' }).click();
      await page.getByRole('button', { name: 'Sign up with Email' }).click();
      await audit(page, `/login sign-up form (${scheme})`);
    });

    test('toasts of every kind have no WCAG A/AA violations', async ({ page, request }) => {
      // Issue 35, item 14: the light success toast was 4.25:1 and no scan had a toast on screen. One toast at a time
      // (a fresh page for each), hovered so that sonner holds it while axe runs.
      async function auditToast(kind: 'success' | 'error' | 'info', text: string) {
        const toastEl = page.locator(`[data-sonner-toast][data-type="${kind}"]`).filter({ hasText: text });
        await expect(toastEl).toBeVisible();
        await toastEl.hover();
        await expect(page.locator('[data-sonner-toast]')).toHaveCount(1);
        const summary = await axeViolations(page, '[data-sonner-toaster]');
        console.log(`axe ${kind} toast (${scheme}): ${summary.length} violations`);
        expect.soft(summary, `axe violations on the ${kind} toast (${scheme})`).toEqual([]);
      }
      await page.goto('/login?error=server_error');
      await auditToast('error', MSG.authFailedGeneric);
      // Whether this server has Google configured or not, the page is told it has not (the info toast).
      await page.route('**/api/auth/providers', async (route) => {
        const real = (await (await route.fetch()).json()) as AuthProvidersDto;
        await route.fulfill({ json: { ...real, google: false } satisfies AuthProvidersDto });
      });
      await page.goto('/login');
      await page.getByRole('button', { name: 'Continue with Google' }).click();
      await auditToast('info', MSG.googleNotConfigured);
      await page.unroute('**/api/auth/providers');
      await signIn(page, await createUser(request));
      await auditToast('success', MSG.welcomeBack);
    });
  });
}

test.describe('accessibility of the app, light and dark', () => {
  test('empty app pages have no WCAG A/AA violations', async ({ page, request }) => {
    // Ten pages, each audited by axe: about 40 s on a quiet machine, far more on a loaded one.
    test.setTimeout(240_000);
    const user = await createUser(request);
    await signIn(page, user);
    for (const route of APP_ROUTES.filter((r) => r !== '/admin')) {
      await visit(page, route);
      await auditBoth(page, `${route} empty`);
    }
  });

  test('seeded pages, menus, modals and dialogs have no WCAG A/AA violations', async ({ page, request }) => {
    test.setTimeout(480_000);
    const { me } = await seedWorld(request);
    await signIn(page, me);
    for (const route of APP_ROUTES) {
      await visit(page, route);
      await auditBoth(page, `${route} with data`);
    }

    // Menus.
    await visit(page, '/dashboard');
    await page.getByRole('button', { name: 'User menu' }).click();
    await expect(page.getByRole('menu')).toBeVisible();
    await auditBoth(page, `user menu`);
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: /^Notifications/ }).click();
    await expect(page.getByRole('menu')).toBeVisible();
    await auditBoth(page, `notifications menu with items`);
    await page.keyboard.press('Escape');

    // Teams: New Team with errors, the team modal with members, confirmations.
    await visit(page, '/teams');
    await page.getByRole('button', { name: 'New Team' }).click();
    const newTeam = page.getByRole('dialog', { name: 'Create New Team' });
    await newTeam.getByRole('button', { name: 'Create Team' }).click();
    await expect(newTeam.getByLabel('Team Name')).toHaveAttribute('aria-invalid', 'true');
    await auditBoth(page, `/teams New Team modal with errors`);
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Audit Crew' }).click();
    const editTeam = page.getByRole('dialog', { name: 'Edit Team' });
    await expect(editTeam.getByLabel('Role for Mia Member')).toBeVisible();
    await auditBoth(page, `/teams team modal with members and invitations`);
    await editTeam.getByRole('button', { name: 'Remove Mia Member' }).click();
    await expect(page.getByRole('dialog', { name: 'Remove Member' })).toBeVisible();
    await auditBoth(page, `/teams Remove Member confirmation`);
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog', { name: 'Remove Member' })).toBeHidden();
    await editTeam.getByRole('button', { name: 'Delete Team' }).click();
    await expect(page.getByRole('dialog', { name: 'Delete Team' })).toBeVisible();
    await auditBoth(page, `/teams Delete Team confirmation`);
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');

    // Projects: New Project with errors, edit modal, delete confirmation, list view.
    await visit(page, '/projects');
    await page.getByRole('button', { name: 'New Project' }).click();
    const newProject = page.getByRole('dialog', { name: 'Create New Project' });
    await newProject.getByRole('button', { name: 'Create Project' }).click();
    await expect(newProject.getByLabel('Project Name')).toHaveAttribute('aria-invalid', 'true');
    await auditBoth(page, `/projects New Project modal with errors`);
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Edit Apollo' }).click();
    const editProject = page.getByRole('dialog', { name: 'Edit Project' });
    await expect(editProject.getByLabel('Project Name')).toHaveValue('Apollo');
    await auditBoth(page, `/projects Edit Project modal`);
    await editProject.getByRole('button', { name: /^Delete/ }).click();
    await expect(page.getByRole('dialog', { name: 'Delete Project' })).toBeVisible();
    await auditBoth(page, `/projects Delete Project confirmation`);
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'List View' }).click();
    await expect(page.getByRole('table')).toBeVisible();
    await auditBoth(page, `/projects list view`);

    // Tasks: board with cards, filter panel, New Task with errors, task edit, delete confirmation, list view.
    await visit(page, '/tasks');
    await expect(page.getByTestId('task-card').first()).toBeVisible();
    await auditBoth(page, `/tasks board with cards`);
    await page.getByRole('button', { name: 'More Filters' }).click();
    await expect(page.getByRole('region', { name: 'Filters' })).toBeVisible();
    await page.getByRole('region', { name: 'Filters' }).getByLabel('Priority').selectOption('high');
    await expect(page.getByRole('list', { name: 'Active filters' })).toBeVisible();
    await auditBoth(page, `/tasks filter panel with active filters`);
    await page.getByRole('button', { name: 'Clear All' }).click();
    await page.getByRole('button', { name: 'New Task' }).click();
    const newTask = page.getByRole('dialog', { name: 'Create New Task' });
    await newTask.getByLabel('Title').fill(' ');
    await newTask.getByRole('button', { name: 'Create Task' }).click();
    await expect(newTask.getByLabel('Title')).toHaveAttribute('aria-invalid', 'true');
    await auditBoth(page, `/tasks New Task modal with errors`);
    await page.keyboard.press('Escape');
    await page.getByTestId('task-card').filter({ hasText: 'Write the brief' }).click();
    const editTask = page.getByRole('dialog', { name: 'Edit Task' });
    await expect(editTask.getByLabel('Title')).toHaveValue('Write the brief');
    await auditBoth(page, `/tasks Edit Task modal`);
    await editTask.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByRole('dialog', { name: 'Delete Task' })).toBeVisible();
    await auditBoth(page, `/tasks Delete Task confirmation`);
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'List', exact: true }).click();
    await expect(page.getByRole('table')).toBeVisible();
    await auditBoth(page, `/tasks list view`);

    // Quick Add from the sidebar.
    await visit(page, '/dashboard');
    await page.getByRole('button', { name: 'Quick Add' }).click();
    await expect(page.getByRole('dialog', { name: 'Create New Task' })).toBeVisible();
    await auditBoth(page, `Quick Add modal`);
    await page.keyboard.press('Escape');
  });
});

test.describe('small screens and zoom', () => {
  /**
   * Pictures of every page at both sizes in both themes, for a person to look at (E2E_SHOTS=0 or CI: none; nobody opens
   * them there, and a full-page picture costs the browser more than checking the page).
   */
  const SHOTS = process.env.E2E_SHOTS === '0' || (process.env.CI && process.env.E2E_SHOTS !== '1') ? null : '/tmp/a11y-shots';

  /**
   * Content wider than the viewport means a horizontal scrollbar on the page or in <main>: content lost at 390 px or
   * 200% zoom. (The board's columns scroll sideways inside their own region by design.)
   */
  async function expectNoPageOverflow(page: Page, label: string) {
    const widths = await page.evaluate(() =>
      [document.documentElement, document.getElementById('main')]
        .filter((el): el is HTMLElement => el !== null)
        .map((el) => ({ scroll: el.scrollWidth, client: el.clientWidth })),
    );
    console.log(`width ${label}: ${widths.map((w) => `content ${w.scroll}px in ${w.client}px`).join(', ')}`);
    for (const { scroll, client } of widths) expect.soft(scroll, `${label} overflows horizontally`).toBeLessThanOrEqual(client);
  }

  /** <main> scrolls inside a screen-high shell, so grow the window to its content for a whole-page picture. */
  async function shoot(page: Page, name: string) {
    if (!SHOTS) return;
    const size = page.viewportSize();
    if (!size) throw new Error('no viewport');
    const height = await page.evaluate(() => {
      const main = document.getElementById('main');
      return main ? main.scrollHeight - main.clientHeight + window.innerHeight : document.documentElement.scrollHeight;
    });
    await page.setViewportSize({ width: size.width, height: Math.max(size.height, height) });
    await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
    await page.setViewportSize(size);
  }

  for (const scheme of SCHEMES) {
    // The layout is the same in both themes: widths are checked in light; dark audits the open sidebar (and takes the
    // pictures, when there are pictures to take).
    const walkPages = scheme === 'light' || SHOTS !== null;
    test(`every page fits 390 px and 200% zoom (${scheme})`, async ({ browser, request }) => {
      test.setTimeout(480_000);
      if (SHOTS) mkdirSync(SHOTS, { recursive: true });
      const { me } = await seedWorld(request);
      // 390 px: a phone. 640 x 400 CSS px: a 1280 x 800 window at 200% zoom.
      for (const viewport of [
        { width: 390, height: 844 },
        { width: 640, height: 400 },
      ]) {
        const context = await browser.newContext({ viewport, colorScheme: scheme });
        const page = await context.newPage();
        const tag = `${viewport.width}-${scheme}`;
        for (const route of walkPages ? PUBLIC_ROUTES : []) {
          await page.goto(route);
          await expect(page.getByRole('heading').first()).toBeVisible();
          await expectNoPageOverflow(page, `${route} ${tag}`);
          await shoot(page, `${tag}${route.replace('/', '-')}`);
        }
        await signIn(page, me);
        for (const route of walkPages ? APP_ROUTES : []) {
          await visit(page, route);
          await expectNoPageOverflow(page, `${route} ${tag}`);
          await shoot(page, `${tag}${route.replace('/', '-')}`);
        }
        if (viewport.width < 1024) {
          const toggle = page.getByRole('button', { name: 'Toggle sidebar' });
          await toggle.click();
          await expect(toggle).toHaveAttribute('aria-expanded', 'true');
          await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
          await audit(page, `sidebar open at ${tag}`);
          if (SHOTS) await page.screenshot({ path: `${SHOTS}/${tag}-sidebar.png` });
          await page.keyboard.press('Escape');
          await expect(toggle).toHaveAttribute('aria-expanded', 'false');
        }
        if (walkPages) {
          await visit(page, '/tasks');
          await page.getByTestId('task-card').filter({ hasText: 'Write the brief' }).click();
          await expect(page.getByRole('dialog', { name: 'Edit Task' })).toBeVisible();
          await expectNoPageOverflow(page, `task modal ${tag}`);
          if (SHOTS) await page.screenshot({ path: `${SHOTS}/${tag}-task-modal.png` });
          await page.keyboard.press('Escape');
          await visit(page, '/teams');
          await page.getByRole('button', { name: 'Audit Crew' }).click();
          await expect(page.getByRole('dialog', { name: 'Edit Team' })).toBeVisible();
          await expectNoPageOverflow(page, `team modal ${tag}`);
          if (SHOTS) await page.screenshot({ path: `${SHOTS}/${tag}-team-modal.png` });
        }
        await context.close();
      }
    });
  }
});
