import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { SAVED_VIEW_LIMITS, type SavedViewDto, type SavedViewListDto } from '../../src/domain/schemas/saved-view';
import { savedViews } from '../../src/server/db/schema';
import { createUser, insertMember, insertTeam, type TestUser } from '../factories';
import { apiRequests } from '../helpers/api';
import { setupTestApp } from '../helpers/app';

const ctx = setupTestApp();

const { call, ok, fails } = apiRequests(ctx);

const names = async (user: TestUser) => (await ok<SavedViewListDto>(user, 'GET', '/api/views')).views.map((v) => v.name);
const create = (user: TestUser, body: Record<string, unknown>) => ok<SavedViewDto>(user, 'POST', '/api/views', body, 201);

// Olive owns team T; Adam is its admin, Mia a member; Sam runs a team of his own.
let olive: TestUser;
let adam: TestUser;
let mia: TestUser;
let sam: TestUser;
let team: { id: string; name: string };
let samTeam: { id: string };
let miaMembership: { id: string };

beforeAll(async () => {
  [olive, adam, mia, sam] = await Promise.all([
    createUser(ctx.app, { fullName: 'Olive Owner' }),
    createUser(ctx.app, { fullName: 'Adam Admin' }),
    createUser(ctx.app, { fullName: 'Mia Member' }),
    createUser(ctx.app, { fullName: 'Sam Stranger' }),
  ]);
  team = await insertTeam(ctx.database.db, olive, 'Tango');
  await insertMember(ctx.database.db, team.id, adam, 'admin');
  miaMembership = await insertMember(ctx.database.db, team.id, mia, 'member');
  samTeam = await insertTeam(ctx.database.db, sam, 'Sierra');
});

describe('saved views', () => {
  it('creates, lists, renames, changes and deletes a personal view', async () => {
    const config = { status: 'todo', priority: 'high', q: 'login', sort: 'due', dir: 'asc', view: 'list' };
    const view = await create(mia, { name: '  My urgent todos ', config });
    expect(view).toMatchObject({
      name: 'My urgent todos',
      ownerId: mia.id,
      ownerName: 'Mia Member',
      teamId: null,
      teamName: null,
      config,
      canEdit: true,
    });
    expect(Date.parse(view.createdAt)).not.toBeNaN();
    expect(await names(mia)).toEqual(['My urgent todos']);
    // Nobody else sees a personal view, not even the team's owner.
    expect(await names(olive)).toEqual([]);

    const renamed = await ok<SavedViewDto>(mia, 'PATCH', `/api/views/${view.id}`, { name: 'Hot' });
    expect(renamed).toMatchObject({ name: 'Hot', config });
    const changed = await ok<SavedViewDto>(mia, 'PATCH', `/api/views/${view.id}`, { config: { view: 'board' } });
    expect(changed.config).toEqual({ view: 'board' });
    expect(changed.name).toBe('Hot');

    await ok(mia, 'DELETE', `/api/views/${view.id}`, undefined, 204);
    expect(await names(mia)).toEqual([]);
    await fails(mia, 'DELETE', `/api/views/${view.id}`, undefined, 404, 'view_not_found');
  });

  it('shares a view with a team: members see it, owner/admins and its owner may edit, others get 403', async () => {
    const shared = await create(mia, { name: 'Team board', teamId: team.id, config: { view: 'board' } });
    expect(shared).toMatchObject({ teamId: team.id, teamName: 'Tango', canEdit: true });
    const personal = await create(mia, { name: 'Zeta mine', config: {} });

    // Personal first, then shared, each by name.
    expect(await names(mia)).toEqual(['Zeta mine', 'Team board']);
    const asOlive = (await ok<SavedViewListDto>(olive, 'GET', '/api/views')).views;
    expect(asOlive.map((v) => [v.name, v.canEdit])).toEqual([['Team board', true]]);
    const asAdam = (await ok<SavedViewListDto>(adam, 'GET', '/api/views')).views;
    expect(asAdam.map((v) => [v.name, v.canEdit])).toEqual([['Team board', true]]);
    expect(await names(sam)).toEqual([]);

    // An admin renames it; a plain member who does not own it may not.
    expect((await ok<SavedViewDto>(adam, 'PATCH', `/api/views/${shared.id}`, { name: 'Tango board' })).name).toBe('Tango board');
    const byAdamShared = await create(adam, { name: 'Admin view', teamId: team.id, config: {} });
    const asMia = (await ok<SavedViewListDto>(mia, 'GET', '/api/views')).views;
    expect(asMia.find((v) => v.id === byAdamShared.id)?.canEdit).toBe(false);
    await fails(mia, 'PATCH', `/api/views/${byAdamShared.id}`, { name: 'Mine now' }, 403, 'permission_denied');
    await fails(mia, 'DELETE', `/api/views/${byAdamShared.id}`, undefined, 403, 'permission_denied');
    // An admin moves it only to a team of their own (the create rule); a plain member not at all.
    await fails(adam, 'PATCH', `/api/views/${shared.id}`, { teamId: samTeam.id }, 404, 'team_not_found');
    await fails(mia, 'PATCH', `/api/views/${byAdamShared.id}`, { teamId: null }, 403, 'permission_denied');

    // A stranger: 404 on every view of the team, and on the personal one.
    for (const id of [shared.id, byAdamShared.id, personal.id]) {
      await fails(sam, 'PATCH', `/api/views/${id}`, { name: 'Mine' }, 404, 'view_not_found');
      await fails(sam, 'DELETE', `/api/views/${id}`, undefined, 404, 'view_not_found');
    }
    // A teammate cannot reach another member's personal view either.
    await fails(olive, 'PATCH', `/api/views/${personal.id}`, { name: 'x' }, 404, 'view_not_found');
    await fails(olive, 'DELETE', `/api/views/${personal.id}`, undefined, 404, 'view_not_found');
    await fails(sam, 'PATCH', `/api/views/${randomUUID()}`, { name: 'x' }, 404, 'view_not_found');

    // The team's owner deletes a member's shared view (moderation).
    await ok(olive, 'DELETE', `/api/views/${byAdamShared.id}`, undefined, 204);
    expect(await names(adam)).toEqual(['Tango board']);
  });

  it('shares only with a team the caller is in (404 team_not_found otherwise), on create and on move', async () => {
    await fails(sam, 'POST', '/api/views', { name: 'Sneaky', teamId: team.id, config: {} }, 404, 'team_not_found');
    await fails(mia, 'POST', '/api/views', { name: 'Sneaky', teamId: samTeam.id, config: {} }, 404, 'team_not_found');
    await fails(mia, 'POST', '/api/views', { name: 'Ghost', teamId: randomUUID(), config: {} }, 404, 'team_not_found');
    const view = await create(sam, { name: 'Sierra view', config: {} });
    await fails(sam, 'PATCH', `/api/views/${view.id}`, { teamId: team.id }, 404, 'team_not_found');
    const moved = await ok<SavedViewDto>(sam, 'PATCH', `/api/views/${view.id}`, { teamId: samTeam.id });
    expect(moved).toMatchObject({ teamId: samTeam.id, teamName: 'Sierra' });
    const back = await ok<SavedViewDto>(sam, 'PATCH', `/api/views/${view.id}`, { teamId: null });
    expect(back).toMatchObject({ teamId: null, teamName: null });
    expect(await names(mia)).not.toContain('Sierra view');
  });

  it('hides a team’s views from a member once removed, their own shared views included', async () => {
    const own = await create(mia, { name: 'Mia shared', teamId: team.id, config: { priority: 'low' } });
    expect(await names(mia)).toContain('Mia shared');
    await ok(olive, 'DELETE', `/api/teams/${team.id}/members/${miaMembership.id}`, undefined, 204);
    const after = await names(mia);
    expect(after).not.toContain('Mia shared');
    expect(after).not.toContain('Tango board');
    await fails(mia, 'PATCH', `/api/views/${own.id}`, { name: 'x' }, 404, 'view_not_found');
    await fails(mia, 'DELETE', `/api/views/${own.id}`, undefined, 404, 'view_not_found');
    // The team still has it.
    expect(await names(olive)).toContain('Mia shared');
  });

  it('answers 400 to invalid input and 401 without a session', async () => {
    const bad: unknown[] = [
      {},
      { name: '', config: {} },
      { name: '   ', config: {} },
      { name: 'x'.repeat(SAVED_VIEW_LIMITS.nameMax + 1), config: {} },
      { name: 'No config' },
      { name: 'x', config: { status: 'Done' } },
      { name: 'x', config: { category: 'done' } },
      { name: 'x', config: { projectId: 'not-a-uuid' } },
      { name: 'x', config: { q: 'q'.repeat(201) } },
      { name: 'x', config: { unknown: 1 } },
      { name: 'x', config: {}, ownerId: sam.id },
      { name: 'x', config: {}, teamId: 'nope' },
      { name: 'x', config: [] },
      [],
      null,
    ];
    for (const body of bad) await fails(olive, 'POST', '/api/views', body, 400);
    const view = await create(olive, { name: 'Valid', config: {} });
    // A status is any key (a workflow's own included, decision 0024), and a category one of the five.
    const keyed = await create(olive, { name: 'Keyed', config: { status: 'won_t_do', category: 'canceled' } });
    expect(keyed.config).toEqual({ status: 'won_t_do', category: 'canceled' });
    for (const body of [{ name: '' }, { config: { sort: 'nope' } }, { ownerId: sam.id }, { name: 42 }])
      await fails(olive, 'PATCH', `/api/views/${view.id}`, body, 400);
    await fails(olive, 'PATCH', '/api/views/not-a-uuid', { name: 'x' }, 400);
    await fails(olive, 'DELETE', '/api/views/not-a-uuid', undefined, 400);
    await fails(null, 'GET', '/api/views', undefined, 401);
    await fails(null, 'POST', '/api/views', { name: 'x', config: {} }, 401);
    await fails(null, 'PATCH', `/api/views/${view.id}`, { name: 'x' }, 401);
    await fails(null, 'DELETE', `/api/views/${view.id}`, undefined, 401);
  });

  it(`keeps at most ${SAVED_VIEW_LIMITS.perUserMax} views per owner`, async () => {
    const user = await createUser(ctx.app, { fullName: 'Hoarder' });
    // All but one straight into the table; the last ones through the API, two at once.
    await ctx.database.db.insert(savedViews).values(
      Array.from({ length: SAVED_VIEW_LIMITS.perUserMax - 1 }, (_, i) => ({
        ownerId: user.id,
        name: `View ${i}`,
        config: sql`'{}'::jsonb`,
      })),
    );
    const results = await Promise.all([
      call(user, 'POST', '/api/views', { name: 'Last', config: {} }),
      call(user, 'POST', '/api/views', { name: 'One too many', config: {} }),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    await fails(user, 'POST', '/api/views', { name: 'Still too many', config: {} }, 409, 'too_many_views');
    expect((await ok<SavedViewListDto>(user, 'GET', '/api/views')).views).toHaveLength(SAVED_VIEW_LIMITS.perUserMax);
  });
});
