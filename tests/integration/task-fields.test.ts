/**
 * Custom field values in the tasks API (issue 38, decision 0026 step 2, tasks side): values set and cleared through
 * POST and PATCH for every type, each refusal (400 naming the field), the history entries, webhooks and realtime, the
 * `cf` filters by every operator (list, counts, board), `sort=field:<id>` with tasks lacking a value last and paging
 * across that boundary, a move to another team (values cleared), and search finding a text value.
 */
import { randomUUID } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIELD_VALUE_TEXT } from '../../src/domain/custom-fields';
import type { CustomFieldDto } from '../../src/domain/schemas/custom-field';
import type { SearchResultDto } from '../../src/domain/schemas/search';
import type { TaskBoardDto, TaskDto, TaskListDto } from '../../src/domain/schemas/task';
import type { ActivityListDto } from '../../src/domain/schemas/task-detail';
import { taskFieldValues, tasks, webhookDeliveries } from '../../src/server/db/schema';
import type { DomainEvent } from '../../src/server/lib/events';
import { insertOwnerMemberStranger, insertTeam, type TestUser } from '../factories';
import { apiRequests, projectsAndQueuedHook } from '../helpers/api';
import { setupTestApp } from '../helpers/app';

// A hook that is never delivered (the worker polls once a minute): its queued deliveries are what is read.
const ctx = setupTestApp({ webhooksAllowPrivate: true, webhookPollIntervalMs: 60_000 });
const { call, ok } = apiRequests(ctx);

let owner: TestUser;
let member: TestUser;
let stranger: TestUser;
let teamId: string;
let projectId: string;
let otherProjectId: string;
let hookId: string;
let published: DomainEvent[] = [];
let unsubscribe: () => void;

/** The team's fields, one of each type, plus one for the other project only, one archived, and the stranger's. */
const f = {} as Record<
  'text' | 'url' | 'number' | 'select' | 'multi' | 'date' | 'person' | 'checkbox' | 'onlyOther' | 'archived' | 'theirs',
  CustomFieldDto
>;

const addField = (body: Record<string, unknown>, user = owner, team = () => teamId) =>
  ok<CustomFieldDto>(user, 'POST', `/api/teams/${team()}/fields`, body, 201);
const options = (...names: string[]) => names.map((name) => ({ name, color: '#2563eb' }));
const opt = (field: CustomFieldDto, name: string) => field.options.find((o) => o.name === name)!.id;

beforeAll(async () => {
  let team: { id: string };
  ({ owner, member, stranger, team } = await insertOwnerMemberStranger(ctx.app, ctx.database.db, { strangerTeam: true }));
  teamId = team.id;
  ({ projectId, otherProjectId, hookId } = await projectsAndQueuedHook(
    ok,
    { owner, stranger, teamId },
    ['Fielded', 'Other'],
    ['task.updated', 'task.created'],
  ));
  f.text = await addField({ name: 'Customer', type: 'text' });
  f.url = await addField({ name: 'Link', type: 'url' });
  f.number = await addField({ name: 'Points', type: 'number', unit: 'pt', decimals: 1 });
  f.select = await addField({ name: 'Severity', type: 'select', options: options('Low', 'High', 'Critical') });
  f.multi = await addField({ name: 'Labels', type: 'multi_select', options: options('A', 'B', 'C') });
  f.date = await addField({ name: 'Review', type: 'date' });
  f.person = await addField({ name: 'Reviewer', type: 'person' });
  f.checkbox = await addField({ name: 'Approved', type: 'checkbox' });
  f.onlyOther = await addField({ name: 'Sprint', type: 'text', projectIds: [otherProjectId] });
  f.archived = await addField({ name: 'Legacy', type: 'text' });
  await ok(owner, 'PATCH', `/api/fields/${f.archived.id}`, { archived: true });
  const strangerTeamId = (await ok<{ id: string }[]>(stranger, 'GET', '/api/teams'))[0]!.id;
  f.theirs = await addField({ name: 'Theirs', type: 'text' }, stranger, () => strangerTeamId);
  unsubscribe = ctx.app.deps.events.subscribe((event) => published.push(event));
});
afterAll(() => unsubscribe?.());

const create = (body: Record<string, unknown>, user = owner) =>
  ok<TaskDto>(user, 'POST', '/api/tasks', { title: 'Task', projectId, ...body }, 201);
const patch = (id: string, body: Record<string, unknown>, user = owner) => ok<TaskDto>(user, 'PATCH', `/api/tasks/${id}`, body);
const get = (id: string, user = owner) => ok<TaskDto>(user, 'GET', `/api/tasks/${id}`);
const history = async (id: string) =>
  (await ok<ActivityListDto>(owner, 'GET', `/api/tasks/${id}/activity`)).activity.filter((a) => a.field === 'custom_field');
/** The task's typed value rows (the trigger's), as `fieldName=value`, sorted. */
async function valueRows(taskId: string): Promise<string[]> {
  const names = new Map(Object.values(f).map((d) => [d.id, d.name]));
  const rows = await ctx.database.db.select().from(taskFieldValues).where(eq(taskFieldValues.taskId, taskId));
  return rows
    .map((r) => {
      const value = r.vText ?? (r.vNum === null ? null : Number(r.vNum)) ?? r.vDate ?? r.vOption ?? r.vUser ?? r.vBool;
      return `${names.get(r.fieldId)}=${value}`;
    })
    .sort();
}

/** Every value type at once, as sent (multi-select out of order, the person's id in capitals). */
const everyValue = () => ({
  [f.text.id]: '  Acme  ',
  [f.url.id]: 'https://acme.example/deal',
  [f.number.id]: 3.5,
  [f.select.id]: opt(f.select, 'High'),
  [f.multi.id]: [opt(f.multi, 'C'), opt(f.multi, 'A')],
  [f.date.id]: '2030-01-10',
  [f.person.id]: member.id.toUpperCase(),
  [f.checkbox.id]: true,
});
/** The same values as stored and answered. */
const everyStored = () => ({
  [f.text.id]: 'Acme',
  [f.url.id]: 'https://acme.example/deal',
  [f.number.id]: 3.5,
  [f.select.id]: opt(f.select, 'High'),
  [f.multi.id]: [opt(f.multi, 'A'), opt(f.multi, 'C')],
  [f.date.id]: '2030-01-10',
  [f.person.id]: member.id,
  [f.checkbox.id]: true,
});

describe('setting values', () => {
  it('creates a task with a value of every type, answered and read back as stored, on every read of cards', async () => {
    const task = await create({ title: 'Every type', fields: everyValue() });
    expect(task.fields).toEqual(everyStored());
    expect((await get(task.id)).fields).toEqual(everyStored());
    expect(await valueRows(task.id)).toEqual(
      [
        'Customer=Acme',
        'Link=https://acme.example/deal',
        'Points=3.5',
        `Severity=${opt(f.select, 'High')}`,
        `Labels=${opt(f.multi, 'A')}`,
        `Labels=${opt(f.multi, 'C')}`,
        'Review=2030-01-10',
        `Reviewer=${member.id}`,
        'Approved=true',
      ].sort(),
    );
    // The list (row statement and filtered read) and the board (one project, All Projects, filtered) carry them.
    const find = (cards: Pick<TaskDto, 'id' | 'fields'>[]) => cards.find((t) => t.id === task.id)?.fields;
    expect(find((await ok<TaskListDto>(owner, 'GET', `/api/tasks?projectId=${projectId}`)).tasks)).toEqual(everyStored());
    expect(find((await ok<TaskListDto>(owner, 'GET', '/api/tasks?limit=500')).tasks)).toEqual(everyStored());
    expect(find((await ok<TaskListDto>(owner, 'GET', `/api/tasks?projectId=${projectId}&sort=title`)).tasks)).toEqual(
      everyStored(),
    );
    const board = await ok<TaskBoardDto>(owner, 'GET', `/api/tasks/board?projectId=${projectId}&limit=100`);
    expect(find(Object.values(board.columns).flat())).toEqual(everyStored());
    const all = await ok<TaskBoardDto>(owner, 'GET', '/api/tasks/board?limit=100');
    expect(find(Object.values(all.columns).flat())).toEqual(everyStored());
    const filtered = await ok<TaskBoardDto>(owner, 'GET', `/api/tasks/board?projectId=${projectId}&priority=medium&limit=100`);
    expect(find(Object.values(filtered.columns).flat())).toEqual(everyStored());
    // A task created without values has none, and its insert wrote no value rows.
    const plain = await create({ title: 'Plain' });
    expect(plain.fields).toEqual({});
    expect(await valueRows(plain.id)).toEqual([]);
  });

  it('sets values through PATCH as a partial map, and clears them with null, empty text, an empty list and false', async () => {
    const task = await create({ title: 'Patched' });
    const set = await patch(task.id, { fields: everyValue() });
    expect(set.fields).toEqual(everyStored());
    expect(set.version).toBe(task.version + 1);
    // Only the fields named change.
    const one = await patch(task.id, { fields: { [f.number.id]: 8 } });
    expect(one.fields).toEqual({ ...everyStored(), [f.number.id]: 8 });
    const cleared = await patch(task.id, {
      fields: {
        [f.text.id]: '   ',
        [f.url.id]: '',
        [f.number.id]: null,
        [f.select.id]: null,
        [f.multi.id]: [],
        [f.date.id]: null,
        [f.person.id]: null,
        [f.checkbox.id]: false,
      },
    });
    expect(cleared.fields).toEqual({});
    expect((await get(task.id)).fields).toEqual({});
    expect(await valueRows(task.id)).toEqual([]);
    // An edit without `fields` keeps them.
    await patch(task.id, { fields: { [f.text.id]: 'Kept' } });
    expect((await patch(task.id, { title: 'Renamed' })).fields).toEqual({ [f.text.id]: 'Kept' });
  });

  it('lets a plain member set values, and a field for one project only on that project', async () => {
    const task = await create({ title: 'By a member' }, member);
    const edited = await patch(task.id, { fields: { [f.select.id]: opt(f.select, 'Low'), [f.person.id]: owner.id } }, member);
    expect(edited.fields).toEqual({ [f.select.id]: opt(f.select, 'Low'), [f.person.id]: owner.id });
    const there = await create({ title: 'Sprint task', projectId: otherProjectId, fields: { [f.onlyOther.id]: 'Sprint 4' } });
    expect(there.fields).toEqual({ [f.onlyOther.id]: 'Sprint 4' });
    // Moved with the body naming the new project and a value of its field: checked against that project.
    const moved = await patch(task.id, { projectId: otherProjectId, fields: { [f.onlyOther.id]: 'Sprint 5' } }, member);
    expect(moved.fields).toEqual({ [f.select.id]: opt(f.select, 'Low'), [f.person.id]: owner.id, [f.onlyOther.id]: 'Sprint 5' });
    // Moved back: the value of the other project's field is kept (hidden there, not lost).
    expect((await patch(task.id, { projectId }, member)).fields[f.onlyOther.id]).toBe('Sprint 5');
  });
});

describe('refusals', () => {
  const refusals = (): [string, Record<string, unknown>, string][] => [
    ['an unknown field', { [randomUUID()]: 'x' }, FIELD_VALUE_TEXT.unknown],
    ["another team's field", { [f.theirs.id]: 'x' }, FIELD_VALUE_TEXT.unknown],
    ['an archived field', { [f.archived.id]: 'x' }, FIELD_VALUE_TEXT.archived('Legacy')],
    ['a field of another project', { [f.onlyOther.id]: 'x' }, FIELD_VALUE_TEXT.notHere('Sprint')],
    ['text too long', { [f.text.id]: 'x'.repeat(1001) }, FIELD_VALUE_TEXT.text('Customer')],
    ['a number as text', { [f.number.id]: '3' }, FIELD_VALUE_TEXT.number('Points')],
    ['too many decimals', { [f.number.id]: 1.25 }, FIELD_VALUE_TEXT.decimals('Points', 1)],
    ['an option of no such field', { [f.select.id]: opt(f.multi, 'A') }, FIELD_VALUE_TEXT.option('Severity')],
    ['a multi-select of unknown options', { [f.multi.id]: [opt(f.multi, 'A'), randomUUID()] }, FIELD_VALUE_TEXT.option('Labels')],
    ['a date that does not exist', { [f.date.id]: '2030-02-30' }, FIELD_VALUE_TEXT.date('Review')],
    ['a person of another team', { [f.person.id]: stranger.id }, FIELD_VALUE_TEXT.person('Reviewer')],
    ['a checkbox as text', { [f.checkbox.id]: 'yes' }, FIELD_VALUE_TEXT.checkbox('Approved')],
    ['a web address of another scheme', { [f.url.id]: 'ftp://acme.example' }, FIELD_VALUE_TEXT.url('Link')],
  ];

  it('refuses each bad value on PATCH with 400 naming the field, and writes nothing', async () => {
    const task = await create({ title: 'Guarded', fields: { [f.text.id]: 'Before' } });
    for (const [what, fields, message] of refusals()) {
      // Beside a valid value and another change: the whole edit is refused.
      const res = await call(member, 'PATCH', `/api/tasks/${task.id}`, {
        title: 'Changed',
        fields: { [f.text.id]: 'After', ...fields },
      });
      expect(res.statusCode, what).toBe(400);
      expect(res.json().error, what).toMatchObject({ code: 'validation_failed', reason: 'custom_field_invalid', message });
    }
    // The messages name the field.
    expect(FIELD_VALUE_TEXT.person('Reviewer')).toContain('Reviewer');
    const after = await get(task.id);
    expect(after).toMatchObject({ title: 'Guarded', version: task.version, fields: { [f.text.id]: 'Before' } });
  });

  it('refuses each bad value on POST, creating nothing', async () => {
    for (const [what, fields, message] of refusals()) {
      const res = await call(owner, 'POST', '/api/tasks', { title: `Refused ${what}`, projectId, fields });
      expect(res.statusCode, what).toBe(400);
      expect(res.json().error.message, what).toBe(message);
    }
    const titles = (await ok<TaskListDto>(owner, 'GET', `/api/tasks?projectId=${projectId}&q=Refused`)).tasks;
    expect(titles).toEqual([]);
  });
});

describe('history, webhooks and realtime', () => {
  it("records a 'custom_field' entry per changed field, with its name and the values as a person reads them", async () => {
    const task = await create({ title: 'Tracked', fields: { [f.select.id]: opt(f.select, 'High'), [f.text.id]: 'Same' } });
    await patch(
      task.id,
      {
        priority: 'urgent',
        fields: {
          [f.select.id]: opt(f.select, 'Critical'),
          [f.person.id]: member.id,
          [f.number.id]: 2,
          [f.multi.id]: [opt(f.multi, 'B'), opt(f.multi, 'A')],
          [f.text.id]: 'Same',
        },
      },
      member,
    );
    await patch(task.id, { fields: { [f.checkbox.id]: true, [f.number.id]: null } });
    const entries = (await history(task.id)).map(({ fieldName, oldValue, newValue, oldLabel, newLabel, actor }) => ({
      fieldName,
      oldValue,
      newValue,
      oldLabel,
      newLabel,
      actor: actor?.fullName,
    }));
    expect(entries).toEqual([
      {
        fieldName: 'Points',
        oldValue: null,
        newValue: '2',
        oldLabel: null,
        newLabel: '2.0 pt',
        actor: 'Mia Member',
      },
      {
        fieldName: 'Severity',
        oldValue: JSON.stringify(opt(f.select, 'High')),
        newValue: JSON.stringify(opt(f.select, 'Critical')),
        oldLabel: 'High',
        newLabel: 'Critical',
        actor: 'Mia Member',
      },
      {
        fieldName: 'Labels',
        oldValue: null,
        newValue: JSON.stringify([opt(f.multi, 'A'), opt(f.multi, 'B')]),
        oldLabel: null,
        newLabel: 'A, B',
        actor: 'Mia Member',
      },
      {
        fieldName: 'Reviewer',
        oldValue: null,
        newValue: JSON.stringify(member.id),
        oldLabel: null,
        newLabel: 'Mia Member',
        actor: 'Mia Member',
      },
      { fieldName: 'Points', oldValue: '2', newValue: null, oldLabel: '2.0 pt', newLabel: null, actor: 'Olive Owner' },
      { fieldName: 'Approved', oldValue: null, newValue: 'true', oldLabel: null, newLabel: 'Yes', actor: 'Olive Owner' },
    ]);
    // The other fields' history is as before: the priority entry is there too.
    const all = (await ok<ActivityListDto>(owner, 'GET', `/api/tasks/${task.id}/activity`)).activity;
    expect(all.map((a) => a.field)).toContain('priority');
    expect(all.find((a) => a.field === 'priority')?.fieldName).toBeNull();
    expect((await history(task.id)).every((a) => a.fieldName !== null)).toBe(true);
  });

  it('sends the values in the webhook payloads and a realtime task.updated for an edit of values only', async () => {
    published = [];
    const task = await create({ title: 'Hooked', fields: { [f.text.id]: 'Initech' } });
    await patch(task.id, { fields: { [f.text.id]: 'Umbrella' } });
    const bodies = (
      await ctx.database.db
        .select()
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.webhookId, hookId))
        .orderBy(webhookDeliveries.id)
    )
      .map((d) => ({ type: d.eventType, task: (JSON.parse(d.body) as { data: { task: TaskDto } }).data.task }))
      .filter((d) => d.task.id === task.id);
    expect(bodies.map((b) => [b.type, b.task.fields])).toEqual([
      ['task.created', { [f.text.id]: 'Initech' }],
      ['task.updated', { [f.text.id]: 'Umbrella' }],
    ]);
    expect(published.filter((e) => e.type === 'task.updated' && 'taskId' in e && e.taskId === task.id)).toHaveLength(1);
  });
});

describe('a move to another team', () => {
  it('clears the values of the task and its sub-tasks; within the team they are kept', async () => {
    const otherTeamId = (await insertTeam(ctx.database.db, owner, 'Elsewhere')).id;
    const farProjectId = (await ok<{ id: string }>(owner, 'POST', '/api/projects', { name: 'Far', teamId: otherTeamId }, 201)).id;
    const parent = await create({ title: 'Leaving', fields: { [f.text.id]: 'Gone', [f.checkbox.id]: true } });
    const child = await create({ title: 'Leaving too', parentId: parent.id, fields: { [f.select.id]: opt(f.select, 'Low') } });
    const sibling = await create({ title: 'Staying', fields: { [f.text.id]: 'Kept' } });
    expect((await patch(sibling.id, { projectId: otherProjectId })).fields).toEqual({ [f.text.id]: 'Kept' });

    const moved = await patch(parent.id, { projectId: farProjectId });
    expect(moved.fields).toEqual({});
    expect((await get(child.id)).fields).toEqual({});
    const rows = await ctx.database.db
      .select()
      .from(tasks)
      .where(inArray(tasks.id, [parent.id, child.id]));
    expect(rows.map((r) => r.fields)).toEqual([{}, {}]);
    expect(await valueRows(parent.id)).toEqual([]);
    expect(await valueRows(child.id)).toEqual([]);
    // The history says what went.
    expect((await history(parent.id)).map((a) => [a.fieldName, a.oldLabel, a.newLabel])).toEqual([
      ['Customer', 'Gone', null],
      ['Approved', 'Yes', null],
    ]);
    // Values of the old team's fields cannot be set there.
    const res = await call(owner, 'PATCH', `/api/tasks/${parent.id}`, { fields: { [f.text.id]: 'Back' } });
    expect(res.json().error).toMatchObject({ reason: 'custom_field_invalid', message: FIELD_VALUE_TEXT.unknown });
  });
});

describe('a project moved to another team', () => {
  it("takes its tasks' values with it no further: they were the old team's fields", async () => {
    const otherTeamId = (await insertTeam(ctx.database.db, owner, 'Project destination')).id;
    const movingProjectId = (await ok<{ id: string }>(owner, 'POST', '/api/projects', { name: 'Moving', teamId }, 201)).id;
    const task = await create({ title: 'Goes with its project', projectId: movingProjectId, fields: { [f.text.id]: 'Acme' } });
    expect(await valueRows(task.id)).toEqual(['Customer=Acme']);
    await ok(owner, 'PATCH', `/api/projects/${movingProjectId}`, { teamId: otherTeamId });
    expect((await get(task.id)).fields).toEqual({});
    expect(await valueRows(task.id)).toEqual([]);
  });
});

describe('filters', () => {
  let filterProjectId: string;
  const t: Record<string, TaskDto> = {};

  beforeAll(async () => {
    filterProjectId = (await ok<{ id: string }>(owner, 'POST', '/api/projects', { name: 'Filters', teamId }, 201)).id;
    const add = (title: string, priority: string, fields: Record<string, unknown>) =>
      create({ title, priority, projectId: filterProjectId, fields });
    t.one = await add('one', 'high', {
      [f.text.id]: 'Acme 50% Corp',
      [f.url.id]: 'https://acme.example/x',
      [f.number.id]: 3,
      [f.select.id]: opt(f.select, 'High'),
      [f.multi.id]: [opt(f.multi, 'A'), opt(f.multi, 'B')],
      [f.date.id]: '2030-01-10',
      [f.person.id]: member.id,
      [f.checkbox.id]: true,
    });
    t.two = await add('two', 'low', {
      [f.text.id]: 'Globex',
      [f.number.id]: 7.5,
      [f.select.id]: opt(f.select, 'Critical'),
      [f.multi.id]: [opt(f.multi, 'C')],
      [f.date.id]: '2030-02-01',
      [f.person.id]: owner.id,
    });
    t.three = await add('three', 'high', {
      [f.text.id]: 'acme_two',
      [f.number.id]: -1,
      [f.select.id]: opt(f.select, 'Low'),
      [f.multi.id]: [opt(f.multi, 'B')],
      [f.date.id]: '2030-03-05',
      [f.checkbox.id]: true,
    });
    t.four = await add('four', 'high', {});
  });

  const cf = (field: CustomFieldDto, op: string, value: string) => `cf=${encodeURIComponent(`${field.id}:${op}:${value}`)}`;
  /** The titles the list finds (checked against its total and the board's cards and counts), sorted. */
  async function found(...params: string[]): Promise<string[]> {
    const query = [`projectId=${filterProjectId}`, ...params].join('&');
    const list = await ok<TaskListDto>(owner, 'GET', `/api/tasks?${query}`);
    const board = await ok<TaskBoardDto>(owner, 'GET', `/api/tasks/board?${query}`);
    const titles = list.tasks.map((x) => x.title).sort();
    expect(list.total).toBe(titles.length);
    expect(
      Object.values(board.columns)
        .flat()
        .map((x) => x.title)
        .sort(),
    ).toEqual(titles);
    expect(board.total).toBe(titles.length);
    return titles;
  }

  it('filters by every operator of every type, on the list, its counts and the board', async () => {
    const { text, url, number, select, multi, date, person, checkbox } = f;
    const cases: [string[], string[]][] = [
      [[cf(text, 'contains', 'ACME')], ['one', 'three']],
      // % and _ are characters, not wildcards; a comma or colon is part of the text.
      [[cf(text, 'contains', '50%')], ['one']],
      [[cf(text, 'contains', '_')], ['three']],
      [[cf(text, 'contains', 'x:y,z')], []],
      [[cf(url, 'contains', 'acme.example')], ['one']],
      [[cf(number, 'eq', '3')], ['one']],
      [[cf(number, 'lt', '3')], ['three']],
      [[cf(number, 'gt', '3')], ['two']],
      [[cf(number, 'between', '-1,3')], ['one', 'three']],
      [[cf(select, 'any', `${opt(select, 'High')},${opt(select, 'Critical')}`)], ['one', 'two']],
      [[cf(select, 'none', opt(select, 'High'))], ['four', 'three', 'two']],
      [[cf(multi, 'any', opt(multi, 'B'))], ['one', 'three']],
      [[cf(multi, 'none', opt(multi, 'B'))], ['four', 'two']],
      [[cf(date, 'before', '2030-02-01')], ['one']],
      [[cf(date, 'after', '2030-02-01')], ['three']],
      [[cf(date, 'between', '2030-01-10,2030-02-01')], ['one', 'two']],
      [[cf(person, 'is', member.id)], ['one']],
      [[cf(checkbox, 'is', 'true')], ['one', 'three']],
      [[cf(checkbox, 'is', 'false')], ['four', 'two']],
      // Combined with each other and with the other filters.
      [
        [cf(text, 'contains', 'acme'), 'priority=high'],
        ['one', 'three'],
      ],
      [[cf(text, 'contains', 'acme'), 'priority=low'], []],
      [[cf(checkbox, 'is', 'false'), cf(number, 'gt', '0')], ['two']],
      [
        [cf(select, 'none', opt(select, 'Low')), 'priority=high', 'q=o'],
        ['four', 'one'],
      ],
    ];
    for (const [params, expected] of cases) expect(await found(...params), params.join('&')).toEqual(expected);
    // The counts per status count the filtered tasks (all in 'todo' here).
    const list = await ok<TaskListDto>(owner, 'GET', `/api/tasks?projectId=${filterProjectId}&${cf(checkbox, 'is', 'true')}`);
    expect(list.counts).toMatchObject({ todo: 2, in_progress: 0 });
  });

  it('refuses a filter that does not parse, names a field of no team of the caller, or does not fit its field', async () => {
    const bad = async (param: string, message?: string) => {
      for (const url of [`/api/tasks?${param}`, `/api/tasks/board?${param}`]) {
        const res = await call(owner, 'GET', url);
        expect(res.statusCode, `${url} ${res.body}`).toBe(400);
        expect(res.json().error.reason).toBe('custom_field_filter_invalid');
        if (message) expect(res.json().error.message).toBe(message);
      }
    };
    await bad(`cf=${encodeURIComponent('nonsense')}`);
    await bad(`cf=${encodeURIComponent(`${f.number.id}:between:1`)}`);
    await bad(cf(f.theirs, 'contains', 'x'), FIELD_VALUE_TEXT.unknown);
    await bad(cf(f.number, 'contains', 'x'), 'Points cannot be filtered that way');
    await bad(cf(f.number, 'eq', 'many'), 'Points cannot be filtered that way');
    await bad(cf(f.select, 'any', opt(f.multi, 'A')), 'Severity cannot be filtered that way');
    await bad(cf(f.date, 'before', '2030-13-01'), 'Review cannot be filtered that way');
    // The stranger cannot filter by the team's fields.
    const res = await call(stranger, 'GET', `/api/tasks?${cf(f.text, 'contains', 'a')}`);
    expect(res.json().error.reason).toBe('custom_field_filter_invalid');
  });
});

describe('sort by a field', () => {
  let sortProjectId: string;
  const s: TaskDto[] = [];

  beforeAll(async () => {
    sortProjectId = (await ok<{ id: string }>(owner, 'POST', '/api/projects', { name: 'Sorting', teamId }, 201)).id;
    const L = opt(f.select, 'Low');
    const H = opt(f.select, 'High');
    const C = opt(f.select, 'Critical');
    const [A, B, Cm] = ['A', 'B', 'C'].map((name) => opt(f.multi, name));
    const rows: Record<string, unknown>[] = [
      {
        [f.number.id]: 5,
        [f.select.id]: C,
        [f.date.id]: '2030-05-01',
        [f.text.id]: 'beta',
        [f.multi.id]: [B],
        [f.person.id]: member.id,
        [f.checkbox.id]: true,
      },
      { [f.select.id]: L, [f.date.id]: '2030-01-01', [f.text.id]: 'Alpha', [f.multi.id]: [Cm, A], [f.person.id]: owner.id },
      { [f.number.id]: 2 },
      { [f.number.id]: 5, [f.select.id]: H, [f.text.id]: 'gamma', [f.multi.id]: [Cm], [f.checkbox.id]: true },
      { [f.select.id]: L, [f.date.id]: '2030-03-01', [f.person.id]: member.id },
      { [f.number.id]: 10, [f.date.id]: '2030-01-01', [f.text.id]: 'alpha', [f.multi.id]: [A] },
    ];
    // One after another: each newer than the one before.
    for (const [i, fields] of rows.entries()) s.push(await create({ title: `s${i + 1}`, projectId: sortProjectId, fields }));
  });

  const page = async (field: CustomFieldDto, params = '') =>
    (await ok<TaskListDto>(owner, 'GET', `/api/tasks?projectId=${sortProjectId}&sort=field:${field.id}${params}`)).tasks.map(
      (x) => x.title,
    );
  /** Every page of `size` concatenated, checked against the one-page read. */
  async function paged(field: CustomFieldDto, dir: 'asc' | 'desc', size: number): Promise<string[]> {
    const whole = await page(field, `&dir=${dir}`);
    for (let offset = 0; offset < whole.length + size; offset++) {
      expect(await page(field, `&dir=${dir}&limit=${size}&offset=${offset}`), `offset ${offset}`).toEqual(
        whole.slice(offset, offset + size),
      );
    }
    return whole;
  }

  it('sorts by a number: valued tasks by value (ties newest first), then the rest newest first, across pages', async () => {
    expect(await paged(f.number, 'asc', 2)).toEqual(['s3', 's4', 's1', 's6', 's5', 's2']);
    expect(await paged(f.number, 'desc', 4)).toEqual(['s6', 's4', 's1', 's3', 's5', 's2']);
    // Ascending unless told.
    expect(await page(f.number)).toEqual(['s3', 's4', 's1', 's6', 's5', 's2']);
    // A page wholly past the valued tasks, and one past everything.
    expect(await page(f.number, '&limit=2&offset=4')).toEqual(['s5', 's2']);
    expect(await page(f.number, '&limit=2&offset=6')).toEqual([]);
    // With a filter: the same order of what it leaves.
    expect(await page(f.number, `&cf=${encodeURIComponent(`${f.select.id}:none:${opt(f.select, 'High')}`)}`)).toEqual([
      's3',
      's1',
      's6',
      's5',
      's2',
    ]);
  });

  it('sorts by a date the same way', async () => {
    expect(await paged(f.date, 'asc', 2)).toEqual(['s6', 's2', 's5', 's1', 's4', 's3']);
    expect(await paged(f.date, 'desc', 3)).toEqual(['s1', 's5', 's6', 's2', 's4', 's3']);
  });

  it('sorts a select in its options order, and text case-insensitively, without a value last', async () => {
    expect(await paged(f.select, 'asc', 2)).toEqual(['s5', 's2', 's4', 's1', 's6', 's3']);
    expect(await paged(f.select, 'desc', 5)).toEqual(['s1', 's4', 's5', 's2', 's6', 's3']);
    expect(await page(f.text)).toEqual(['s6', 's2', 's1', 's4', 's5', 's3']);
  });

  it('sorts a multi-select by its first option, a person by name and a checkbox ticked first', async () => {
    expect(await page(f.multi)).toEqual(['s6', 's2', 's1', 's4', 's5', 's3']);
    expect(await page(f.multi, '&dir=desc')).toEqual(['s4', 's1', 's6', 's2', 's5', 's3']);
    // Mia Member before Olive Owner.
    expect(await paged(f.person, 'asc', 2)).toEqual(['s5', 's1', 's2', 's6', 's4', 's3']);
    expect(await page(f.checkbox)).toEqual(['s4', 's1', 's6', 's5', 's3', 's2']);
  });

  it('refuses a sort by a field of no team of the caller', async () => {
    for (const id of [f.theirs.id, randomUUID()]) {
      const res = await call(owner, 'GET', `/api/tasks?sort=field:${id}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.reason).toBe('custom_field_filter_invalid');
    }
  });
});

describe('search', () => {
  it("finds a task by a text field's value, for members only", async () => {
    const task = await create({ title: 'Quarterly call', fields: { [f.text.id]: 'Zephyrine Industries' } });
    const search = (user: TestUser, q: string) => ok<SearchResultDto>(user, 'GET', `/api/search?q=${encodeURIComponent(q)}`);
    const hit = (await search(member, 'zephyrine')).groups.task.find((h) => h.id === task.id);
    expect(hit).toBeDefined();
    expect(hit?.snippet).toContain('Zephyrine');
    expect((await search(stranger, 'zephyrine')).groups.task).toEqual([]);
    // A url value too.
    const linked = await create({ title: 'Linked', fields: { [f.url.id]: 'https://quokkaworks.example/spec' } });
    expect((await search(owner, 'quokkaworks')).groups.task.map((h) => h.id)).toContain(linked.id);
  });
});
