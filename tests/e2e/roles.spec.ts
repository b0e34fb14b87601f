import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { longDayLabel } from '../../src/domain/calendar';
import type { InvitationRole } from '../../src/domain/constants';
import type { ProjectDto } from '../../src/domain/schemas/project';
import type { TaskDto } from '../../src/domain/schemas/task';
import type { InvitationDto, TeamDto } from '../../src/domain/schemas/team';
import { apiAs, axeViolations, card, column, createUser, type E2EUser, expect, shotsDir, signIn, test } from './fixtures';

/**
 * Issue 41, the web client of the viewer and guest roles: a viewer reads the board and moves nothing (and the server
 * refuses a forged move), a guest sees only the projects they were added to, 'Add guest' on the project settings page,
 * and the team's access switches. axe on the new sections in both themes and at 390 px.
 */

const shots = shotsDir('roles');

/** `user` joins the team with `role`: invited by `owner`, accepted. */
async function joinAs(request: APIRequestContext, owner: E2EUser, teamId: string, user: E2EUser, role: InvitationRole) {
  const inv = await apiAs<InvitationDto>(request, owner, 'post', `/api/teams/${teamId}/invitations`, { email: user.email, role });
  await apiAs(request, user, 'post', `/api/invitations/${inv.id}/respond`, { accept: true });
}

async function seedTeam(request: APIRequestContext, name: string) {
  const owner = await createUser(request, { fullName: 'Olive Owner' });
  const team = await apiAs<TeamDto>(request, owner, 'post', '/api/teams', { name });
  return { owner, team };
}

const newProject = (request: APIRequestContext, owner: E2EUser, teamId: string, name: string) =>
  apiAs<ProjectDto>(request, owner, 'post', '/api/projects', { name, teamId, status: 'active' });

const newTask = (request: APIRequestContext, owner: E2EUser, projectId: string, title: string, assigneeId?: string) =>
  apiAs<TaskDto>(request, owner, 'post', '/api/tasks', {
    title,
    projectId,
    status: 'todo',
    ...(assigneeId ? { assigneeId } : {}),
  });

/** A mouse drag of `from` to the middle of `to`, in small steps (dnd-kit's pointer sensor needs a few px to start). */
async function mouseDrag(page: Page, from: Locator, to: Locator) {
  const a = await from.boundingBox();
  const b = await to.boundingBox();
  if (!a || !b) throw new Error('nothing to drag');
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(a.x + a.width / 2 + 20, a.y + a.height / 2 + 10, { steps: 5 });
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 15 });
  await page.mouse.up();
}

/**
 * axe on one section (by its heading's id) in the light and dark scheme, at the page's width and then at 390 px (loaded
 * again there, so the sidebar starts closed as on a phone); nothing wider than the screen; a picture of the section.
 */
async function auditSection(page: Page, headingId: string, label: string) {
  const section = page.locator(`section[aria-labelledby="${headingId}"]`);
  const size = page.viewportSize() ?? { width: 1280, height: 720 };
  for (const width of [size.width, 390]) {
    if (width !== size.width) {
      await page.setViewportSize({ width, height: 844 });
      await page.reload();
    }
    await expect(section).toBeVisible();
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      const where = `${label} (${colorScheme}, ${width} px)`;
      expect.soft(await axeViolations(page, `section[aria-labelledby="${headingId}"]`), `axe violations on ${where}`).toEqual([]);
      const overflow = await page.evaluate(() =>
        [document.documentElement, document.getElementById('main')].map((el) => (el ? el.scrollWidth - el.clientWidth : 0)),
      );
      expect.soft(Math.max(...overflow), `${where} is wider than the screen`).toBeLessThanOrEqual(0);
      if (shots) await section.screenshot({ path: `${shots}/${label}-${colorScheme}-${width}.png` });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize(size);
  await page.reload();
  await expect(section).toBeVisible();
}

/** The calendar's month of the tasks these tests put on it, and their due date. */
const DUE = '2031-03-20';

/** A task on the calendar: a chip in the month's grid, a link in a phone's agenda. */
const calendarTask = (page: Page, task: TaskDto) =>
  page
    .getByTestId(/^calendar-task(-link)?$/)
    .filter({ hasText: task.title })
    .first();

/**
 * Whether `page`'s user is offered 'New Task' where no project scopes it: the sidebar's Quick Add, the command palette's
 * 'New Task' (Ctrl+K; its New Project and New Note too), and a calendar day's '+' (the filtered project's too); the board's 'New Task' and its columns'
 * 'Add task to …' in `project`. Offered: each opens the New Task form.
 */
async function expectTaskCreation(page: Page, project: ProjectDto, task: TaskDto, offered: boolean) {
  const count = offered ? 1 : 0;
  const form = page.getByRole('dialog', { name: 'Create New Task' });
  await page.goto(`/tasks?project=${project.id}`);
  await expect(card(column(page, 'todo'), task.title)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Quick Add' })).toHaveCount(count);
  await expect(page.getByRole('button', { name: 'New Task' })).toHaveCount(count);
  await expect(page.getByRole('button', { name: 'Add task to To Do' })).toHaveCount(count);
  if (offered) {
    await page.getByRole('button', { name: 'Quick Add' }).click();
    await expect(form).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(form).toBeHidden();
  }

  const palette = page.getByRole('dialog', { name: 'Search' });
  await page.keyboard.press('Control+k');
  await expect(palette.getByRole('option').filter({ hasText: 'Go to Projects' })).toBeVisible();
  const newTask = palette.getByRole('option').filter({ hasText: /^New Task$/ });
  await expect(newTask).toHaveCount(count);
  // New Project and New Note add to a team as New Task does; New Team is everyone's.
  await expect(palette.getByRole('option').filter({ hasText: /^New (Project|Note)$/ })).toHaveCount(2 * count);
  await expect(palette.getByRole('option').filter({ hasText: /^New Team$/ })).toHaveCount(1);
  if (offered) {
    await newTask.click();
    await expect(form).toBeVisible();
  }
  await page.keyboard.press('Escape');
  await expect(palette).toBeHidden();
  await expect(form).toBeHidden();

  for (const filter of ['', `&project=${project.id}`]) {
    await page.goto(`/calendar?view=month&date=${DUE}${filter}`);
    await expect(calendarTask(page, task)).toBeVisible();
    await expect(page.getByRole('button', { name: `Add task on ${longDayLabel(DUE)}` })).toHaveCount(count);
  }
  if (offered) {
    await page.getByRole('button', { name: `Add task on ${longDayLabel(DUE)}` }).click();
    await expect(form.getByLabel('Due Date')).toHaveValue(DUE);
    await page.keyboard.press('Escape');
    await expect(form).toBeHidden();
  }
}

test.describe('viewer and guest roles (issue 41)', () => {
  test('a viewer reads the board: no New Task, no drag, a forged move is refused, the task opens read-only', async ({
    page,
    request,
  }) => {
    const { owner, team } = await seedTeam(request, 'Viewing Crew');
    const viewer = await createUser(request, { fullName: 'Vera Viewer' });
    await joinAs(request, owner, team.id, viewer, 'viewer');
    const project = await newProject(request, owner, team.id, 'Glass Garden');
    const task = await newTask(request, owner, project.id, 'Polish the panes');

    await signIn(page, viewer);
    await page.goto(`/tasks?project=${project.id}`);
    const todo = column(page, 'todo');
    const target = card(todo, task.title);
    await expect(target).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Tasks', exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'New Task' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: /^Add task to / })).toHaveCount(0);
    // Not a draggable: no role description, no drag instructions.
    await expect(target).not.toHaveAttribute('aria-roledescription', 'draggable');
    if (shots) await page.screenshot({ path: `${shots}/viewer-board.png`, fullPage: true });

    // A drag by mouse and one by keyboard change nothing.
    await mouseDrag(page, target, column(page, 'review'));
    await target.focus();
    await page.keyboard.press('Space');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Space');
    await expect(card(todo, task.title)).toBeVisible();
    await expect(card(column(page, 'review'), task.title)).toHaveCount(0);
    expect((await apiAs<TaskDto>(request, owner, 'get', `/api/tasks/${task.id}`)).status).toBe('todo');

    // The server refuses the move whatever the page shows.
    const forged = await request.patch(`/api/tasks/${task.id}/status`, {
      data: { status: 'review' },
      headers: { authorization: `Bearer ${viewer.accessToken}` },
    });
    expect(forged.status()).toBe(403);
    expect((await apiAs<TaskDto>(request, owner, 'get', `/api/tasks/${task.id}`)).status).toBe('todo');

    // The task opens read-only: its fields take no input, there is no 'Update Task'; the comment box is there while the
    // team lets viewers comment (the default).
    await page.keyboard.press('Escape');
    await card(todo, task.title).click();
    const dialog = page.getByRole('dialog', { name: 'View Task' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByText('You can view this task but not change it.')).toBeVisible();
    await expect(dialog.getByLabel('Title')).toBeDisabled();
    await expect(dialog.getByRole('button', { name: 'Update Task' })).toHaveCount(0);
    await expect(dialog.getByLabel('Add a comment')).toBeVisible();
    if (shots) await page.screenshot({ path: `${shots}/viewer-task.png`, fullPage: true });
    await dialog.getByRole('button', { name: 'Close' }).last().click();

    // With 'Viewers may comment' off, there is no comment box.
    await apiAs(request, owner, 'patch', `/api/teams/${team.id}/access`, { viewersMayComment: false });
    await page.reload();
    await card(column(page, 'todo'), task.title).click();
    const again = page.getByRole('dialog', { name: 'View Task' });
    await expect(again.getByText('You can view this task but not change it.')).toBeVisible();
    await expect(again.getByLabel('Add a comment')).toHaveCount(0);
  });

  test("a viewer is offered no way to add a task (Quick Add, the palette's 'New Task', a calendar day's '+'); a member is", async ({
    browser,
    page,
    request,
  }) => {
    const { owner, team } = await seedTeam(request, 'Onlooking Crew');
    const viewer = await createUser(request, { fullName: 'Val Viewer' });
    const member = await createUser(request, { fullName: 'Max Member' });
    await joinAs(request, owner, team.id, viewer, 'viewer');
    await joinAs(request, owner, team.id, member, 'member');
    const project = await newProject(request, owner, team.id, 'Quiet Quarry');
    const task = await apiAs<TaskDto>(request, owner, 'post', '/api/tasks', {
      title: 'Split the stones',
      projectId: project.id,
      status: 'todo',
      dueDate: DUE,
    });
    await signIn(page, viewer);
    await expectTaskCreation(page, project, task, false);

    // Nor on a phone: the calendar's agenda has no '+' either. Pictures of the viewer's board and calendar.
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
      for (const colorScheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme });
        await page.goto(`/tasks?project=${project.id}`);
        await expect(card(column(page, 'todo'), task.title)).toBeVisible();
        await expect(page.getByRole('button', { name: 'New Task' })).toHaveCount(0);
        if (shots) await page.screenshot({ path: `${shots}/viewer-board-${colorScheme}-${width}.png`, fullPage: true });
        await page.goto(`/calendar?view=month&date=${DUE}`);
        await expect(calendarTask(page, task)).toBeVisible();
        await expect(page.getByRole('button', { name: /^Add task on / })).toHaveCount(0);
        expect
          .soft(await axeViolations(page), `axe violations on the viewer's calendar (${colorScheme}, ${width} px)`)
          .toEqual([]);
        if (shots) await page.screenshot({ path: `${shots}/viewer-calendar-${colorScheme}-${width}.png`, fullPage: true });
      }
    }
    await page.emulateMedia({ colorScheme: 'light' });

    // A member of the same team keeps every one of them.
    const other = await browser.newContext();
    const memberPage = await other.newPage();
    await signIn(memberPage, member);
    await expectTaskCreation(memberPage, project, task, true);
    await other.close();
  });

  test('a guest sees only their project, and moves only the task assigned to them', async ({ page, request }) => {
    const { owner, team } = await seedTeam(request, 'Guest Crew');
    const guest = await createUser(request, { fullName: 'Gus Guest' });
    await joinAs(request, owner, team.id, guest, 'guest');
    const shared = await newProject(request, owner, team.id, 'Open Orchard');
    const hidden = await newProject(request, owner, team.id, 'Secret Vault');
    const mine = await newTask(request, owner, shared.id, 'Prune the pears', guest.id);
    const theirs = await newTask(request, owner, shared.id, 'Count the apples');
    const secret = await newTask(request, owner, hidden.id, 'Open the vault');
    await apiAs(request, owner, 'post', `/api/projects/${shared.id}/guests`, { userId: guest.id });

    await signIn(page, guest);
    await page.goto('/projects');
    await expect(page.getByText(shared.name).first()).toBeVisible();
    await expect(page.getByText(hidden.name)).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'New Project' })).toHaveCount(0);
    if (shots) await page.screenshot({ path: `${shots}/guest-projects.png`, fullPage: true });

    await page.goto('/tasks');
    await expect(card(page, mine.title)).toBeVisible();
    await expect(card(page, theirs.title)).toBeVisible();
    await expect(card(page, secret.title)).toHaveCount(0);
    await expect(page.getByText(hidden.name)).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'New Task' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Quick Add' })).toHaveCount(0);
    // Their own task moves; another's does not.
    await expect(card(page, mine.title)).toHaveAttribute('aria-roledescription', 'draggable');
    await expect(card(page, theirs.title)).not.toHaveAttribute('aria-roledescription', 'draggable');
    // Nor does the sidebar or any list name the other project.
    await expect(page.getByRole('navigation', { name: 'Main' }).getByText(hidden.name)).toHaveCount(0);
    if (shots) await page.screenshot({ path: `${shots}/guest-board.png`, fullPage: true });

    // Their own task opens to be changed, without 'Add sub-task' (a sub-task is a new task, which a guest may not add).
    await card(page, mine.title).click();
    const own = page.getByRole('dialog', { name: 'Edit Task' });
    await expect(own.getByRole('heading', { name: 'Sub-tasks' })).toBeVisible();
    await expect(own.getByText('No sub-tasks yet.')).toBeVisible();
    await expect(own.getByLabel('Add sub-task')).toHaveCount(0);
    await page.keyboard.press('Escape');
    await expect(own).toBeHidden();

    // The other project's task is out of reach by its URL too.
    await page.goto(`/tasks/${secret.id}`);
    await expect(page.getByRole('dialog', { name: 'Task not found' })).toBeVisible();
  });

  test("'Add guest' on the project settings page, and remove", async ({ browser, page, request }) => {
    const { owner, team } = await seedTeam(request, 'Hosting Crew');
    const guest = await createUser(request, { fullName: 'Gail Guest' });
    const member = await createUser(request, { fullName: 'Mo Member' });
    await joinAs(request, owner, team.id, guest, 'guest');
    await joinAs(request, owner, team.id, member, 'member');
    const project = await newProject(request, owner, team.id, 'Guest House');

    await signIn(page, owner);
    await page.goto(`/projects/${project.id}/settings`);
    const section = page.getByRole('region', { name: 'Guests' });
    // (Generous: the guests load after the project, on a machine the other suites share.)
    await expect(section.getByText('No guests have been added to this project.')).toBeVisible({ timeout: 30_000 });
    const choice = section.getByLabel('Guest to add');
    // Only the team's guests are offered.
    await expect(choice.getByRole('option', { name: /Gail Guest/ })).toHaveCount(1);
    await expect(choice.getByRole('option', { name: /Mo Member/ })).toHaveCount(0);
    await expect(section.getByRole('button', { name: 'Add guest' })).toBeDisabled();
    await auditSection(page, 'project-guests-heading', 'guests-empty');

    await choice.selectOption({ label: `Gail Guest (${guest.email})` });
    await section.getByRole('button', { name: 'Add guest' }).click();
    await expect(section.getByRole('list', { name: `Guests of ${project.name}` }).getByText('Gail Guest')).toBeVisible();
    const listed = await apiAs<{ guests: { userId: string }[] }>(request, owner, 'get', `/api/projects/${project.id}/guests`);
    expect(listed.guests.map((g) => g.userId)).toEqual([guest.id]);
    // Every guest is added: nothing left to choose.
    await expect(section.getByLabel('Guest to add')).toHaveCount(0);
    await auditSection(page, 'project-guests-heading', 'guests-added');

    await section.getByRole('button', { name: 'Remove Gail Guest' }).click();
    await expect(section.getByText('No guests have been added to this project.')).toBeVisible();
    const after = await apiAs<{ guests: unknown[] }>(request, owner, 'get', `/api/projects/${project.id}/guests`);
    expect(after.guests).toEqual([]);

    // A member sees no Guests section (owner and admins only).
    const other = await browser.newContext();
    const memberPage = await other.newPage();
    await signIn(memberPage, member);
    await memberPage.goto(`/projects/${project.id}/settings`);
    await expect(memberPage.getByRole('heading', { name: `${project.name} settings` })).toBeVisible();
    await expect(memberPage.getByRole('region', { name: 'Guests' })).toHaveCount(0);
    await other.close();
  });

  test("team settings: 'Viewers may comment' and 'Require single sign-on'", async ({ page, request }) => {
    const { owner, team } = await seedTeam(request, 'Access Crew');
    await signIn(page, owner);
    await page.goto(`/teams/${team.id}/settings`);
    const section = page.getByRole('region', { name: 'Access' });
    const comment = section.getByRole('switch', { name: 'Viewers may comment' });
    const sso = section.getByRole('switch', { name: 'Require single sign-on' });
    // Viewers may comment unless the team says otherwise; single sign-on is not required until it does.
    await expect(comment).toHaveAttribute('aria-checked', 'true');
    await expect(sso).toHaveAttribute('aria-checked', 'false');
    await auditSection(page, 'team-access-heading', 'team-access-default');

    await comment.click();
    await expect(comment).toHaveAttribute('aria-checked', 'false');
    await expect
      .poll(async () => (await apiAs<TeamDto>(request, owner, 'get', `/api/teams/${team.id}`)).viewersMayComment)
      .toBe(false);
    await page.reload();
    await expect(page.getByRole('switch', { name: 'Viewers may comment' })).toHaveAttribute('aria-checked', 'false');
    await auditSection(page, 'team-access-heading', 'team-access-changed');

    // This server has no single sign-on: requiring it is refused (nobody could open the team again), and the switch
    // says why instead of offering it. saml.spec.ts requires it on a server with an IdP and sees the team locked.
    await expect(sso).toBeDisabled();
    await expect(sso).toHaveAccessibleDescription('Set up single sign-on on this server before a team requires it.');
    const refused = await request.patch(`/api/teams/${team.id}/access`, {
      data: { requiresSso: true },
      headers: { authorization: `Bearer ${owner.accessToken}` },
    });
    expect(refused.status()).toBe(400);
    expect((await apiAs<TeamDto>(request, owner, 'get', `/api/teams/${team.id}`)).requiresSso).toBe(false);
  });

  test('invitations and role changes offer Viewer and Guest', async ({ page, request }) => {
    const { owner, team } = await seedTeam(request, 'Roles Crew');
    const mo = await createUser(request, { fullName: 'Mo Member' });
    await joinAs(request, owner, team.id, mo, 'member');
    await signIn(page, owner);
    await page.goto('/teams');
    await page.getByRole('button', { name: 'Roles Crew' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Team' });
    const inviteRole = dialog.getByLabel('Invitation role');
    for (const label of ['Member', 'Admin', 'Viewer', 'Guest']) {
      await expect(inviteRole.getByRole('option', { name: label, exact: true })).toHaveCount(1);
    }
    await dialog.getByLabel('Role for Mo Member').selectOption('viewer');
    await expect
      .poll(
        async () =>
          (await apiAs<TeamDto>(request, owner, 'get', `/api/teams/${team.id}`)).members.find((m) => m.userId === mo.id)?.role,
      )
      .toBe('viewer');
  });
});
