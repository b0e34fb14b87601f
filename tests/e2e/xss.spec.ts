import type { Page } from '@playwright/test';
import { apiAs, createUser, expect, requestSentinel, signIn, test, type E2EUser } from './fixtures';
import { MARKDOWN, PAYLOADS } from './xss-payloads';

/**
 * Stored XSS: hostile strings stored as team, project and task names, descriptions, tags and
 * member names must render as text everywhere they appear — cards, modals, the dashboard,
 * notifications, confirmation prompts. Any execution sets window.__xss or opens a dialog; any
 * injected element carries a data-xss attribute.
 */

/** Tags hold at most 40 characters: `__xss=1` at global scope sets window.__xss too. */
const SHORT: string[] = [
  '<img data-xss src=x onerror=__xss=1>',
  '<svg data-xss onload=__xss=1>',
  '"><b data-xss>tag</b>',
  '<script>__xss=1</script>',
];

interface World {
  owner: E2EUser;
  teamName: string;
  memberNames: string[];
  taskTitles: string[];
  projectNames: string[];
  /** The team whose invitation the owner has open. */
  invitingTeamName: string;
  /** The task whose description and comments carry every payload, HTML and Markdown. */
  markdownTaskTitle: string;
  ownerName: string;
}

async function seed(request: Parameters<typeof createUser>[0]): Promise<World> {
  const name = (s: string) => `X ${s}`.slice(0, 100);
  const owner = await createUser(request, { fullName: name(PAYLOADS[1]!) });
  const memberNames = [name(PAYLOADS[0]!), name(PAYLOADS[3]!), name(PAYLOADS[32]!)];
  const members = await Promise.all(memberNames.map((fullName) => createUser(request, { fullName })));
  const teamName = name(PAYLOADS[2]!);
  const team = await apiAs<{ id: string }>(request, owner, 'post', '/api/teams', {
    name: teamName,
    description: PAYLOADS.join('\n'),
  });
  for (const m of members) {
    const inv = await apiAs<{ id: string }>(request, owner, 'post', `/api/teams/${team.id}/invitations`, { email: m.email });
    await apiAs(request, m, 'post', `/api/invitations/${inv.id}/respond`, { accept: true });
  }
  const projectNames = PAYLOADS.slice(0, 6).map((p) => `P ${p}`.slice(0, 120));
  const projects: { id: string }[] = [];
  for (const [i, projectName] of projectNames.entries()) {
    projects.push(
      await apiAs<{ id: string }>(request, owner, 'post', '/api/projects', {
        name: projectName,
        teamId: team.id,
        description: PAYLOADS[(i + 7) % PAYLOADS.length],
        status: 'active',
      }),
    );
  }
  const taskTitles = PAYLOADS.map((p) => `T ${p}`.slice(0, 200));
  const soon = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
  const taskIds: string[] = [];
  for (const [i, title] of taskTitles.entries()) {
    // The members create and assign, so the owner gets notifications naming them.
    const task = await apiAs<{ id: string }>(request, members[i % members.length]!, 'post', '/api/tasks', {
      title,
      // The task the test opens: a Markdown description with every payload.
      description: i === 1 ? [...PAYLOADS, ...MARKDOWN].join('\n\n').slice(0, 5000) : PAYLOADS[(i + 1) % PAYLOADS.length],
      projectId: projects[i % projects.length]!.id,
      assigneeId: i % 2 ? owner.id : members[0]!.id,
      tags: SHORT,
      dueDate: soon,
      priority: 'high',
      status: i % 4 === 0 ? 'in_progress' : 'todo',
    });
    taskIds.push(task.id);
  }
  // Comments on it, by members with hostile names: each HTML payload, and the Markdown ones (the server refuses a
  // mention of someone outside the team, so the two mention tokens stay in the description).
  for (const [i, body] of [...PAYLOADS, ...MARKDOWN.filter((m) => !m.startsWith('<@'))].entries()) {
    await apiAs(request, members[i % members.length]!, 'post', `/api/tasks/${taskIds[1]}/comments`, { body });
  }
  // And a real mention of the owner, whose name is a payload: the chip shows it as text.
  await apiAs(request, members[0]!, 'post', `/api/tasks/${taskIds[1]}/comments`, { body: `hey <@${owner.id}>` });
  // An invitation from another team with a hostile name (a team_invite notification for the owner).
  const stranger = await createUser(request, { fullName: name(PAYLOADS[5]!) });
  const invitingTeamName = name(PAYLOADS[8]!);
  const other = await apiAs<{ id: string }>(request, stranger, 'post', '/api/teams', { name: invitingTeamName });
  await apiAs(request, stranger, 'post', `/api/teams/${other.id}/invitations`, { email: owner.email });
  return {
    owner,
    teamName,
    memberNames,
    taskTitles,
    projectNames,
    invitingTeamName,
    markdownTaskTitle: taskTitles[1]!,
    ownerName: owner.fullName,
  };
}

/**
 * Fails on any sign of execution or injection on the page as it stands. Call it once the hostile text
 * of `where` is visible; a sentinel request then proves the renders and effects it caused have run
 * (not 'networkidle': the realtime event stream keeps a request open).
 */
async function expectInert(page: Page, where: string, dialogs: string[]) {
  await requestSentinel(page);
  const state = await page.evaluate(() => ({
    xss: (window as unknown as { __xss?: unknown }).__xss,
    injected: document.querySelectorAll('[data-xss]').length,
    handlers: [...document.querySelectorAll('*')].filter((el) => [...el.attributes].some((a) => /^on/i.test(a.name))).length,
  }));
  expect(state, where).toEqual({ xss: undefined, injected: 0, handlers: 0 });
  expect(dialogs, where).toEqual([]);
}

/** Every link in the open dialog goes to http(s), mailto or a path of the app (what Markdown links may be). */
async function expectSafeLinks(page: Page, where: string) {
  const hrefs = await page.evaluate(() =>
    [...document.querySelectorAll('[role=dialog] a[href]')].map((a) => a.getAttribute('href') ?? ''),
  );
  expect(hrefs.length, where).toBeGreaterThan(0);
  expect(
    hrefs.filter((h) => !/^(https?:\/\/|mailto:|\/(?!\/))/i.test(h)),
    where,
  ).toEqual([]);
  // Nothing embedded: no frame, object, embed, and no image from a Markdown image (those render as links).
  const embedded = await page.evaluate(
    () => document.querySelectorAll('[role=dialog] :is(iframe, object, embed, img:not([src^="/api/files/"]), math)').length,
  );
  expect(embedded, where).toBe(0);
}

test.describe('stored XSS', () => {
  test(`${PAYLOADS.length} payloads render as text on every page, modal and prompt`, async ({ page, request }) => {
    test.setTimeout(360_000);
    expect(PAYLOADS.length).toBeGreaterThanOrEqual(30);
    const world = await seed(request);
    const dialogs: string[] = [];
    page.on('dialog', async (d) => {
      dialogs.push(`${d.type()}: ${d.message()}`);
      await d.dismiss();
    });
    await signIn(page, world.owner);

    // Dashboard: activity, deadlines, progress — and the user menu with the owner's hostile name.
    await expect(page.getByText(world.projectNames[0]!).first()).toBeVisible();
    await expectInert(page, 'dashboard', dialogs);

    // Notifications: the menu and the page.
    await page.getByRole('button', { name: /^Notifications/ }).click();
    await expect(page.getByRole('menu').getByText(world.invitingTeamName, { exact: false }).first()).toBeVisible();
    await expectInert(page, 'notifications menu', dialogs);
    await page.screenshot({ path: '/tmp/sec-xss-notifications.png' });
    await page.keyboard.press('Escape');
    await page.goto('/notifications');
    await expect(
      page.getByRole('list', { name: 'Notifications' }).getByText(world.invitingTeamName, { exact: false }).first(),
    ).toBeVisible();
    await expectInert(page, 'notifications page', dialogs);

    // Tasks: the board shows every hostile title as text, and the edit modal too.
    await page.goto('/tasks');
    // A column shows its newest 20 cards first: load the rest, so that every hostile title is on the board.
    await expect(page.getByText(world.taskTitles.at(-1)!, { exact: true }).first()).toBeVisible();
    const more = page.getByRole('button', { name: /^Show more/ });
    await expect(async () => {
      if (await more.count()) await more.first().click({ timeout: 2_000 });
      await expect(more).toHaveCount(0, { timeout: 2_000 });
    }).toPass({ timeout: 30_000 });
    for (const title of world.taskTitles) await expect(page.getByText(title, { exact: true }).first()).toBeVisible();
    await expectInert(page, 'task board', dialogs);
    await page.getByRole('button', { name: world.markdownTaskTitle }).first().click();
    const modal = page.getByRole('dialog');
    await expect(modal).toBeVisible();
    await expectInert(page, 'task modal', dialogs);
    // The task page: its Markdown description and every comment rendered, and the mention chip.
    const feed = modal.getByRole('region', { name: 'Activity' });
    await expect(feed.getByRole('article')).toHaveCount(PAYLOADS.length + MARKDOWN.length - 2 + 1);
    await expect(feed.getByText(`@${world.ownerName}`, { exact: true })).toBeVisible();
    await expect(modal.getByText('@former member').first()).toBeVisible();
    await expectInert(page, 'task page: Markdown description and comments', dialogs);
    await expectSafeLinks(page, 'task page');
    await page.screenshot({ path: '/tmp/sec-xss-task-modal.png' });
    // The comments' edit boxes and the description's text field show the same text raw.
    await modal.getByRole('button', { name: 'Edit description' }).click();
    await expect(modal.getByLabel('Description', { exact: true })).toHaveValue(/md-link/);
    await expectInert(page, 'task page: description being edited', dialogs);
    await page.keyboard.press('Escape');
    const list = page.getByRole('group', { name: 'View' }).getByRole('button', { name: /list/i });
    await list.first().click();
    await expect(page.getByRole('table')).toBeVisible();
    await expectInert(page, 'task list', dialogs);

    // Projects: cards and the edit modal.
    await page.goto('/projects');
    await expect(page.getByText(world.projectNames[1]!).first()).toBeVisible();
    await expectInert(page, 'projects', dialogs);

    // Teams: the card, the team modal with its members, and the confirmation prompt naming a member.
    await page.goto('/teams');
    await expect(page.getByText(world.teamName).first()).toBeVisible();
    await expectInert(page, 'teams', dialogs);
    await page.getByText(world.teamName).first().click();
    const remove = page.getByRole('button', { name: `Remove ${world.memberNames[0]}` });
    await expect(remove.first()).toBeVisible();
    await expectInert(page, 'team modal', dialogs);
    await remove.first().click();
    await expect(page.getByText(`Are you sure you want to remove ${world.memberNames[0]} from the team?`)).toBeVisible();
    await expectInert(page, 'remove-member prompt', dialogs);
    await page.screenshot({ path: '/tmp/sec-xss-prompt.png' });
    await page.keyboard.press('Escape');
    // The invitation from the hostile-named team, on the dashboard (its accept/decline buttons carry the name).
    await page.goto('/dashboard');
    await expect(page.getByRole('button', { name: `Accept invitation to ${world.invitingTeamName}` })).toBeVisible();
    await expectInert(page, 'dashboard invitation', dialogs);

    // Last: nothing ran at any point of the visit.
    expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBeUndefined();
    await page.screenshot({ path: '/tmp/sec-xss-tasks.png', fullPage: false });
  });
});
