import type { Page } from '@playwright/test';
import { MSG } from '../../src/domain/messages';
import { type InvitationDto, TEAM_TRANSFER_MSG, type TeamDto } from '../../src/domain/schemas/team';
import { apiAs, axeViolations, createUser, type E2EUser, expect, signIn, test } from './fixtures';

/** No WCAG 2.2 A/AA violations inside `selector` (our page content or dialog, not the shared shell). */
async function expectAccessible(page: Page, selector: string) {
  expect(await axeViolations(page, selector)).toEqual([]);
}

async function inviteAndAccept(
  request: Parameters<typeof apiAs>[0],
  owner: E2EUser,
  teamId: string,
  user: E2EUser,
  role = 'member',
) {
  const inv = await apiAs<InvitationDto>(request, owner, 'post', `/api/teams/${teamId}/invitations`, { email: user.email, role });
  await apiAs(request, user, 'post', `/api/invitations/${inv.id}/respond`, { accept: true });
}

test('owner invites, the second user accepts on the dashboard, then is promoted and removed', async ({ browser, request }) => {
  const owner = await createUser(request, { fullName: 'Olivia Owner' });
  const second = await createUser(request, { fullName: 'Sam Second' });

  const ownerContext = await browser.newContext();
  const secondContext = await browser.newContext();
  const ownerPage = await ownerContext.newPage();
  const secondPage = await secondContext.newPage();

  // The owner creates a team.
  await signIn(ownerPage, owner);
  await ownerPage.goto('/teams');
  await expect(ownerPage.getByText('No teams yet')).toBeVisible();
  await ownerPage.getByRole('button', { name: 'New Team' }).click();
  const createDialog = ownerPage.getByRole('dialog', { name: 'Create New Team' });
  await createDialog.getByRole('button', { name: 'Create Team' }).click();
  await expect(createDialog.getByText(MSG.teamNameRequired)).toBeVisible();
  await createDialog.getByLabel('Team Name').fill('R');
  await createDialog.getByRole('button', { name: 'Create Team' }).click();
  await expect(createDialog.getByText(MSG.teamNameMin)).toBeVisible();
  await createDialog.getByLabel('Team Name').fill('Rocket Crew');
  await createDialog.getByLabel('Description').fill('We build rockets');
  await createDialog.getByRole('button', { name: 'Create Team' }).click();
  await expect(ownerPage.getByText(MSG.teamCreated)).toBeVisible();
  await expect(createDialog).toBeHidden();

  // ... and invites the second user.
  await ownerPage.getByRole('button', { name: 'Rocket Crew' }).click();
  const dialog = ownerPage.getByRole('dialog', { name: 'Edit Team' });
  const send = dialog.getByRole('button', { name: 'Send Invitation' });
  await expect(send).toBeDisabled();
  await dialog.getByLabel('Email address').fill('   ');
  await expect(send).toBeDisabled();
  await dialog.getByLabel('Email address').fill(second.email.toUpperCase());
  await dialog.getByLabel('Invitation role').selectOption('member');
  await expect(send).toBeEnabled();
  await send.click();
  await expect(ownerPage.getByText(MSG.inviteSent)).toBeVisible();
  await expect(dialog.getByText(second.email)).toBeVisible();
  await expect(dialog.getByLabel('Email address')).toHaveValue('');
  await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();

  // The second user accepts from the dashboard and sees the team as Shared.
  await signIn(secondPage, second);
  await expect(secondPage.getByText('Team Invitations')).toBeVisible();
  await expect(secondPage.getByText('Olivia Owner')).toBeVisible();
  await secondPage.getByRole('button', { name: 'Accept invitation to Rocket Crew' }).click();
  await expect(secondPage.getByText(MSG.invitationAccepted)).toBeVisible();
  await expect(secondPage.getByText('Team Invitations')).toBeHidden();
  await secondPage.goto('/teams');
  await expect(secondPage.getByRole('button', { name: 'Rocket Crew' })).toBeVisible();
  await expect(secondPage.getByText('Shared', { exact: true })).toBeVisible();

  // The owner promotes, then removes them, answering the exact confirmation prompt.
  await ownerPage.reload();
  await ownerPage.getByRole('button', { name: 'Rocket Crew' }).click();
  const edit = ownerPage.getByRole('dialog', { name: 'Edit Team' });
  await expect(edit.getByText('Sam Second', { exact: true })).toBeVisible();
  await edit.getByLabel('Role for Sam Second').selectOption('admin');
  await expect(ownerPage.getByText(MSG.memberRoleUpdated)).toBeVisible();
  await expect(edit.getByLabel('Role for Sam Second')).toHaveValue('admin');
  await edit.getByRole('button', { name: 'Remove Sam Second' }).click();
  const confirm = ownerPage.getByRole('dialog', { name: 'Remove Member' });
  await expect(confirm.getByText(MSG.confirmRemoveMember('Sam Second'), { exact: true })).toBeVisible();
  await confirm.getByRole('button', { name: 'Remove' }).click();
  await expect(ownerPage.getByText(MSG.memberRemoved)).toBeVisible();
  await expect(edit.getByText('Sam Second', { exact: true })).toBeHidden();

  await secondPage.reload();
  await expect(secondPage.getByText('No teams yet')).toBeVisible();

  await ownerContext.close();
  await secondContext.close();
});

test('teams page: stats, cards, search and the non-owner view', async ({ page, request }) => {
  const me = await createUser(request, { fullName: 'Mona Member' });
  const boss = await createUser(request, { fullName: 'Bea Boss' });
  const mine = await apiAs<TeamDto>(request, me, 'post', '/api/teams', { name: 'Alpha Team', description: 'Front-end folks' });
  const theirs = await apiAs<TeamDto>(request, boss, 'post', '/api/teams', { name: 'Bravo Team', description: 'Back-end folks' });
  await inviteAndAccept(request, boss, theirs.id, me);
  // Five more members in Bravo: four icons then '+N more'.
  for (let i = 0; i < 4; i++) {
    await inviteAndAccept(request, boss, theirs.id, await createUser(request, { fullName: `Extra Person${i}` }));
  }

  await signIn(page, me);
  await page.goto('/teams');
  await expect(page.getByRole('heading', { name: 'Teams', exact: true })).toBeVisible();
  await expect(page.getByText('Manage your teams and collaborate with members')).toBeVisible();
  const stat = (label: string) =>
    page.getByText(label, { exact: true }).locator('xpath=ancestor::div[contains(@class,"p-4")][1]');
  await expect(stat('Total Teams')).toContainText('2');
  await expect(stat('Teams Owned')).toContainText('1');
  await expect(stat('Teams Shared')).toContainText('1');
  await expect(stat('Total Members')).toContainText('7');

  await expect(page.getByText('6 members')).toBeVisible();
  await expect(page.getByText('+2 more')).toBeVisible();
  await expect(page.getByText('Owner', { exact: true })).toBeVisible();
  await expect(page.getByText('Shared', { exact: true })).toHaveCount(1);
  await expect(page.getByText(/^Created [A-Z][a-z]{2} \d{2}, \d{4}$/)).toHaveCount(2);
  await expectAccessible(page, 'main');

  // Search on name or description, then clear.
  await page.getByPlaceholder('Search teams...').fill('back-end');
  await expect(page.getByRole('button', { name: 'Bravo Team' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Alpha Team' })).toBeHidden();
  await page.getByPlaceholder('Search teams...').fill('nothing like this');
  await expect(page.getByText('No teams found')).toBeVisible();
  await expect(page.getByText('Try adjusting your search terms')).toBeVisible();
  await page.getByRole('button', { name: 'Clear Search' }).click();
  await expect(page.getByRole('button', { name: 'Alpha Team' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Bravo Team' })).toBeVisible();

  // A plain member: view-only warning, badges only, the save toast, and leave.
  await page.getByRole('button', { name: 'Bravo Team' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit Team' });
  await expect(dialog.getByText(MSG.teamViewOnly)).toBeVisible();
  await expectAccessible(page, '[role="dialog"]');
  await expect(dialog.getByRole('button', { name: 'Send Invitation' })).toHaveCount(0);
  await expect(dialog.getByRole('button', { name: /^Remove / })).toHaveCount(0);
  await expect(dialog.getByText('Owner', { exact: true })).toBeVisible();
  await dialog.getByRole('button', { name: 'Update Team' }).click();
  await expect(page.getByText(MSG.teamNoPermission)).toBeVisible();
  await dialog.getByRole('button', { name: 'Leave Team' }).click();
  const confirm = page.getByRole('dialog', { name: 'Leave Team' });
  await expect(confirm.getByText(MSG.confirmLeaveTeam('Bravo Team'))).toBeVisible();
  await confirm.getByRole('button', { name: 'Leave Team' }).click();
  await expect(page.getByText(MSG.teamLeft)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Bravo Team' })).toBeHidden();

  // The owner edits, then deletes, with a confirmation naming the team.
  await page.getByRole('button', { name: 'Alpha Team' }).click();
  const own = page.getByRole('dialog', { name: 'Edit Team' });
  await expect(own.getByRole('button', { name: 'Send Invitation' })).toBeVisible();
  await expectAccessible(page, '[role="dialog"]');
  await own.getByLabel('Team Name').fill('Alpha Prime');
  await own.getByRole('button', { name: 'Update Team' }).click();
  await expect(page.getByText(MSG.teamUpdated)).toBeVisible();
  await page.getByRole('button', { name: 'Alpha Prime' }).click();
  await page.getByRole('dialog', { name: 'Edit Team' }).getByRole('button', { name: 'Delete Team' }).click();
  const del = page.getByRole('dialog', { name: 'Delete Team' });
  await expect(del.getByText(MSG.confirmDeleteTeam('Alpha Prime'))).toBeVisible();
  await del.getByRole('button', { name: 'Delete Team' }).click();
  await expect(page.getByText(MSG.teamDeleted)).toBeVisible();
  await expect(page.getByText('No teams yet')).toBeVisible();
  await expect(page.getByText('Create your first team to start collaborating with others')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Create Your First Team' })).toBeVisible();
  expect(mine.id).toBeTruthy();
});

test('the owner transfers ownership to a member (confirmed), becomes an admin, and can then leave', async ({ page, request }) => {
  const owner = await createUser(request, { fullName: 'Tara Transfer' });
  const heir = await createUser(request, { fullName: 'Nina Next' });
  const team = await apiAs<TeamDto>(request, owner, 'post', '/api/teams', { name: 'Handover Team' });
  await inviteAndAccept(request, owner, team.id, heir);

  await signIn(page, owner);
  await page.goto('/teams');
  await page.getByRole('button', { name: 'Handover Team' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit Team' });
  // Nobody is offered their own team: no action on the owner's own row.
  await expect(dialog.getByRole('button', { name: `${TEAM_TRANSFER_MSG.action} to Tara Transfer` })).toHaveCount(0);
  await dialog.getByRole('button', { name: `${TEAM_TRANSFER_MSG.action} to Nina Next` }).click();
  const confirm = page.getByRole('dialog', { name: TEAM_TRANSFER_MSG.title });
  await expect(confirm.getByText(TEAM_TRANSFER_MSG.confirm('Nina Next', 'Handover Team'))).toBeVisible();
  await expectAccessible(page, '[role="dialog"]');
  // Cancel changes nothing; then for real.
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();
  await dialog.getByRole('button', { name: `${TEAM_TRANSFER_MSG.action} to Nina Next` }).click();
  await confirm.getByRole('button', { name: TEAM_TRANSFER_MSG.confirmLabel }).click();
  await expect(page.getByText(TEAM_TRANSFER_MSG.done('Nina Next'))).toBeVisible();

  // Now an admin: the team is view-only, the way out is leaving, and no transfer is offered any more.
  await expect(dialog.getByText(MSG.teamViewOnly)).toBeVisible();
  await expect(dialog.getByRole('button', { name: new RegExp(TEAM_TRANSFER_MSG.action) })).toHaveCount(0);
  const seen = await apiAs<TeamDto>(request, heir, 'get', `/api/teams/${team.id}`);
  expect(seen.myRole).toBe('owner');
  await dialog.getByRole('button', { name: 'Leave Team' }).click();
  await page.getByRole('dialog', { name: 'Leave Team' }).getByRole('button', { name: 'Leave Team' }).click();
  await expect(page.getByText(MSG.teamLeft)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Handover Team' })).toBeHidden();
});

test('invitation panel: the inviter cancels a sent invitation; the invitee declines another', async ({ page, request }) => {
  const owner = await createUser(request, { fullName: 'Owen Owner' });
  const invitee = await createUser(request, { fullName: 'Ian Invitee' });
  const team = await apiAs<TeamDto>(request, owner, 'post', '/api/teams', { name: 'Charlie Team' });
  const other = await apiAs<TeamDto>(request, invitee, 'post', '/api/teams', { name: 'Delta Team' });
  await apiAs(request, owner, 'post', `/api/teams/${team.id}/invitations`, { email: 'someone.else@example.com', role: 'admin' });
  await apiAs(request, invitee, 'post', `/api/teams/${other.id}/invitations`, { email: owner.email, role: 'member' });

  await signIn(page, owner);
  await expect(page.getByText('Sent Invitations')).toBeVisible();
  await expect(page.getByText('someone.else@example.com')).toBeVisible();
  await page.getByRole('button', { name: 'Cancel invitation for someone.else@example.com' }).click();
  const confirm = page.getByRole('dialog', { name: 'Cancel Invitation' });
  await expect(confirm.getByText(MSG.confirmCancelInvitation('someone.else@example.com'), { exact: true })).toBeVisible();
  await confirm.getByRole('button', { name: 'Cancel Invitation' }).click();
  await expect(page.getByText(MSG.invitationCancelled)).toBeVisible();
  await expect(page.getByText('Sent Invitations')).toBeHidden();

  await page.getByRole('button', { name: 'Decline invitation to Delta Team' }).click();
  await expect(page.getByText(MSG.invitationDeclined)).toBeVisible();
  await expect(page.getByText('Team Invitations')).toBeHidden();
  await page.goto('/teams');
  await expect(page.getByRole('button', { name: 'Delta Team' })).toBeHidden();
  await expect(page.getByRole('button', { name: 'Charlie Team' })).toBeVisible();
});
