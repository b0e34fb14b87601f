import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { count, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import type { ProjectDto } from '../../src/domain/schemas/project';
import type { TaskDto, TaskListDto } from '../../src/domain/schemas/task';
import type { ChecklistDto, CommentListDto } from '../../src/domain/schemas/task-detail';
import type {
  CrewboardExport,
  CsvPreviewDto,
  ImportResultDto,
  TeamImportResultDto,
  TrelloPreviewDto,
} from '../../src/domain/schemas/transfer';
import { openDatabase } from '../../src/server/db/client';
import { insertDefaultStatuses } from '../../src/server/db/project-statuses';
import { noteDocuments, notes, noteUpdates, projects, tasks } from '../../src/server/db/schema';
import { createUser, insertMember, insertTeam, type TestUser } from '../factories';
import { apiRequests } from '../helpers/api';
import { setupTestApp } from '../helpers/app';
import { createScratchTarget } from '../helpers/scratch-db';

const ctx = setupTestApp();
/** A second, fresh instance: where the round trip imports the export. */
const fresh = setupTestApp();

const { call, ok, fails } = apiRequests(ctx);
const other = apiRequests(fresh);

let olive: TestUser;
let adam: TestUser;
let mia: TestUser;
let sam: TestUser;
let team: { id: string; name: string };
let samTeam: { id: string };

beforeAll(async () => {
  [olive, adam, mia, sam] = await Promise.all([
    createUser(ctx.app, { fullName: 'Olive Owner' }),
    createUser(ctx.app, { fullName: 'Adam Admin' }),
    createUser(ctx.app, { fullName: 'Mia Member' }),
    createUser(ctx.app, { fullName: 'Sam Stranger' }),
  ]);
  team = await insertTeam(ctx.database.db, olive, 'Launch Crew');
  await insertMember(ctx.database.db, team.id, adam, 'admin');
  await insertMember(ctx.database.db, team.id, mia, 'member');
  samTeam = await insertTeam(ctx.database.db, sam, 'Sierra');
});

/** A Trello board export as Trello writes it (only the fields that matter are required; the rest is noise it has). */
function trelloBoard() {
  const label = (id: string, name: string, color: string) => ({ id, idBoard: 'b1', name, color, uses: 1 });
  const labels = [label('lb1', 'Bug', 'red'), label('lb2', '', 'green'), label('lb3', 'Front end', 'blue')];
  const list = (id: string, name: string, pos: number, closed = false) => ({
    id,
    name,
    closed,
    pos,
    idBoard: 'b1',
    subscribed: false,
  });
  const card = (id: string, idList: string, name: string, pos: number, extra: Record<string, unknown> = {}) => ({
    id,
    idList,
    name,
    pos,
    desc: '',
    closed: false,
    due: null,
    dueComplete: false,
    idLabels: [],
    labels: [],
    idChecklists: [],
    idMembers: [],
    dateLastActivity: '2024-01-05T10:00:00.000Z',
    shortUrl: `https://trello.com/c/${id}`,
    ...extra,
  });
  return {
    id: 'b1',
    name: 'Website relaunch',
    desc: 'The big one',
    closed: false,
    prefs: { background: 'blue', permissionLevel: 'private' },
    labels,
    lists: [list('l1', 'Backlog', 1), list('l2', 'Doing', 2), list('l3', 'Done', 3), list('l4', 'Old ideas', 4, true)],
    cards: [
      card('c1', 'l1', 'Write the copy', 1, {
        desc: 'All pages, **markdown** kept.',
        due: '2024-03-15T12:00:00.000Z',
        idLabels: ['lb1', 'lb2'],
        labels: [labels[0], labels[1]],
        idChecklists: ['k1'],
      }),
      card('c2', 'l1', 'Pick fonts', 2),
      card('c3', 'l2', 'Build the header', 1, { idLabels: ['lb3'], labels: [labels[2]], idChecklists: ['k2', 'k3'] }),
      card('c4', 'l3', 'Register the domain', 1, { due: '2024-01-02T09:00:00.000Z' }),
      card('c5', 'l3', 'An archived card', 2, { closed: true }),
      card('c6', 'l4', 'Card in an archived list', 1),
    ],
    checklists: [
      {
        id: 'k1',
        idCard: 'c1',
        name: 'Pages',
        pos: 1,
        checkItems: [
          { id: 'i1', name: 'Home', state: 'complete', pos: 1 },
          { id: 'i2', name: 'About', state: 'incomplete', pos: 2 },
        ],
      },
      { id: 'k2', idCard: 'c3', name: 'Desktop', pos: 1, checkItems: [{ id: 'i3', name: 'Logo', state: 'complete', pos: 1 }] },
      { id: 'k3', idCard: 'c3', name: 'Mobile', pos: 2, checkItems: [{ id: 'i4', name: 'Menu', state: 'incomplete', pos: 1 }] },
    ],
    actions: [
      // Trello lists its actions newest first, comments among every other kind.
      {
        id: 'a3',
        type: 'commentCard',
        date: '2024-01-03T08:00:00.000Z',
        data: { text: 'Second thought', card: { id: 'c1', name: 'Write the copy' }, board: { id: 'b1' } },
        memberCreator: { id: 'm2', fullName: 'Grace Hopper', username: 'grace' },
      },
      { id: 'a2', type: 'updateCard', date: '2024-01-02T12:00:00.000Z', data: { old: { pos: 1 }, card: { id: 'c1' } } },
      {
        id: 'a1',
        type: 'commentCard',
        date: '2024-01-02T10:00:00.000Z',
        data: { text: 'First!', card: { id: 'c1', name: 'Write the copy' } },
        memberCreator: { id: 'm1', fullName: 'Ada Lovelace', username: 'ada' },
      },
      {
        id: 'a4',
        type: 'commentCard',
        date: '2024-01-04T10:00:00.000Z',
        data: { text: 'On an archived card', card: { id: 'c5' } },
        memberCreator: { id: 'm1', fullName: 'Ada Lovelace', username: 'ada' },
      },
    ],
    members: [{ id: 'm1', fullName: 'Ada Lovelace', username: 'ada' }],
  };
}

const projectCount = async () => (await ctx.database.db.select({ n: count() }).from(projects))[0]!.n;
const taskCount = async () => (await ctx.database.db.select({ n: count() }).from(tasks))[0]!.n;

const tasksOf = async (user: TestUser, projectId: string) =>
  (await ok<TaskListDto>(user, 'GET', `/api/tasks?projectId=${projectId}&limit=500`)).tasks;

describe('Trello import', () => {
  it('a dry run shows the lists with suggested statuses, labels as tags and the counts, and creates nothing', async () => {
    const [projectsBefore, tasksBefore] = [await projectCount(), await taskCount()];
    const preview = await ok<TrelloPreviewDto>(mia, 'POST', `/api/teams/${team.id}/import/trello`, { board: trelloBoard() });
    expect(preview.dryRun).toBe(true);
    expect(preview.projectName).toBe('Website relaunch');
    expect(preview.lists.map((l) => [l.name, l.archived, l.cards, l.suggestedStatus])).toEqual([
      ['Backlog', false, 2, 'todo'],
      ['Doing', false, 1, 'in_progress'],
      ['Done', false, 1, 'completed'],
      ['Old ideas', true, 1, 'skip'],
    ]);
    expect(preview.labels).toEqual([
      { id: 'lb1', name: 'Bug', tag: 'Bug' },
      { id: 'lb2', name: '', tag: 'green' },
      { id: 'lb3', name: 'Front end', tag: 'Front end' },
    ]);
    // c1..c4 (the archived card and the archived list's card are left out); 2 comments on c1 (the archived card's is
    // not counted); 2 + 2 checklist items.
    expect(preview.counts).toEqual({ tasks: 4, comments: 2, checklistItems: 4 });
    expect(preview.warnings.join('\n')).toMatch(/1 archived card is left out/);
    // An explicit dry run with a mapping says what that mapping would do.
    const mapped = await ok<TrelloPreviewDto>(mia, 'POST', `/api/teams/${team.id}/import/trello`, {
      board: trelloBoard(),
      mapping: { l1: 'todo', l2: 'review', l3: 'completed', l4: 'todo' },
      dryRun: true,
    });
    expect(mapped.counts.tasks).toBe(5);
    expect(mapped.lists.find((l) => l.id === 'l2')?.status).toBe('review');
    expect([await projectCount(), await taskCount()]).toEqual([projectsBefore, tasksBefore]);
  });

  it('the real run creates one project with what the dry run said, in the mapped statuses', async () => {
    const mapping = { l1: 'todo', l2: 'in_progress', l3: 'completed', l4: 'skip' };
    const preview = await ok<TrelloPreviewDto>(mia, 'POST', `/api/teams/${team.id}/import/trello`, {
      board: trelloBoard(),
      mapping,
      dryRun: true,
    });
    const result = await ok<ImportResultDto>(
      mia,
      'POST',
      `/api/teams/${team.id}/import/trello`,
      { board: trelloBoard(), mapping, projectName: 'Relaunch' },
      201,
    );
    expect(result).toMatchObject({ projectName: 'Relaunch', teamId: team.id, counts: preview.counts });

    const project = await ok<ProjectDto>(olive, 'GET', `/api/projects/${result.projectId}`);
    expect(project).toMatchObject({ name: 'Relaunch', teamId: team.id, taskCount: 4, progress: 25 });

    const list = await tasksOf(mia, result.projectId);
    const byTitle = new Map(list.map((t) => [t.title, t]));
    expect([...byTitle.keys()].sort()).toEqual(['Build the header', 'Pick fonts', 'Register the domain', 'Write the copy']);
    // The board shows newest first: the first card of the first list is at the top.
    expect(list.map((t) => t.title)).toEqual(['Write the copy', 'Pick fonts', 'Build the header', 'Register the domain']);
    const copy = byTitle.get('Write the copy')!;
    expect(copy).toMatchObject({
      status: 'todo',
      description: 'All pages, **markdown** kept.',
      dueDate: '2024-03-15',
      tags: ['Bug', 'green'],
      checklistTotal: 2,
      checklistDone: 1,
      commentCount: 2,
      creatorId: mia.id,
      assigneeId: null,
    });
    expect(byTitle.get('Build the header')).toMatchObject({ status: 'in_progress', tags: ['Front end'], checklistTotal: 2 });
    expect(byTitle.get('Register the domain')).toMatchObject({ status: 'completed', dueDate: '2024-01-02' });

    const comments = (await ok<CommentListDto>(mia, 'GET', `/api/tasks/${copy.id}/comments`)).comments;
    expect(comments.map((c) => c.body)).toEqual([
      'Originally by Ada Lovelace on 2024-01-02:\n\nFirst!',
      'Originally by Grace Hopper on 2024-01-03:\n\nSecond thought',
    ]);
    const checklist = (await ok<ChecklistDto>(mia, 'GET', `/api/tasks/${byTitle.get('Build the header')!.id}/checklist`)).items;
    expect(checklist.map((i) => [i.title, i.done])).toEqual([
      ['Desktop: Logo', true],
      ['Mobile: Menu', false],
    ]);
  });

  it('answers 400 import_invalid for anything that is not a board, never 500', async () => {
    const url = `/api/teams/${team.id}/import/trello`;
    for (const board of [
      null,
      'garbage',
      42,
      [],
      {},
      { name: 'x', lists: 'no', cards: [] },
      { name: 'x', lists: [{ id: 1 }], cards: [] },
    ]) {
      await fails(mia, 'POST', url, { board }, 400, 'import_invalid');
    }
    await fails(
      mia,
      'POST',
      url,
      { board: { ...trelloBoard(), cards: [{ id: 'c', name: null, idList: 'l1' }] } },
      400,
      'import_invalid',
    );
    // A mapping to something that is not a status, and unknown body fields: the body's own validation.
    await fails(mia, 'POST', url, { board: trelloBoard(), mapping: { l1: 'doing' } }, 400, 'validation_failed');
    await fails(mia, 'POST', url, { board: trelloBoard(), ownerId: mia.id }, 400, 'validation_failed');
    const notJson = await ctx.app.inject({
      method: 'POST',
      url,
      headers: { ...mia.auth, 'content-type': 'application/json' },
      payload: '{"board": {"name": "x", "lists": [',
    });
    expect(notJson.statusCode).toBe(400);
  });

  it('is one transaction: a failure after the project and the tasks were written leaves nothing behind', async () => {
    const [projectsBefore, tasksBefore] = [await projectCount(), await taskCount()];
    // A real failure inside the database, after the project and its tasks went in: the last checklist item is refused.
    await ctx.database.db.execute(sql`
      create or replace function transfer_test_refuse() returns trigger language plpgsql as $$
      begin
        if new.title = 'Mobile: Menu' then raise exception 'refused for the test' using errcode = '23514'; end if;
        return new;
      end $$`);
    await ctx.database.db.execute(
      sql`create trigger transfer_test_refuse before insert on task_checklist_items for each row execute function transfer_test_refuse()`,
    );
    try {
      const res = await call(mia, 'POST', `/api/teams/${team.id}/import/trello`, {
        board: trelloBoard(),
        mapping: { l1: 'todo', l2: 'in_progress', l3: 'completed' },
        projectName: 'Doomed import',
      });
      expect(res.statusCode, res.body).toBe(400);
    } finally {
      await ctx.database.db.execute(sql`drop trigger transfer_test_refuse on task_checklist_items`);
      await ctx.database.db.execute(sql`drop function transfer_test_refuse()`);
    }
    expect([await projectCount(), await taskCount()]).toEqual([projectsBefore, tasksBefore]);
    const doomed = await ctx.database.db.select().from(projects).where(eq(projects.name, 'Doomed import'));
    expect(doomed).toEqual([]);
  });
});

describe('CSV import', () => {
  const csv = [
    '\uFEFFName,Notes,State,Prio,Deadline,Labels,Owner,Extra',
    '"Plan, then ship","Line one\nline ""two""",In Progress,High,2024-05-01,"a; b",MIA_EMAIL,x',
    'Ünïcødé — 東京,,review,urgent,2024/6/3,東京,,y',
    'Plain,,,,,,Nobody Known,',
    '',
    '"Done one",,Completed,low,,,Mia Member,',
  ].join('\r\n');
  const file = () => csv.replace('MIA_EMAIL', mia.email.toUpperCase());

  it('a dry run reads quotes, newlines, a BOM and non-ASCII, suggests a mapping and creates nothing', async () => {
    const tasksBefore = await taskCount();
    const preview = await ok<CsvPreviewDto>(mia, 'POST', `/api/teams/${team.id}/import/csv`, { csv: file() });
    expect(preview.headers).toEqual(['Name', 'Notes', 'State', 'Prio', 'Deadline', 'Labels', 'Owner', 'Extra']);
    expect(preview.mapping).toEqual({
      Name: 'title',
      Notes: 'description',
      State: 'status',
      Prio: 'priority',
      Deadline: 'dueDate',
      Labels: 'tags',
      Owner: 'assignee',
      Extra: 'ignore',
    });
    expect(preview.errors).toEqual([]);
    expect(preview.counts.tasks).toBe(4);
    expect(preview.rows[0]).toEqual({
      line: 2,
      title: 'Plan, then ship',
      description: 'Line one\nline "two"',
      status: 'in_progress',
      priority: 'high',
      startDate: null,
      dueDate: '2024-05-01',
      tags: ['a', 'b'],
      assignee: 'Mia Member',
    });
    expect(preview.rows[1]).toMatchObject({
      line: 4,
      title: 'Ünïcødé — 東京',
      status: 'review',
      priority: 'urgent',
      dueDate: '2024-06-03',
      tags: ['東京'],
    });
    expect(preview.rows[3]).toMatchObject({ line: 7, title: 'Done one', status: 'completed', assignee: 'Mia Member' });
    expect(preview.warnings).toEqual(['Line 5: "Nobody Known" is not a member of the team: left unassigned']);
    expect(await taskCount()).toBe(tasksBefore);
  });

  it('reports bad rows by line, and a real run with them creates nothing', async () => {
    const bad = `${file()}\r\n,no title,,,,,,\r\nBad status,,Doing it,,,,,\r\nBad date,,,,2024-02-30,,,`;
    const mapping = { Name: 'title', Notes: 'description', State: 'status', Deadline: 'dueDate' };
    const preview = await ok<CsvPreviewDto>(mia, 'POST', `/api/teams/${team.id}/import/csv`, { csv: bad, mapping, dryRun: true });
    expect(preview.errors).toEqual([
      { line: 8, message: 'Title is required' },
      { line: 9, message: 'Unknown status "Doing it"' },
      { line: 10, message: 'Due date "2024-02-30" is not a date (YYYY-MM-DD)' },
    ]);
    const tasksBefore = await taskCount();
    const res = await fails(
      mia,
      'POST',
      `/api/teams/${team.id}/import/csv`,
      { csv: bad, mapping, projectName: 'Nope' },
      400,
      'import_invalid',
    );
    expect(res.json().error.fields).toMatchObject({ 'line 8': 'Line 8: Title is required' });
    expect(await taskCount()).toBe(tasksBefore);
    // Not CSV at all: a stray quote.
    await fails(mia, 'POST', `/api/teams/${team.id}/import/csv`, { csv: 'a,b\n"x"y,z\n', dryRun: true }, 400, 'import_invalid');
    await fails(mia, 'POST', `/api/teams/${team.id}/import/csv`, { csv: '', dryRun: true }, 400, 'import_invalid');
    await fails(
      mia,
      'POST',
      `/api/teams/${team.id}/import/csv`,
      { csv: 'Name\nx', mapping: { Name: 'owner' } },
      400,
      'validation_failed',
    );
  });

  it('creates the tasks in a new project, or in a project of the team', async () => {
    const mapping = {
      Name: 'title',
      Notes: 'description',
      State: 'status',
      Prio: 'priority',
      Deadline: 'dueDate',
      Labels: 'tags',
      Owner: 'assignee',
      Extra: 'ignore',
    };
    const created = await ok<ImportResultDto>(
      mia,
      'POST',
      `/api/teams/${team.id}/import/csv`,
      { csv: file(), mapping, projectName: 'From CSV' },
      201,
    );
    expect(created.counts.tasks).toBe(4);
    const list = await tasksOf(mia, created.projectId);
    expect(list.map((t) => t.title)).toEqual(['Plan, then ship', 'Ünïcødé — 東京', 'Plain', 'Done one']);
    expect(list[0]).toMatchObject({
      description: 'Line one\nline "two"',
      status: 'in_progress',
      priority: 'high',
      assigneeId: mia.id,
    });
    expect(list[1]).toMatchObject({ status: 'review', priority: 'urgent', dueDate: '2024-06-03', assigneeId: null });
    const project = await ok<ProjectDto>(mia, 'GET', `/api/projects/${created.projectId}`);
    expect(project).toMatchObject({ name: 'From CSV', taskCount: 4, progress: 25 });

    // Into an existing project of the team: added to it.
    const into = await ok<ImportResultDto>(
      mia,
      'POST',
      `/api/teams/${team.id}/import/csv`,
      { csv: 'Title,Status\nOne more,To Do\n', mapping: { Title: 'title', Status: 'status' }, projectId: created.projectId },
      201,
    );
    expect(into.projectId).toBe(created.projectId);
    expect((await ok<ProjectDto>(mia, 'GET', `/api/projects/${created.projectId}`)).taskCount).toBe(5);

    // A project of another team is not one of this team's.
    const [foreign] = await ctx.database.db
      .insert(projects)
      .values({ name: 'Sierra plans', ownerId: sam.id, teamId: samTeam.id })
      .returning();
    await insertDefaultStatuses(ctx.database.db, [foreign!.id]);
    await fails(
      mia,
      'POST',
      `/api/teams/${team.id}/import/csv`,
      { csv: 'Title\nx\n', mapping: { Title: 'title' }, projectId: foreign!.id },
      404,
      'project_not_found',
    );
  });
});

describe('export', () => {
  it('exports the team as a JSON file any member can download', async () => {
    await ok(mia, 'POST', '/api/tasks', { title: '=HYPERLINK("http://evil")', projectId: (await firstProject()).id }, 201);
    const res = await call(mia, 'GET', `/api/teams/${team.id}/export`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="crewboard-launch-crew-\d{4}-\d{2}-\d{2}\.json"$/);
    const file = res.json() as CrewboardExport;
    expect(file).toMatchObject({ format: 'crewboard-export', version: 1, team: { name: 'Launch Crew', description: null } });
    expect(file.members.map((m) => [m.email, m.role])).toEqual([
      [olive.email, 'owner'],
      [adam.email, 'admin'],
      [mia.email, 'member'],
    ]);
    const relaunch = file.projects.find((p) => p.name === 'Relaunch')!;
    const copy = file.tasks.find((t) => t.title === 'Write the copy')!;
    expect(copy).toMatchObject({ project: relaunch.key, creator: mia.email, tags: ['Bug', 'green'], dueDate: '2024-03-15' });
    expect(copy.checklist).toEqual([
      { title: 'Home', done: true },
      { title: 'About', done: false },
    ]);
    expect(copy.comments.map((c) => c.author)).toEqual([mia.email, mia.email]);
  });

  it('exports the tasks as CSV with the list view columns, a BOM, and formulas neutralised', async () => {
    const res = await call(mia, 'GET', `/api/teams/${team.id}/export.csv`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="crewboard-launch-crew-[\d-]+-tasks\.csv"$/);
    const body = res.rawPayload.toString('utf8');
    expect(body.startsWith('\uFEFFTitle,Status,Priority,Assignee,Start Date,Due Date,Project,Tags,Created,Description\r\n')).toBe(
      true,
    );
    expect(body).toContain(`"Plan, then ship",In Progress,High,Mia Member,,2024-05-01,From CSV,"a, b",`);
    expect(body).toContain('Ünïcødé — 東京,Review,Urgent,,,2024-06-03,From CSV,東京,');
    expect(body).toContain(`"'=HYPERLINK(""http://evil"")"`);
    const lines = body.split('\r\n').filter(Boolean);
    expect(lines.length - 1).toBe(await taskCountInTeam(team.id));

    // One project's only.
    const project = (await firstProject()) as { id: string; name: string };
    const one = await call(mia, 'GET', `/api/teams/${team.id}/export.csv?projectId=${project.id}`);
    expect(one.statusCode).toBe(200);
    const rows = one.rawPayload.toString('utf8').split('\r\n').filter(Boolean).slice(1);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.includes(`,${project.name},`))).toBe(true);
    const [foreign] = await ctx.database.db.select().from(projects).where(eq(projects.teamId, samTeam.id)).limit(1);
    await fails(mia, 'GET', `/api/teams/${team.id}/export.csv?projectId=${foreign!.id}`, undefined, 404, 'project_not_found');
    await fails(mia, 'GET', `/api/teams/${team.id}/export.csv?projectId=nope`, undefined, 400);
  });
});

const firstProject = async () => {
  const [row] = await ctx.database.db.select().from(projects).where(eq(projects.teamId, team.id)).limit(1);
  return row!;
};
const taskCountInTeam = async (teamId: string) =>
  (
    await ctx.database.db
      .select({ n: count() })
      .from(tasks)
      .innerJoin(projects, eq(projects.id, tasks.projectId))
      .where(eq(projects.teamId, teamId))
  )[0]!.n;

describe('who may', () => {
  it('strangers get 404 on every team route, and signed-out callers 401', async () => {
    const routes: [string, string, unknown][] = [
      ['GET', `/api/teams/${team.id}/export`, undefined],
      ['GET', `/api/teams/${team.id}/export.csv`, undefined],
      ['POST', `/api/teams/${team.id}/import/trello`, { board: trelloBoard() }],
      ['POST', `/api/teams/${team.id}/import/trello`, { board: trelloBoard(), mapping: { l1: 'todo' } }],
      ['POST', `/api/teams/${team.id}/import/csv`, { csv: 'Title\nx\n' }],
      ['POST', `/api/teams/${team.id}/import/csv`, { csv: 'Title\nx\n', mapping: { Title: 'title' } }],
    ];
    const before = await taskCount();
    for (const [method, url, body] of routes) {
      await fails(sam, method as 'GET', url, body, 404, 'team_not_found');
      await fails(null, method as 'GET', url, body, 401);
    }
    // A team that does not exist answers the same.
    await fails(sam, 'GET', '/api/teams/00000000-0000-4000-8000-000000000000/export', undefined, 404, 'team_not_found');
    await fails(null, 'POST', '/api/teams/import', {}, 401);
    expect(await taskCount()).toBe(before);
  });

  it('every active member may export and import (project creation is any member’s right)', async () => {
    for (const user of [olive, adam, mia]) {
      expect((await call(user, 'GET', `/api/teams/${team.id}/export`)).statusCode).toBe(200);
      await ok(user, 'POST', `/api/teams/${team.id}/import/csv`, { csv: 'Title\nx\n' });
    }
  });
});

describe('Crewboard export → import: the round trip', () => {
  /** Times and the export's own moment differ on every import; everything else must not. */
  const withoutTimes = (file: CrewboardExport) =>
    JSON.parse(
      JSON.stringify({ ...file, exportedAt: undefined }, (key, value) =>
        ['createdAt', 'updatedAt', 'editedAt'].includes(key) ? undefined : value,
      ),
    );

  it('export a team, import it into a fresh instance, export again: identical apart from ids, times and members', async () => {
    // A team with two projects, tasks moved between them, reassigned, commented on with a mention, a checklist, a note.
    const crew = await insertTeam(ctx.database.db, olive, 'Round Trip');
    await insertMember(ctx.database.db, crew.id, mia, 'member');
    const p1 = await ok<ProjectDto>(
      olive,
      'POST',
      '/api/projects',
      { name: 'Alpha', teamId: crew.id, description: 'First', startDate: '2024-01-01', endDate: '2024-02-01' },
      201,
    );
    const p2 = await ok<ProjectDto>(olive, 'POST', '/api/projects', { name: 'Beta', teamId: crew.id, status: 'active' }, 201);
    const t1 = await ok<TaskDto>(
      olive,
      'POST',
      '/api/tasks',
      { title: 'Mine', projectId: p1.id, assigneeId: olive.id, tags: ['x', 'y'], dueDate: '2024-01-10', priority: 'high' },
      201,
    );
    const t2 = await ok<TaskDto>(mia, 'POST', '/api/tasks', { title: 'Hers', projectId: p1.id, description: 'Details' }, 201);
    await ok(olive, 'PATCH', `/api/tasks/${t2.id}`, { assigneeId: mia.id, status: 'review', projectId: p2.id });
    await ok(mia, 'PATCH', `/api/tasks/${t1.id}`, { status: 'completed', title: 'Mine, done' });
    await ok(mia, 'POST', `/api/tasks/${t1.id}/comments`, { body: `Looks good <@${olive.id}>` }, 201);
    await ok(olive, 'POST', `/api/tasks/${t1.id}/comments`, { body: 'Thanks' }, 201);
    const item = await ok<{ id: string }>(olive, 'POST', `/api/tasks/${t1.id}/checklist`, { title: 'Step one' }, 201);
    await ok(olive, 'POST', `/api/tasks/${t1.id}/checklist`, { title: 'Step two' }, 201);
    await ok(olive, 'PATCH', `/api/tasks/${t1.id}/checklist/${item.id}`, { done: true });
    // A note with a compacted document and one update not compacted yet: the export merges them.
    const doc = new Y.Doc();
    doc.getText('t').insert(0, 'Hello');
    const base = Y.encodeStateAsUpdate(doc);
    const sv = Y.encodeStateVector(doc);
    doc.getText('t').insert(5, ' world');
    const pendingUpdate = Y.encodeStateAsUpdate(doc, sv);
    const [note] = await ctx.database.db
      .insert(notes)
      .values({ teamId: crew.id, projectId: p2.id, title: 'Plan', authorId: mia.id, pinned: true, plainText: 'Hello world' })
      .returning();
    await ctx.database.db.insert(noteDocuments).values({ noteId: note!.id, state: Buffer.from(base), compactedThrough: 0 });
    await ctx.database.db.insert(noteUpdates).values({ noteId: note!.id, update: Buffer.from(pendingUpdate), userId: mia.id });

    const first = await ok<CrewboardExport>(olive, 'GET', `/api/teams/${crew.id}/export`);
    expect(first.projects.map((p) => [p.key, p.name])).toEqual([
      ['p1', 'Alpha'],
      ['p2', 'Beta'],
    ]);
    const hers = first.tasks.find((t) => t.title === 'Hers')!;
    expect(hers).toMatchObject({ project: 'p2', assignee: mia.email, creator: mia.email, status: 'review' });
    expect(hers.history.map((h) => [h.field, h.oldValue, h.newValue])).toEqual(
      expect.arrayContaining([
        ['assignee', null, mia.email],
        ['project', 'p1', 'p2'],
        ['status', 'todo', 'review'],
      ]),
    );
    const mine = first.tasks.find((t) => t.title === 'Mine, done')!;
    expect(mine.comments.map((c) => [c.author, c.body])).toEqual([
      [mia.email, `Looks good <@mailto:${olive.email}>`],
      [olive.email, 'Thanks'],
    ]);
    const restored = new Y.Doc();
    Y.applyUpdate(restored, Buffer.from(first.notes[0]!.state!, 'base64'));
    expect(restored.getText('t').toString()).toBe('Hello world');

    // The fresh instance: Olive and Mia have accounts there and already share a team. Still, only the importer is
    // linked (issue 35, item 3): Mia's comments, history, task and note are not put under her account; her comments
    // and task name her in the text. She is not made a member of the imported team.
    const [olive2, mia2] = [
      await createUser(fresh.app, { email: olive.email, fullName: 'Olive Owner' }),
      await createUser(fresh.app, { email: mia.email, fullName: 'Mia Member' }),
    ];
    const shared = await insertTeam(fresh.database.db, olive2, 'Elsewhere');
    await insertMember(fresh.database.db, shared.id, mia2, 'member');
    const imported = await other.ok<TeamImportResultDto>(olive2, 'POST', '/api/teams/import', first, 201);
    expect(imported).toMatchObject({
      teamName: 'Round Trip',
      counts: { projects: 2, tasks: 2, comments: 2, checklistItems: 2, notes: 1 },
    });
    expect(imported.warnings).toEqual(['1 member is not added to the new team: invite them. Their tasks are left unassigned.']);
    const second = await other.ok<CrewboardExport>(olive2, 'GET', `/api/teams/${imported.teamId}/export`);

    // The documented differences: only the importer is a member, so only their assignments stay; only the importer is
    // an author, creator or actor, everybody else is named in the text.
    const expected = withoutTimes(first);
    expected.members = expected.members.filter((m: { email: string }) => m.email === olive.email);
    const day = (iso: string) => iso.slice(0, 10);
    for (const [i, t] of expected.tasks.entries()) {
      const original = first.tasks[i]!;
      if (t.assignee !== olive.email) t.assignee = null;
      if (t.creator !== olive.email) {
        t.description = `${t.description ? `${t.description}\n\n` : ''}Originally created by Mia Member on ${day(original.createdAt)}`;
        t.creator = olive.email;
      }
      for (const [j, c] of t.comments.entries()) {
        if (c.author === olive.email) continue;
        c.body = `Originally by ${c.authorName} on ${day(original.comments[j]!.createdAt)}:\n\n${c.body}`;
        c.author = null;
        c.authorName = null;
      }
      for (const h of t.history) {
        if (h.actor !== olive.email) h.actor = null;
        if (h.field === 'assignee') for (const k of ['oldValue', 'newValue'] as const) if (h[k] !== olive.email) h[k] = null;
      }
    }
    for (const n of expected.notes) if (n.author !== olive.email) n.author = null;
    expect(withoutTimes(second)).toEqual(expected);
    const hersNow = second.tasks.find((t) => t.title === 'Hers')!;
    expect(hersNow.creator).toBe(olive.email);
    expect(hersNow.description).toMatch(/^Details\n\nOriginally created by Mia Member on \d{4}-\d{2}-\d{2}$/);
    expect(second.tasks.flatMap((t) => t.comments.map((c) => c.author))).not.toContain(mia.email);
    expect(second.tasks.flatMap((t) => t.history.map((h) => h.actor))).not.toContain(mia.email);
    expect(second.notes.map((n) => n.author)).toEqual([null]);
    // Times of the things themselves are kept.
    expect(second.tasks.map((t) => t.createdAt)).toEqual(first.tasks.map((t) => t.createdAt));

    // Imported counters and card counts are right (the triggers ran).
    const fromBoard = (await other.ok<TaskListDto>(olive2, 'GET', `/api/tasks?teamId=${imported.teamId}`)).tasks;
    expect(fromBoard.find((t) => t.title === 'Mine, done')).toMatchObject({
      commentCount: 2,
      checklistTotal: 2,
      checklistDone: 1,
      assigneeId: olive2.id,
    });
    // Mia is not a member of the imported team: she does not see it.
    await other.fails(mia2, 'GET', `/api/teams/${imported.teamId}/export`, undefined, 404, 'team_not_found');

    // Someone who shares no team with the authors: their comments name them in the text instead.
    const stranger = await createUser(fresh.app, { fullName: 'Nora New' });
    const third = await other.ok<TeamImportResultDto>(stranger, 'POST', '/api/teams/import', first, 201);
    const strangersCopy = await other.ok<CrewboardExport>(stranger, 'GET', `/api/teams/${third.teamId}/export`);
    const comments = strangersCopy.tasks.find((t) => t.title === 'Mine, done')!.comments;
    expect(comments.map((c) => [c.author, c.body])).toEqual([
      [
        null,
        `Originally by Mia Member on ${first.tasks.find((t) => t.title === 'Mine, done')!.comments[0]!.createdAt.slice(0, 10)}:\n\nLooks good @${olive.email}`,
      ],
      [null, expect.stringMatching(/^Originally by Olive Owner on [\d-]+:\n\nThanks$/)],
    ]);
    expect(strangersCopy.tasks.every((t) => t.assignee === null && t.creator === stranger.email)).toBe(true);
  });

  it('refuses what is not a Crewboard export with 400 import_invalid, and writes nothing', async () => {
    const before = await taskCount();
    for (const body of ['null', '[]', '"x"', '{"format":"crewboard-backup"}', '{"format":"crewboard-export","version":2}']) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/teams/import',
        headers: { ...mia.auth, 'content-type': 'application/json' },
        payload: body,
      });
      expect(res.statusCode, body).toBe(400);
      expect(res.json().error.reason, body).toBe('import_invalid');
    }
    const good = await ok<CrewboardExport>(olive, 'GET', `/api/teams/${team.id}/export`);
    await fails(
      mia,
      'POST',
      '/api/teams/import',
      { ...good, tasks: [{ ...good.tasks[0]!, project: 'p999' }] },
      400,
      'import_invalid',
    );
    await fails(
      mia,
      'POST',
      '/api/teams/import',
      { ...good, projects: [...good.projects, good.projects[0]] },
      400,
      'import_invalid',
    );
    await fails(
      mia,
      'POST',
      '/api/teams/import',
      {
        ...good,
        notes: [
          {
            title: 'n',
            project: null,
            pinned: false,
            author: null,
            plainText: '',
            state: 'aGVsbG8gd29ybGQ=',
            createdAt: good.exportedAt,
            updatedAt: good.exportedAt,
          },
        ],
      },
      400,
      'import_invalid',
    );
    await fails(
      mia,
      'POST',
      '/api/teams/import',
      { ...good, tasks: [{ ...good.tasks[0]!, createdAt: 'yesterday' }] },
      400,
      'import_invalid',
    );
    expect(await taskCount()).toBe(before);
  });
});

describe('npm run cli -- export', () => {
  it('writes a team as JSON and its tasks as CSV, the same as the API', async () => {
    const target = await createScratchTarget('crewboard_cli_export');
    const folder = mkdtempSync(join(tmpdir(), 'crewboard-export-'));
    try {
      const database = await openDatabase({ dataDir: target.dataDir, databaseUrl: target.databaseUrl });
      await database.migrate();
      const file = await ok<CrewboardExport>(olive, 'GET', `/api/teams/${team.id}/export`);
      // Olive's account in that database, importing the file through the same service the route uses.
      const { TransferService } = await import('../../src/server/modules/transfer/transfer.service');
      const { ChangeRecorder } = await import('../../src/server/lib/changes');
      const { EventBus } = await import('../../src/server/lib/events');
      const { subscribers } = await import('../../src/server/subscribers');
      const { users } = await import('../../src/server/db/schema');
      const [owner] = await database.db.insert(users).values({ email: olive.email, fullName: 'Olive Owner' }).returning();
      const imported = await new TransferService(
        database.db,
        new ChangeRecorder(subscribers(ctx.config, new EventBus())),
      ).importTeam(owner!.id, file);
      await database.close();

      const env = { ...process.env, DATABASE_URL: target.databaseUrl, DATA_DIR: target.dataDir, AUTH_SECRET: 'x'.repeat(40) };
      const run = (args: string[]) =>
        spawnSync('npx', ['tsx', 'src/server/cli.ts', ...args], { encoding: 'utf8', env, timeout: 120_000 });
      const json = run(['export', imported.teamId, join(folder, 'team.json')]);
      expect(json.status, json.stderr).toBe(0);
      const written = JSON.parse(readFileSync(join(folder, 'team.json'), 'utf8')) as CrewboardExport;
      expect(written.tasks.map((t) => t.title)).toEqual(file.tasks.map((t) => t.title));
      const csv = run(['export', imported.teamId, '--csv']);
      expect(csv.status, csv.stderr).toBe(0);
      expect(
        csv.stdout.startsWith('\uFEFFTitle,Status,Priority,Assignee,Start Date,Due Date,Project,Tags,Created,Description\r\n'),
      ).toBe(true);
      expect(csv.stdout.split('\r\n').filter(Boolean)).toHaveLength(file.tasks.length + 1);
      const missing = run(['export', '00000000-0000-4000-8000-000000000000']);
      expect(missing.status).toBe(1);
      expect(missing.stderr).toMatch(/no team with id/);
      expect(run(['export', 'not-an-id']).status).toBe(2);
    } finally {
      await target.drop();
      rmSync(folder, { recursive: true, force: true });
    }
  }, 240_000);
});

describe('imports: the rate bucket', () => {
  const limited = setupTestApp({ rateLimitEnabled: true, rateLimits: { import: { capacity: 3, windowSeconds: 3600 } } });

  it('spends one token per import from the IP, dry runs included, then answers 429 with Retry-After', async () => {
    const owner = await createUser(limited.app);
    const team = await insertTeam(limited.database.db, owner);
    const csv = () =>
      limited.app.inject({
        method: 'POST',
        url: `/api/teams/${team.id}/import/csv`,
        headers: owner.auth,
        payload: { csv: 'Title\nOne\n', dryRun: true },
      });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await csv()).statusCode);
    expect(statuses).toEqual([200, 200, 200, 429]);
    // The bucket is the IP's, across the import routes.
    const trello = await limited.app.inject({
      method: 'POST',
      url: `/api/teams/${team.id}/import/trello`,
      headers: owner.auth,
      payload: { board: { name: 'B', lists: [], cards: [] }, dryRun: true },
    });
    expect(trello.statusCode).toBe(429);
    expect(Number(trello.headers['retry-after'])).toBeGreaterThan(0);
    // Other routes do not spend from it.
    expect(
      (await limited.app.inject({ method: 'GET', url: `/api/teams/${team.id}/export`, headers: owner.auth })).statusCode,
    ).toBe(200);
  });
});
