import { randomUUID } from 'node:crypto';
import { asc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type {
  CrewboardExport,
  CsvPreviewDto,
  ImportResultDto,
  TeamImportResultDto,
  TrelloPreviewDto,
} from '../../src/domain/schemas/transfer';
import { csvImportPlan, planCsvImport } from '../../src/domain/transfer/csv-import';
import { insertDefaultStatuses } from '../../src/server/db/project-statuses';
import { writeImportPlan } from '../../src/server/modules/transfer/transfer.writer';
import { customFields, projects, taskFieldValues, tasks } from '../../src/server/db/schema';
import { createUser, insertMember, insertTeam, type TestUser } from '../factories';
import { apiRequests } from '../helpers/api';
import { setupTestApp } from '../helpers/app';

/**
 * Custom fields in import and export (issue 38): CSV columns mapped to fields (existing or new), the tasks CSV's
 * columns, the team JSON export's definitions and values and their import, a Trello board's custom fields.
 */

const ctx = setupTestApp();
const { call, ok } = apiRequests(ctx);
const db = () => ctx.database.db;

let olive: TestUser;
let ada: TestUser;
let team: { id: string; name: string };
let projectId: string;
const opt = { low: randomUUID(), high: randomUUID(), critical: randomUUID() };
const f = { severity: '', points: '', owner: '', old: '' };

beforeAll(async () => {
  [olive, ada] = await Promise.all([
    createUser(ctx.app, { fullName: 'Olive Owner' }),
    createUser(ctx.app, { fullName: 'Ada Lovelace' }),
  ]);
  team = await insertTeam(db(), olive, 'Field Crew');
  await insertMember(db(), team.id, ada, 'member');
  const [p] = await db()
    .insert(projects)
    .values({ name: 'Site', teamId: team.id, ownerId: olive.id, status: 'active' })
    .returning();
  await insertDefaultStatuses(db(), [p!.id]);
  projectId = p!.id;
  const rows = await db()
    .insert(customFields)
    .values([
      {
        teamId: team.id,
        name: 'Severity',
        type: 'select',
        position: 0,
        showOnCard: true,
        options: [
          { id: opt.low, name: 'Low', color: '#16a34a' },
          { id: opt.high, name: 'High', color: '#ea580c' },
          { id: opt.critical, name: 'Critical', color: '#dc2626' },
        ],
      },
      { teamId: team.id, name: 'Points', type: 'number', position: 1, unit: 'pt', decimals: 1 },
      { teamId: team.id, name: 'Owner', type: 'person', position: 2 },
      { teamId: team.id, name: 'Old', type: 'text', position: 3, archived: true },
    ])
    .returning();
  [f.severity, f.points, f.owner, f.old] = rows.map((r) => r.id) as [string, string, string, string];
  await db()
    .insert(tasks)
    .values([
      {
        title: 'With values',
        projectId,
        creatorId: olive.id,
        fields: { [f.severity]: opt.high, [f.points]: 2.5, [f.owner]: ada.id, [f.old]: 'kept' },
        createdAt: new Date('2024-01-01T00:00:00Z'),
      },
      { title: 'Without', projectId, creatorId: olive.id, createdAt: new Date('2024-01-02T00:00:00Z') },
    ]);
});

const taskNamed = async (title: string) => (await db().select().from(tasks).where(eq(tasks.title, title)))[0]!;

describe('the tasks CSV (issue 38)', () => {
  it('has a column per field of the team (not archived): option names, numbers with their unit, people by name', async () => {
    const res = await call(olive, 'GET', `/api/teams/${team.id}/export.csv`);
    expect(res.statusCode).toBe(200);
    const [header, first, second] = res.body.replace('\uFEFF', '').split('\r\n');
    expect(header!.endsWith(',Description,Severity,Points,Owner')).toBe(true);
    expect(first!.startsWith('With values,')).toBe(true);
    expect(first!.endsWith(',High,2.5 pt,Ada Lovelace')).toBe(true);
    expect(second!.endsWith(',,,')).toBe(true);
  });
});

describe('CSV import into custom fields', () => {
  const csv = [
    'Title,severity,Story points,Owner,Customer',
    'Alpha,critical,5,ada@example.invalid,ACME',
    'Beta,Blocker,x,,Globex',
    'Gamma,,,,',
  ].join('\n');

  it('suggests the field a header names and previews the values, a bad value a warning', async () => {
    const preview = await ok<CsvPreviewDto>(olive, 'POST', `/api/teams/${team.id}/import/csv`, { csv, projectId });
    expect(preview.mapping).toMatchObject({ Title: 'title', severity: `field:${f.severity}`, Customer: 'ignore' });
    expect(preview.fields.map((x) => x.name)).toEqual(['Severity', 'Points', 'Owner']);
    const mapping = { ...preview.mapping, 'Story points': 'new_field', Customer: 'new_field', Owner: `field:${f.owner}` };
    const dry = await ok<CsvPreviewDto>(olive, 'POST', `/api/teams/${team.id}/import/csv`, {
      csv: csv.replace('ada@example.invalid', ada.email),
      mapping,
      projectId,
      dryRun: true,
    });
    expect(dry.errors).toEqual([]);
    expect(dry.rows[0]!.fields).toEqual({ Severity: 'Critical', 'Story points': '5', Owner: 'Ada Lovelace', Customer: 'ACME' });
    expect(dry.warnings).toContain('Line 3: Severity has no option "Blocker": left empty');
    // 'x' makes the new 'Story points' a Text field, not Number.
    expect(dry.rows[1]!.fields).toEqual({ 'Story points': 'x', Customer: 'Globex' });
  });

  it('writes the values (the trigger fills the typed table) and creates the new fields', async () => {
    const mapping = { Title: 'title', severity: `field:${f.severity}`, 'Story points': 'ignore', Customer: 'new_field' };
    const result = await ok<ImportResultDto>(olive, 'POST', `/api/teams/${team.id}/import/csv`, { csv, mapping, projectId }, 201);
    expect(result.counts.tasks).toBe(3);
    const customer = (await db().select().from(customFields).where(eq(customFields.teamId, team.id))).find(
      (x) => x.name === 'Customer',
    )!;
    expect(customer).toMatchObject({ type: 'text', position: 4, projectIds: null, archived: false });
    const alpha = await taskNamed('Alpha');
    expect(alpha.fields).toEqual({ [f.severity]: opt.critical, [customer.id]: 'ACME' });
    expect((await taskNamed('Beta')).fields).toEqual({ [customer.id]: 'Globex' });
    expect((await taskNamed('Gamma')).fields).toEqual({});
    const typed = await db().select().from(taskFieldValues).where(eq(taskFieldValues.taskId, alpha.id));
    expect(typed.find((v) => v.fieldId === f.severity)?.vOption).toBe(opt.critical);
    expect(typed.find((v) => v.fieldId === customer.id)?.vText).toBe('ACME');
  });

  it('refuses a new field named as one of the team (an error on the preview, not a write)', async () => {
    const res = await call(olive, 'POST', `/api/teams/${team.id}/import/csv`, {
      csv,
      mapping: { Title: 'title', severity: 'new_field' },
      projectId,
    });
    expect(res.statusCode).toBe(400);
    expect(JSON.stringify(res.json().error.fields)).toMatch(/already has a field named/);
  });
});

describe('the team JSON export and import', () => {
  it('carries the definitions and values by the file’s keys, and the import recreates them for the new team', async () => {
    const file = await ok<CrewboardExport>(olive, 'GET', `/api/teams/${team.id}/export`);
    expect(file.version).toBe(1);
    const fields = file.fields!;
    expect(fields.slice(0, 4).map((x) => [x.key, x.name, x.type, x.archived])).toEqual([
      ['f1', 'Severity', 'select', false],
      ['f2', 'Points', 'number', false],
      ['f3', 'Owner', 'person', false],
      ['f4', 'Old', 'text', true],
    ]);
    expect(fields[0]!.options.map((o) => o.name)).toEqual(['Low', 'High', 'Critical']);
    expect(fields[1]).toMatchObject({ unit: 'pt', decimals: 1, projects: null });
    const withValues = file.tasks.find((t) => t.title === 'With values')!;
    const high = fields[0]!.options[1]!.key;
    expect(withValues.fields).toEqual({ f1: high, f2: 2.5, f3: ada.email, f4: 'kept' });
    expect(JSON.stringify(file)).not.toContain(opt.high);

    // Imported by Ada: she is the new team's one member, so the person value (hers) is kept.
    const result = await ok<TeamImportResultDto>(ada, 'POST', '/api/teams/import', file, 201);
    const made = await db()
      .select()
      .from(customFields)
      .where(eq(customFields.teamId, result.teamId))
      .orderBy(asc(customFields.position));
    expect(made.slice(0, 4).map((x) => [x.name, x.type, x.archived, x.showOnCard])).toEqual([
      ['Severity', 'select', false, true],
      ['Points', 'number', false, false],
      ['Owner', 'person', false, false],
      ['Old', 'text', true, false],
    ]);
    expect(made[0]!.id).not.toBe(f.severity);
    const newHigh = made[0]!.options.find((o) => o.name === 'High')!.id;
    expect(newHigh).not.toBe(opt.high);
    const [copy] = await db()
      .select({ fields: tasks.fields })
      .from(tasks)
      .innerJoin(projects, eq(projects.id, tasks.projectId))
      .where(eq(projects.teamId, result.teamId))
      .orderBy(asc(tasks.createdAt));
    expect(copy!.fields).toEqual({ [made[0]!.id]: newHigh, [made[1]!.id]: 2.5, [made[2]!.id]: ada.id, [made[3]!.id]: 'kept' });
  });

  it('imports a file from before custom fields, and refuses a value naming no field', async () => {
    const file = await ok<CrewboardExport>(olive, 'GET', `/api/teams/${team.id}/export`);
    const { fields: _drop, ...old } = file;
    const older = { ...old, tasks: old.tasks.map(({ fields: _f, ...t }) => t) };
    await ok<TeamImportResultDto>(olive, 'POST', '/api/teams/import', older, 201);
    const bad = { ...file, tasks: file.tasks.map((t, i) => (i === 0 ? { ...t, fields: { f99: 'x' } } : t)) };
    const res = await call(olive, 'POST', '/api/teams/import', bad);
    expect(res.statusCode).toBe(400);
  });
});

describe("a Trello board's custom fields", () => {
  const board = () => ({
    id: 'b1',
    name: 'Fields board',
    lists: [{ id: 'l1', name: 'To do', pos: 1, closed: false }],
    customFields: [
      {
        id: 'cf1',
        idModel: 'b1',
        modelType: 'board',
        name: 'Severity',
        type: 'list',
        pos: 1,
        options: [
          { id: 'op1', idCustomField: 'cf1', value: { text: 'Critical' }, color: 'red', pos: 1 },
          { id: 'op2', idCustomField: 'cf1', value: { text: 'Trivial' }, color: 'sky', pos: 2 },
        ],
        display: { cardFront: true },
      },
      { id: 'cf2', idModel: 'b1', modelType: 'board', name: 'Estimate', type: 'number', pos: 2 },
    ],
    cards: [
      {
        id: 'c1',
        idList: 'l1',
        name: 'Trello card',
        pos: 1,
        customFieldItems: [
          { id: 'i1', idCustomField: 'cf1', idValue: 'op2', idModel: 'c1', modelType: 'card' },
          { id: 'i2', idCustomField: 'cf2', value: { number: '8' }, idModel: 'c1', modelType: 'card' },
        ],
      },
      {
        id: 'c2',
        idList: 'l1',
        name: 'Critical card',
        pos: 2,
        customFieldItems: [{ id: 'i3', idCustomField: 'cf1', idValue: 'op1', idModel: 'c2', modelType: 'card' }],
      },
    ],
  });

  it("reuses the team's field of that name and type (adding the option it lacks) and creates the others", async () => {
    const preview = await ok<TrelloPreviewDto>(olive, 'POST', `/api/teams/${team.id}/import/trello`, { board: board() });
    expect(preview.fields).toEqual([
      { name: 'Severity', type: 'select', existing: true },
      { name: 'Estimate', type: 'number', existing: false },
    ]);
    await ok<ImportResultDto>(
      olive,
      'POST',
      `/api/teams/${team.id}/import/trello`,
      { board: board(), mapping: { l1: 'todo' } },
      201,
    );
    const teamFields = await db().select().from(customFields).where(eq(customFields.teamId, team.id));
    const severity = teamFields.find((x) => x.id === f.severity)!;
    expect(severity.options.map((o) => o.name)).toEqual(['Low', 'High', 'Critical', 'Trivial']);
    const trivial = severity.options.find((o) => o.name === 'Trivial')!;
    expect(trivial.color).toBe('#0891b2');
    const estimate = teamFields.find((x) => x.name === 'Estimate')!;
    expect(estimate.type).toBe('number');
    expect((await taskNamed('Trello card')).fields).toEqual({ [f.severity]: trivial.id, [estimate.id]: 8 });
    expect((await taskNamed('Critical card')).fields).toEqual({ [f.severity]: opt.critical });
  });
});

describe('who may add custom fields by an import (only owners and admins)', () => {
  const DENIED = 'Only team owners and admins can add custom fields';
  const SKIPPED = 'Custom fields were not imported: only team owners and admins can add them';
  let crew: { id: string };
  // Ada is a plain member of this team too; Abe an admin.
  let abe: TestUser;
  const low = randomUUID();
  const high = randomUUID();
  let sev = '';
  const fieldsOf = async () => db().select().from(customFields).where(eq(customFields.teamId, crew.id));

  beforeAll(async () => {
    abe = await createUser(ctx.app, { fullName: 'Abe Admin' });
    crew = await insertTeam(db(), olive, 'Rights Crew');
    await insertMember(db(), crew.id, ada, 'member');
    await insertMember(db(), crew.id, abe, 'admin');
    const [row] = await db()
      .insert(customFields)
      .values({
        teamId: crew.id,
        name: 'Severity',
        type: 'select',
        position: 0,
        options: [
          { id: low, name: 'Low', color: '#16a34a' },
          { id: high, name: 'High', color: '#ea580c' },
        ],
      })
      .returning();
    sev = row!.id;
  });

  const csv = ['Title,Severity,Customer', 'Member row,high,ACME'].join('\n');
  const csvImport = (user: TestUser, mapping: Record<string, string>, dryRun = false) =>
    call(user, 'POST', `/api/teams/${crew.id}/import/csv`, {
      csv,
      mapping,
      projectName: `CSV by ${user.fullName}`,
      ...(dryRun ? { dryRun } : {}),
    });

  it("CSV: a plain member's 'New field' column is an error on the preview and a 400 on import; nothing is written", async () => {
    const mapping = { Title: 'title', Severity: `field:${sev}`, Customer: 'new_field' };
    const preview = (await csvImport(ada, mapping, true)).json() as CsvPreviewDto;
    expect(preview.errors).toContainEqual({ line: 1, message: DENIED });
    expect(preview.mapping.Customer).toBe('new_field');
    expect(JSON.stringify(preview.rows)).not.toContain('ACME');

    const res = await csvImport(ada, mapping);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields).toEqual({ mapping: DENIED });
    expect((await fieldsOf()).map((x) => x.name)).toEqual(['Severity']);
    expect(await db().select().from(tasks).where(eq(tasks.title, 'Member row'))).toEqual([]);
  });

  it('CSV: a plain member fills an existing field', async () => {
    const mapping = { Title: 'title', Severity: `field:${sev}`, Customer: 'ignore' };
    const preview = (await csvImport(ada, mapping, true)).json() as CsvPreviewDto;
    expect(preview.errors).toEqual([]);
    const res = await csvImport(ada, mapping);
    expect(res.statusCode).toBe(201);
    expect((await taskNamed('Member row')).fields).toEqual({ [sev]: high });
    expect((await fieldsOf()).map((x) => x.name)).toEqual(['Severity']);
  });

  it("CSV: an admin's 'New field' column creates the field", async () => {
    const res = await csvImport(abe, { Title: 'title', Severity: 'ignore', Customer: 'new_field' });
    expect(res.statusCode).toBe(201);
    const customer = (await fieldsOf()).find((x) => x.name === 'Customer');
    expect(customer).toMatchObject({ type: 'text' });
    const [row] = await db()
      .select({ fields: tasks.fields })
      .from(tasks)
      .innerJoin(projects, eq(projects.id, tasks.projectId))
      .where(eq(projects.id, (res.json() as ImportResultDto).projectId));
    expect(row!.fields).toEqual({ [customer!.id]: 'ACME' });
  });

  const board = (name: string) => ({
    id: `b-${name}`,
    name,
    lists: [{ id: 'l1', name: 'To do', pos: 1, closed: false }],
    customFields: [
      {
        id: 'cf1',
        name: 'Severity',
        type: 'list',
        pos: 1,
        options: [
          { id: 'op1', idCustomField: 'cf1', value: { text: 'High' }, color: 'orange', pos: 1 },
          { id: 'op2', idCustomField: 'cf1', value: { text: 'Blocker' }, color: 'red', pos: 2 },
        ],
      },
      { id: 'cf2', name: 'Estimate', type: 'number', pos: 2 },
    ],
    cards: [
      {
        id: 'c1',
        idList: 'l1',
        name: `${name}: high`,
        pos: 1,
        customFieldItems: [
          { id: 'i1', idCustomField: 'cf1', idValue: 'op1' },
          { id: 'i2', idCustomField: 'cf2', value: { number: '8' } },
        ],
      },
      {
        id: 'c2',
        idList: 'l1',
        name: `${name}: blocker`,
        pos: 2,
        customFieldItems: [{ id: 'i3', idCustomField: 'cf1', idValue: 'op2' }],
      },
    ],
  });
  const trello = (user: TestUser, body: Record<string, unknown>) =>
    call(user, 'POST', `/api/teams/${crew.id}/import/trello`, body);

  it("Trello: a plain member's import leaves out new fields and options with one warning, and fills existing ones", async () => {
    const preview = (await trello(ada, { board: board('Member board') })).json() as TrelloPreviewDto;
    expect(preview.fields).toEqual([{ name: 'Severity', type: 'select', existing: true }]);
    expect(preview.warnings.filter((w) => w === SKIPPED)).toHaveLength(1);

    const res = await trello(ada, { board: board('Member board'), mapping: { l1: 'todo' } });
    expect(res.statusCode).toBe(201);
    const result = res.json() as ImportResultDto;
    expect(result.warnings.filter((w) => w === SKIPPED)).toHaveLength(1);
    const after = await fieldsOf();
    expect(after.map((x) => x.name)).not.toContain('Estimate');
    expect(after.find((x) => x.id === sev)!.options.map((o) => o.name)).toEqual(['Low', 'High']);
    expect((await taskNamed('Member board: high')).fields).toEqual({ [sev]: high });
    expect((await taskNamed('Member board: blocker')).fields).toEqual({});
  });

  it('Trello: no warning when the cards name only what the team has', async () => {
    const plain = board('Plain board');
    plain.cards = [{ ...plain.cards[0]!, customFieldItems: [{ id: 'i1', idCustomField: 'cf1', idValue: 'op1' }] }];
    const preview = (await trello(ada, { board: plain })).json() as TrelloPreviewDto;
    expect(preview.warnings).not.toContain(SKIPPED);
    expect(preview.fields).toEqual([{ name: 'Severity', type: 'select', existing: true }]);
  });

  it("Trello: the owner's import still creates the fields and adds the options", async () => {
    const res = await trello(olive, { board: board('Owner board'), mapping: { l1: 'todo' } });
    expect(res.statusCode).toBe(201);
    expect((res.json() as ImportResultDto).warnings).not.toContain(SKIPPED);
    const after = await fieldsOf();
    const estimate = after.find((x) => x.name === 'Estimate')!;
    const severity = after.find((x) => x.id === sev)!;
    expect(severity.options.map((o) => o.name)).toEqual(['Low', 'High', 'Blocker']);
    expect((await taskNamed('Owner board: high')).fields).toEqual({ [sev]: high, [estimate.id]: 8 });
    const blocker = severity.options.find((o) => o.name === 'Blocker')!.id;
    expect((await taskNamed('Owner board: blocker')).fields).toEqual({ [sev]: blocker });
  });

  it("the writer itself refuses a plan that adds a field to a plain member's team", async () => {
    // The CSV adapter's plan of a 'New field' column, handed to the writer as if the service had not refused it.
    const csvPlan = planCsvImport(
      ['Title', 'Sneaky field'],
      [{ line: 2, cells: ['Sneaky task', 'x'] }],
      {
        Title: 'title',
        'Sneaky field': 'new_field',
      },
      [],
    );
    expect(csvPlan.fields.map((x) => x.name)).toEqual(['Sneaky field']);
    const plan = csvImportPlan(csvPlan, crew.id, { newName: 'Sneaky' });
    await expect(db().transaction((tx) => writeImportPlan(tx, plan, ada.id))).rejects.toMatchObject({
      reason: 'custom_field_manage_denied',
    });
    expect((await fieldsOf()).map((x) => x.name)).not.toContain('Sneaky field');
  });
});
