// A team's custom fields through their six routes (issue 38, decision 0026 step 2): who may read and define them, the
// rules of a definition (names, the limit, options, number settings, projects), what removing options, archiving and
// deleting do to the tasks' values (their JSON and the typed values table), the usage counts, the audit rows and the
// realtime events; and the trigger of migration 0017 that keeps task_field_values equal to tasks.fields.
import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CUSTOM_FIELD_LIMITS } from '../../src/domain/custom-fields';
import type { CustomFieldDto, CustomFieldListDto, CustomFieldUsageDto } from '../../src/domain/schemas/custom-field';
import { auditLog, customFields, taskFieldValues, tasks } from '../../src/server/db/schema';
import type { DomainEvent } from '../../src/server/lib/events';
import { createUser, insertMember, insertTeam, type TestUser } from '../factories';
import { apiRequests } from '../helpers/api';
import { setupTestApp } from '../helpers/app';

const ctx = setupTestApp();
const { ok, fails } = apiRequests(ctx);

// Olive owns the team, Adam is its admin, Mia a plain member; Sam runs a team of his own.
let olive: TestUser;
let adam: TestUser;
let mia: TestUser;
let sam: TestUser;
let teamId: string;
let projectId: string;
let samTeamId: string;
let samProjectId: string;
let published: DomainEvent[] = [];
let unsubscribe: () => void;

beforeAll(async () => {
  const names = ['Olive Owner', 'Adam Admin', 'Mia Member', 'Sam Stranger'];
  [olive, adam, mia, sam] = (await Promise.all(names.map((fullName) => createUser(ctx.app, { fullName })))) as [
    TestUser,
    TestUser,
    TestUser,
    TestUser,
  ];
  teamId = (await insertTeam(ctx.database.db, olive, 'Fields')).id;
  await insertMember(ctx.database.db, teamId, adam, 'admin');
  await insertMember(ctx.database.db, teamId, mia, 'member');
  projectId = (await ok<{ id: string }>(olive, 'POST', '/api/projects', { teamId, name: 'Fielded' }, 201)).id;
  samTeamId = (await insertTeam(ctx.database.db, sam, 'Elsewhere')).id;
  samProjectId = (await ok<{ id: string }>(sam, 'POST', '/api/projects', { teamId: samTeamId, name: 'Theirs' }, 201)).id;
  unsubscribe = ctx.app.deps.events.subscribe((event) => published.push(event));
});
afterAll(() => unsubscribe?.());
beforeEach(() => {
  published = [];
});

let counter = 0;
const unique = (prefix: string) => `${prefix} ${++counter}`;

const addField = (body: Record<string, unknown>, user: TestUser = olive, team = teamId) =>
  ok<CustomFieldDto>(user, 'POST', `/api/teams/${team}/fields`, body, 201);
const selectField = (type: 'select' | 'multi_select' = 'select', names = ['Low', 'High', 'Critical']) =>
  addField({ name: unique('Severity'), type, options: names.map((name) => ({ name, color: '#dc2626' })) });
const teamFields = async (user: TestUser = olive, team = teamId) =>
  (await ok<CustomFieldListDto>(user, 'GET', `/api/teams/${team}/fields`)).fields;
const optionId = (field: CustomFieldDto, name: string) => field.options.find((o) => o.name === name)!.id;

/** A task of the team's project with these values, written as the app stores them (the trigger fills the values table). */
async function taskWith(fields: Record<string, unknown>): Promise<string> {
  const id = (await ok<{ id: string }>(olive, 'POST', '/api/tasks', { projectId, title: unique('Task') }, 201)).id;
  await ctx.database.db
    .update(tasks)
    .set({ fields: fields as never })
    .where(eq(tasks.id, id));
  return id;
}
const taskRow = async (id: string) => (await ctx.database.db.select().from(tasks).where(eq(tasks.id, id)))[0]!;
/** The task's values rows, as `field:kind:value` strings, sorted. */
async function valueRows(taskId: string): Promise<string[]> {
  const rows = await ctx.database.db.select().from(taskFieldValues).where(eq(taskFieldValues.taskId, taskId));
  return rows
    .map((r) => {
      const [kind, value] = Object.entries({
        text: r.vText,
        num: r.vNum === null ? null : Number(r.vNum),
        date: r.vDate,
        option: r.vOption,
        user: r.vUser,
        bool: r.vBool,
      }).find(([, v]) => v !== null) ?? ['none', null];
      return `${r.fieldId}:${kind}:${value}`;
    })
    .sort();
}
const auditRows = (targetId: string) =>
  ctx.database.db.select().from(auditLog).where(eq(auditLog.targetId, targetId)).orderBy(auditLog.id);

describe('defining fields', () => {
  it('lets owners and admins define fields, members read them, and hides the team from strangers', async () => {
    const severity = await addField({
      name: ' Customer tier ',
      type: 'select',
      options: [
        { name: 'Gold', color: '#CA8A04' },
        { name: 'Silver', color: '#64748b' },
      ],
      showOnCard: true,
    });
    expect(severity).toMatchObject({
      teamId,
      name: 'Customer tier',
      type: 'select',
      projectIds: null,
      showOnCard: true,
      archived: false,
      unit: null,
      decimals: null,
    });
    expect(severity.options.map((o) => [o.name, o.color])).toEqual([
      ['Gold', '#ca8a04'],
      ['Silver', '#64748b'],
    ]);
    expect(new Set(severity.options.map((o) => o.id)).size).toBe(2);
    const points = await addField({ name: unique('Points'), type: 'number', unit: 'pts', decimals: 1 }, adam);
    expect(points).toMatchObject({ type: 'number', unit: 'pts', decimals: 1, options: [] });
    // A new field goes last.
    expect(points.position).toBe(severity.position + 1);

    await fails(mia, 'POST', `/api/teams/${teamId}/fields`, { name: 'Mine', type: 'text' }, 403, 'custom_field_manage_denied');
    await fails(sam, 'POST', `/api/teams/${teamId}/fields`, { name: 'Mine', type: 'text' }, 404, 'team_not_found');
    await fails(sam, 'GET', `/api/teams/${teamId}/fields`, undefined, 404, 'team_not_found');
    await fails(null, 'GET', `/api/teams/${teamId}/fields`, undefined, 401);

    const read = await teamFields(mia);
    expect(read.map((f) => f.id)).toEqual(expect.arrayContaining([severity.id, points.id]));
    expect(read.map((f) => f.position)).toEqual(read.map((_, i) => i));
    // The field change reached the audit log and the team's streams.
    const [row] = await auditRows(points.id);
    expect(row).toMatchObject({ action: 'custom_field.created', teamId, actorId: adam.id, targetLabel: points.name });
    expect(published.filter((e) => e.type === 'field.created').map((e) => (e as { fieldId: string }).fieldId)).toEqual([
      severity.id,
      points.id,
    ]);
  });

  it('lists every field of the caller’s teams, by team then position', async () => {
    const theirs = await addField({ name: unique('Release'), type: 'text' }, sam, samTeamId);
    const mine = (await ok<CustomFieldListDto>(mia, 'GET', '/api/fields')).fields;
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((f) => f.teamId === teamId)).toBe(true);
    expect(mine).toEqual(await teamFields(mia));
    const samsOwn = (await ok<CustomFieldListDto>(sam, 'GET', '/api/fields')).fields;
    expect(samsOwn.map((f) => f.id)).toEqual([theirs.id]);
    // Sam joins the team: his list now holds both teams' fields, each team's together and in its order.
    await insertMember(ctx.database.db, teamId, sam, 'member');
    try {
      const both = (await ok<CustomFieldListDto>(sam, 'GET', '/api/fields')).fields;
      const teamsInOrder = both.map((f) => f.teamId).filter((t, i, all) => all.indexOf(t) === i);
      expect(teamsInOrder.sort()).toEqual([teamId, samTeamId].sort());
      for (const t of teamsInOrder) {
        const positions = both.filter((f) => f.teamId === t).map((f) => f.position);
        expect(positions).toEqual([...positions].sort((a, b) => a - b));
      }
      expect(both.findIndex((f) => f.teamId !== both[0]!.teamId)).toBe(both.filter((f) => f.teamId === both[0]!.teamId).length);
    } finally {
      await ctx.database.db.execute(sql`delete from team_members where team_id = ${teamId} and user_id = ${sam.id}`);
    }
  });

  it('refuses a name the team has (any case), and definitions that do not fit their type, naming the key', async () => {
    const taken = await addField({ name: unique('Sprint'), type: 'text' });
    await fails(
      olive,
      'POST',
      `/api/teams/${teamId}/fields`,
      { name: taken.name.toUpperCase(), type: 'number' },
      409,
      'custom_field_name_taken',
    );
    const other = await addField({ name: unique('Sprint'), type: 'text' });
    await fails(
      olive,
      'PATCH',
      `/api/fields/${other.id}`,
      { name: ` ${taken.name.toLowerCase()} ` },
      409,
      'custom_field_name_taken',
    );
    // The same name in another team is fine.
    await addField({ name: taken.name, type: 'text' }, sam, samTeamId);

    const refused = async (body: Record<string, unknown>, key: string) => {
      const res = await fails(olive, 'POST', `/api/teams/${teamId}/fields`, { name: unique('Bad'), ...body }, 400);
      expect(Object.keys(res.json().error.fields ?? {}), res.body).toContain(key);
    };
    await refused({ type: 'select' }, 'options');
    await refused({ type: 'multi_select', options: [] }, 'options');
    await refused({ type: 'text', options: [{ name: 'A', color: '#000000' }] }, 'options');
    await refused(
      {
        type: 'select',
        options: [
          { name: 'Same', color: '#000000' },
          { name: 'same', color: '#111111' },
        ],
      },
      'options',
    );
    await refused({ type: 'text', unit: 'h' }, 'unit');
    await refused({ type: 'select', options: [{ name: 'A', color: '#000000' }], decimals: 2 }, 'decimals');
    await refused({ type: 'date', projectIds: [samProjectId] }, 'projectIds');
    await refused({ type: 'date', projectIds: [projectId, randomUUID()] }, 'projectIds');
    await refused({ type: 'date', projectIds: [] }, 'projectIds');
    const scoped = await addField({ name: unique('Approved'), type: 'checkbox', projectIds: [projectId, projectId] });
    expect(scoped.projectIds).toEqual([projectId]);
    await fails(olive, 'PATCH', `/api/fields/${scoped.id}`, { projectIds: [samProjectId] }, 400);
    await fails(olive, 'PATCH', `/api/fields/${scoped.id}`, { unit: 'kg' }, 400);
    // The type never changes.
    await fails(olive, 'PATCH', `/api/fields/${scoped.id}`, { type: 'text' }, 400);
  });

  it('keeps a team to its limit of fields, archived ones included', async () => {
    const full = await insertTeam(ctx.database.db, olive, 'Full');
    await ctx.database.db.insert(customFields).values(
      Array.from({ length: CUSTOM_FIELD_LIMITS.perTeamMax }, (_, i) => ({
        teamId: full.id,
        name: `F${i}`,
        type: 'text' as const,
        position: i,
        archived: i % 2 === 0,
      })),
    );
    await fails(olive, 'POST', `/api/teams/${full.id}/fields`, { name: 'One more', type: 'text' }, 400, 'custom_field_limit');
    await ctx.database.db.delete(customFields).where(and(eq(customFields.teamId, full.id), eq(customFields.name, 'F0')));
    await ok(olive, 'POST', `/api/teams/${full.id}/fields`, { name: 'One more', type: 'text' }, 201);
  });

  it('moves a field among the team’s, renumbering the others', async () => {
    const team = await insertTeam(ctx.database.db, olive, 'Order');
    const [a, b, c] = [
      await addField({ name: 'A', type: 'text' }, olive, team.id),
      await addField({ name: 'B', type: 'text' }, olive, team.id),
      await addField({ name: 'C', type: 'text' }, olive, team.id),
    ];
    expect([a!.position, b!.position, c!.position]).toEqual([0, 1, 2]);
    const moved = await ok<CustomFieldDto>(olive, 'PATCH', `/api/fields/${c!.id}`, { position: 0 });
    expect(moved.position).toBe(0);
    expect((await teamFields(olive, team.id)).map((f) => [f.name, f.position])).toEqual([
      ['C', 0],
      ['A', 1],
      ['B', 2],
    ]);
    // Past the end: last.
    await ok(olive, 'PATCH', `/api/fields/${c!.id}`, { position: 50 });
    expect((await teamFields(olive, team.id)).map((f) => f.name)).toEqual(['A', 'B', 'C']);
    // Deleting one closes the gap.
    await ok(olive, 'DELETE', `/api/fields/${a!.id}`, undefined, 204);
    expect((await teamFields(olive, team.id)).map((f) => [f.name, f.position])).toEqual([
      ['B', 0],
      ['C', 1],
    ]);
  });
});

describe('changing fields', () => {
  it('renames, recolours and reorders options keeping their ids, gives new ones ids, refuses unknown ids', async () => {
    const field = await selectField();
    const [low, high, critical] = ['Low', 'High', 'Critical'].map((n) => optionId(field, n));
    const after = await ok<CustomFieldDto>(adam, 'PATCH', `/api/fields/${field.id}`, {
      options: [
        { id: critical, name: 'Critical', color: '#7c3aed' },
        { id: low, name: 'Minor', color: '#dc2626' },
        { id: high, name: 'High', color: '#dc2626' },
        { name: 'Blocker', color: '#000000' },
      ],
    });
    expect(after.options.slice(0, 3)).toEqual([
      { id: critical, name: 'Critical', color: '#7c3aed' },
      { id: low, name: 'Minor', color: '#dc2626' },
      { id: high, name: 'High', color: '#dc2626' },
    ]);
    expect(after.options[3]!.name).toBe('Blocker');
    expect([low, high, critical]).not.toContain(after.options[3]!.id);
    await fails(olive, 'PATCH', `/api/fields/${field.id}`, { options: [{ id: randomUUID(), name: 'X', color: '#000000' }] }, 400);
    await fails(olive, 'PATCH', `/api/fields/${field.id}`, { options: [] }, 400);
    const [audit] = (await auditRows(field.id)).filter((r) => r.action === 'custom_field.updated');
    expect(audit!.details).toMatchObject({ clearedTasks: 0, options: { from: field.options, to: after.options } });
    // A body that changes nothing records nothing.
    await ok(olive, 'PATCH', `/api/fields/${field.id}`, { name: field.name, archived: false });
    expect((await auditRows(field.id)).filter((r) => r.action === 'custom_field.updated')).toHaveLength(1);
  });

  it('a plain member can set values but not change the field: 403; a stranger gets 404', async () => {
    const field = await selectField();
    await fails(mia, 'PATCH', `/api/fields/${field.id}`, { name: 'Mine now' }, 403, 'custom_field_manage_denied');
    await fails(mia, 'DELETE', `/api/fields/${field.id}`, undefined, 403, 'custom_field_manage_denied');
    await fails(sam, 'PATCH', `/api/fields/${field.id}`, { name: 'Mine now' }, 404, 'custom_field_not_found');
    await fails(sam, 'DELETE', `/api/fields/${field.id}`, undefined, 404, 'custom_field_not_found');
    await fails(sam, 'GET', `/api/fields/${field.id}/usage`, undefined, 404, 'custom_field_not_found');
    await fails(olive, 'PATCH', `/api/fields/${randomUUID()}`, { name: 'Nobody' }, 404, 'custom_field_not_found');
    // The member's value (through the task routes when they take `fields`, else as they would store it).
    const task = (await ok<{ id: string; version: number }>(mia, 'POST', '/api/tasks', { projectId, title: unique('Mia') }, 201))
      .id;
    const res = await ctx.app.inject({
      method: 'PATCH',
      url: `/api/tasks/${task}`,
      headers: mia.auth,
      payload: { fields: { [field.id]: optionId(field, 'High') } },
    });
    if (res.statusCode !== 200) {
      await ctx.database.db
        .update(tasks)
        .set({ fields: { [field.id]: optionId(field, 'High') } })
        .where(eq(tasks.id, task));
    }
    expect((await taskRow(task)).fields).toEqual({ [field.id]: optionId(field, 'High') });
    expect(await valueRows(task)).toEqual([`${field.id}:option:${optionId(field, 'High')}`]);
    expect(await ok<CustomFieldUsageDto>(mia, 'GET', `/api/fields/${field.id}/usage`)).toEqual({
      tasks: 1,
      options: { [optionId(field, 'Low')]: 0, [optionId(field, 'High')]: 1, [optionId(field, 'Critical')]: 0 },
    });
  });

  it('removing options clears them from the tasks that had them, in their JSON and in the values table', async () => {
    const select = await selectField();
    const multi = await selectField('multi_select', ['A', 'B', 'C']);
    const text = await addField({ name: unique('Customer'), type: 'text' });
    const [low, high, critical] = ['Low', 'High', 'Critical'].map((n) => optionId(select, n)) as [string, string, string];
    const [a, b, c] = ['A', 'B', 'C'].map((n) => optionId(multi, n)) as [string, string, string];
    const t1 = await taskWith({ [select.id]: high, [text.id]: 'Acme', [multi.id]: [a, b] });
    const t2 = await taskWith({ [select.id]: critical, [multi.id]: [b] });
    const t3 = await taskWith({ [select.id]: low, [multi.id]: [a, c] });
    expect(await ok<CustomFieldUsageDto>(olive, 'GET', `/api/fields/${multi.id}/usage`)).toEqual({
      tasks: 3,
      options: { [a]: 2, [b]: 2, [c]: 1 },
    });
    expect(await ok<CustomFieldUsageDto>(mia, 'GET', `/api/fields/${select.id}/usage`)).toEqual({
      tasks: 3,
      options: { [low]: 1, [high]: 1, [critical]: 1 },
    });
    const versions = await Promise.all([t1, t2, t3].map(async (t) => (await taskRow(t)).version));

    // High goes from the select.
    const keep = (f: CustomFieldDto, ...ids: string[]) => f.options.filter((o) => ids.includes(o.id));
    await ok(olive, 'PATCH', `/api/fields/${select.id}`, { options: keep(select, low, critical) });
    expect((await taskRow(t1)).fields).toEqual({ [text.id]: 'Acme', [multi.id]: [a, b] });
    expect((await taskRow(t1)).version).toBe(versions[0]! + 1);
    expect((await taskRow(t2)).version).toBe(versions[1]);
    expect(await valueRows(t1)).toEqual([`${text.id}:text:Acme`, `${multi.id}:option:${a}`, `${multi.id}:option:${b}`].sort());
    // B goes from the multi-select: t1 keeps A, t2 had only B and loses the value.
    await ok(olive, 'PATCH', `/api/fields/${multi.id}`, { options: keep(multi, a, c) });
    expect((await taskRow(t1)).fields).toEqual({ [text.id]: 'Acme', [multi.id]: [a] });
    expect((await taskRow(t2)).fields).toEqual({ [select.id]: critical });
    expect((await taskRow(t3)).fields).toEqual({ [select.id]: low, [multi.id]: [a, c] });
    expect(await valueRows(t2)).toEqual([`${select.id}:option:${critical}`]);
    expect(await valueRows(t3)).toEqual(
      [`${select.id}:option:${low}`, `${multi.id}:option:${a}`, `${multi.id}:option:${c}`].sort(),
    );
    expect(await ok<CustomFieldUsageDto>(olive, 'GET', `/api/fields/${multi.id}/usage`)).toEqual({
      tasks: 2,
      options: { [a]: 2, [c]: 1 },
    });
    const audits = (await auditRows(multi.id)).filter((r) => r.action === 'custom_field.updated');
    expect(audits.map((r) => (r.details as { clearedTasks: number }).clearedTasks)).toEqual([2]);
    expect(published.filter((e) => e.type === 'field.updated').map((e) => (e as { fieldId: string }).fieldId)).toEqual([
      select.id,
      multi.id,
    ]);
  });

  it('archiving keeps the values; deleting takes them out of the tasks and the values table', async () => {
    const field = await selectField();
    const other = await addField({ name: unique('Due review'), type: 'date' });
    const high = optionId(field, 'High');
    const t1 = await taskWith({ [field.id]: high, [other.id]: '2026-12-01' });
    const t2 = await taskWith({ [field.id]: optionId(field, 'Low') });
    const t3 = await taskWith({ [other.id]: '2026-12-02' });

    const archived = await ok<CustomFieldDto>(olive, 'PATCH', `/api/fields/${field.id}`, { archived: true });
    expect(archived.archived).toBe(true);
    expect((await teamFields(mia)).find((f) => f.id === field.id)?.archived).toBe(true);
    expect((await taskRow(t1)).fields).toEqual({ [field.id]: high, [other.id]: '2026-12-01' });
    expect(await valueRows(t1)).toEqual([`${field.id}:option:${high}`, `${other.id}:date:2026-12-01`].sort());
    expect((await ok<CustomFieldUsageDto>(olive, 'GET', `/api/fields/${field.id}/usage`)).tasks).toBe(2);
    await ok(olive, 'PATCH', `/api/fields/${field.id}`, { archived: false });

    await ok(adam, 'DELETE', `/api/fields/${field.id}`, undefined, 204);
    expect((await taskRow(t1)).fields).toEqual({ [other.id]: '2026-12-01' });
    expect((await taskRow(t2)).fields).toEqual({});
    expect((await taskRow(t3)).fields).toEqual({ [other.id]: '2026-12-02' });
    expect(await valueRows(t1)).toEqual([`${other.id}:date:2026-12-01`]);
    expect(await valueRows(t2)).toEqual([]);
    const left = await ctx.database.db.select().from(taskFieldValues).where(eq(taskFieldValues.fieldId, field.id));
    expect(left).toEqual([]);
    expect((await teamFields()).some((f) => f.id === field.id)).toBe(false);
    await fails(olive, 'GET', `/api/fields/${field.id}/usage`, undefined, 404, 'custom_field_not_found');
    const deleted = (await auditRows(field.id)).find((r) => r.action === 'custom_field.deleted');
    expect(deleted).toMatchObject({ teamId, actorId: adam.id, targetLabel: field.name, details: { clearedTasks: 2 } });
    expect(published.some((e) => e.type === 'field.deleted' && e.fieldId === field.id)).toBe(true);
  });
});

describe('the values table (migration 0017 trigger)', () => {
  it('keeps task_field_values equal to tasks.fields on insert and update, for every type', async () => {
    const f = {
      text: await addField({ name: unique('Text'), type: 'text' }),
      url: await addField({ name: unique('Url'), type: 'url' }),
      number: await addField({ name: unique('Number'), type: 'number' }),
      date: await addField({ name: unique('Date'), type: 'date' }),
      person: await addField({ name: unique('Person'), type: 'person' }),
      checkbox: await addField({ name: unique('Checkbox'), type: 'checkbox' }),
      select: await selectField(),
      multi: await selectField('multi_select', ['X', 'Y', 'Z']),
    };
    const [x, y, z] = ['X', 'Y', 'Z'].map((n) => optionId(f.multi, n)) as [string, string, string];
    const low = optionId(f.select, 'Low');
    const values = {
      [f.text.id]: 'Acme',
      [f.url.id]: 'https://example.com/a',
      [f.number.id]: 3.5,
      [f.date.id]: '2026-11-30',
      [f.person.id]: mia.id,
      [f.checkbox.id]: true,
      [f.select.id]: low,
      [f.multi.id]: [x, z],
      // A key naming no field writes nothing.
      [randomUUID()]: 'orphan',
    };
    // Inserted with its values.
    const [row] = await ctx.database.db
      .insert(tasks)
      .values({ title: 'Typed', projectId, creatorId: olive.id, fields: values as never })
      .returning();
    const expected = [
      `${f.text.id}:text:Acme`,
      `${f.url.id}:text:https://example.com/a`,
      `${f.number.id}:num:3.5`,
      `${f.date.id}:date:2026-11-30`,
      `${f.person.id}:user:${mia.id}`,
      `${f.checkbox.id}:bool:true`,
      `${f.select.id}:option:${low}`,
      `${f.multi.id}:option:${x}`,
      `${f.multi.id}:option:${z}`,
    ].sort();
    expect(await valueRows(row!.id)).toEqual(expected);
    // Updated: the rows follow (one per option of a multi-select).
    await ctx.database.db
      .update(tasks)
      .set({ fields: { [f.number.id]: -2, [f.multi.id]: [y] } })
      .where(eq(tasks.id, row!.id));
    expect(await valueRows(row!.id)).toEqual([`${f.number.id}:num:-2`, `${f.multi.id}:option:${y}`].sort());
    // An update that leaves the values alone keeps the rows; emptied, none is left.
    await ctx.database.db.update(tasks).set({ title: 'Renamed' }).where(eq(tasks.id, row!.id));
    expect(await valueRows(row!.id)).toHaveLength(2);
    await ctx.database.db.update(tasks).set({ fields: {} }).where(eq(tasks.id, row!.id));
    expect(await valueRows(row!.id)).toEqual([]);
    // A task inserted without values writes nothing.
    const [bare] = await ctx.database.db.insert(tasks).values({ title: 'Bare', projectId, creatorId: olive.id }).returning();
    expect(await valueRows(bare!.id)).toEqual([]);
    // Only a key naming no field: nothing.
    await ctx.database.db
      .update(tasks)
      .set({ fields: { [randomUUID()]: 1 } })
      .where(eq(tasks.id, bare!.id));
    expect(await valueRows(bare!.id)).toEqual([]);
  });
});
