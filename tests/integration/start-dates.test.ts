// Issue 37 step 5: 'Show sub-tasks' off (`subtasks=hide`) on every shape of the board and the list — the cards, the
// counts and every later page leave sub-tasks out —, and the start-date filters and sort.
import { beforeAll, describe, expect, it } from 'vitest';
import { type TaskBoardDto, type TaskDto, type TaskListDto, taskBoardDto } from '../../src/domain/schemas/task';
import { expandTaskList } from '../../src/domain/task-list';
import type { SavedViewDto } from '../../src/domain/schemas/saved-view';
import type { CrewboardExport, CsvPreviewDto, TeamImportResultDto } from '../../src/domain/schemas/transfer';
import { createUser, insertMember, insertTeam, type TestUser } from '../factories';
import { apiRequests } from '../helpers/api';
import { setupTestApp } from '../helpers/app';

const ctx = setupTestApp();
const { ok, fails } = apiRequests(ctx);

// Dora runs Delta (D1 and D2, both on the default workflow); Olive runs Tango (Six, with a 'Design' status, and Plain:
// All Projects shows categories); Mia is a member of both; Sam is a stranger.
let dora: TestUser;
let olive: TestUser;
let mia: TestUser;
let sam: TestUser;
let d1: string;
let d2: string;
let six: string;
const ids: Record<string, string> = {};
const teamOf: Record<string, string> = {};

const board = (user: TestUser, query = '') => ok<TaskBoardDto>(user, 'GET', `/api/tasks/board?${query}`);
const list = (user: TestUser, query = '') => ok<TaskListDto>(user, 'GET', `/api/tasks?${query}`).then(expandTaskList);
const newProject = async (user: TestUser, teamId: string, name: string) =>
  (await ok<{ id: string }>(user, 'POST', '/api/projects', { teamId, name }, 201)).id;

async function task(user: TestUser, name: string, projectId: string, fields: Record<string, unknown> = {}) {
  const parentId = typeof fields.parent === 'string' ? ids[fields.parent] : undefined;
  const { parent: _, ...rest } = fields;
  const created = await ok<TaskDto>(user, 'POST', '/api/tasks', { projectId, title: name, ...rest, parentId }, 201);
  ids[name] = created.id;
  return created;
}

const titles = (tasks: TaskDto[]) => tasks.map((t) => t.title);

/** Every page of a list query, `size` at a time (the list's and a column's 'Show more'). */
async function allPages(user: TestUser, query: string, size: number) {
  const out: TaskDto[] = [];
  for (let offset = 0; ; offset += size) {
    const page = await list(user, `${query}&limit=${size}&offset=${offset}`);
    out.push(...page.tasks);
    if (page.tasks.length < size) return { tasks: out, counts: page.counts, total: page.total };
  }
}

/**
 * The board with sub-tasks hidden is the full board's top-level tasks: the same columns, each column's cards the
 * full column's top-level ones (newest first, at most `limit`), the counts and total counted without sub-tasks.
 */
async function expectHiddenBoard(user: TestUser, query: string) {
  const full = await board(user, `${query}&limit=100`);
  const hidden = await board(user, `${query}&limit=100&subtasks=hide`);
  expect(taskBoardDto.parse(hidden)).toEqual(hidden);
  expect(hidden.columnKind).toBe(full.columnKind);
  expect(hidden.order).toEqual(full.order);
  expect(hidden.workflows).toEqual(full.workflows);
  let total = 0;
  for (const id of full.order) {
    const top = full.columns[id]!.filter((t) => t.parentId === null);
    expect(titles(hidden.columns[id]!), id).toEqual(titles(top));
    expect(hidden.counts[id], id).toBe(top.length);
    total += top.length;
    // The first screen's `limit` counts top-level tasks: a sub-task newer than them does not take a place.
    const first = await board(user, `${query}&limit=1&subtasks=hide`);
    expect(titles(first.columns[id]!), id).toEqual(titles(top.slice(0, 1)));
    expect(first.counts[id]).toBe(top.length);
  }
  expect(hidden.total).toBe(total);
  // The test can fail: the full board has sub-tasks the hidden one leaves out.
  expect(full.total).toBeGreaterThan(hidden.total);
  return { full, hidden };
}

beforeAll(async () => {
  const people = await Promise.all(
    ['Dora Default', 'Olive Owner', 'Mia Member', 'Sam Stranger'].map((fullName) => createUser(ctx.app, { fullName })),
  );
  [dora, olive, mia, sam] = people as [TestUser, TestUser, TestUser, TestUser];
  const delta = await insertTeam(ctx.database.db, dora, 'Delta');
  const tango = await insertTeam(ctx.database.db, olive, 'Tango');
  const sierra = await insertTeam(ctx.database.db, sam, 'Sierra');
  teamOf.delta = delta.id;
  await insertMember(ctx.database.db, delta.id, mia, 'member');
  d1 = await newProject(dora, delta.id, 'D1');
  d2 = await newProject(dora, delta.id, 'D2');
  six = await newProject(olive, tango.id, 'Six');
  const plain = await newProject(olive, tango.id, 'Plain');
  await newProject(sam, sierra.id, 'Theirs');
  await ok(olive, 'POST', `/api/projects/${six}/statuses`, { name: 'Design', category: 'started', color: '#7c3aed' }, 201);

  // Parents first, then their sub-tasks (newer: without the filter they would top their columns).
  await task(dora, 'P1', d1, { status: 'todo' });
  await task(dora, 'T1', d1, { status: 'review', startDate: '2026-03-01', dueDate: '2026-03-10' });
  await task(dora, 'T2', d1, { status: 'todo', startDate: '2026-02-01' });
  await task(dora, 'P2', d2, { status: 'in_progress', startDate: '2026-03-05', dueDate: '2026-03-05' });
  await task(dora, 'T3', d2, { status: 'completed' });
  await task(dora, 'S1a', d1, { parent: 'P1', status: 'todo', startDate: '2026-04-01' });
  await task(dora, 'S1b', d1, { parent: 'P1', status: 'in_progress' });
  await task(dora, 'S1c', d1, { parent: 'P1', status: 'completed' });
  await task(dora, 'S1a1', d1, { parent: 'S1a', status: 'todo' });
  await task(dora, 'S2a', d2, { parent: 'P2', status: 'in_progress', startDate: '2026-01-15' });

  await task(olive, 'X', six, { status: 'design' });
  await task(olive, 'Y', plain, { status: 'todo' });
  await task(olive, 'Xa', six, { parent: 'X', status: 'design' });
  await task(olive, 'Xb', six, { parent: 'X', status: 'todo' });
  await task(olive, 'Ya', plain, { parent: 'Y', status: 'completed' });
});

describe("'Show sub-tasks' off: subtasks=hide on the board", () => {
  it('All Projects on the default four (the default statement): only top-level cards, counted without sub-tasks', async () => {
    const { hidden } = await expectHiddenBoard(dora, '');
    expect(hidden.columnKind).toBe('status');
    expect(hidden.counts).toEqual({ todo: 2, in_progress: 1, review: 1, completed: 1 });
    expect(titles(hidden.columns.todo!)).toEqual(['T2', 'P1']);
    // A member of the team sees the same.
    expect(await board(mia, 'subtasks=hide&limit=100')).toEqual(hidden);
  });

  it("one project's board (the lateral statement)", async () => {
    const { hidden } = await expectHiddenBoard(dora, `projectId=${d1}`);
    expect(hidden.counts).toEqual({ todo: 2, in_progress: 0, review: 1, completed: 0 });
    expect(hidden.total).toBe(3);
  });

  it('All Projects by category when the workflows differ', async () => {
    const { hidden } = await expectHiddenBoard(olive, '');
    expect(hidden.columnKind).toBe('category');
    expect(hidden.counts).toMatchObject({ unstarted: 1, started: 1, completed: 0 });
    expect(titles(hidden.columns.started!)).toEqual(['X']);
  });

  it('with other filters beside it, and a status or category filter', async () => {
    const todo = await board(dora, `projectId=${d1}&status=todo&subtasks=hide`);
    expect(titles(todo.columns.todo!)).toEqual(['T2', 'P1']);
    expect(todo.counts).toEqual({ todo: 2, in_progress: 0, review: 0, completed: 0 });
    const started = await board(olive, 'category=started&subtasks=hide');
    expect(titles(started.columns.started!)).toEqual(['X']);
    expect(started.total).toBe(1);
    const search = await board(dora, 'q=S1&subtasks=hide');
    expect(search.total).toBe(0);
  });
});

describe('subtasks=hide on the list and the columns’ later pages', () => {
  it('pages through top-level tasks only, with counts and total to match', async () => {
    const full = await allPages(dora, 'sort=title', 100);
    const hidden = await allPages(dora, 'sort=title&subtasks=hide', 2);
    expect(titles(hidden.tasks)).toEqual(titles(full.tasks.filter((t) => t.parentId === null)));
    expect(titles(hidden.tasks)).toEqual(['P1', 'P2', 'T1', 'T2', 'T3']);
    expect(hidden.total).toBe(5);
    expect(hidden.counts).toEqual({ todo: 2, in_progress: 1, review: 1, completed: 1 });
    expect(full.total).toBe(10);
  });

  it("a column's 'Show more' (the list of one status, newest first, by offset) leaves sub-tasks out", async () => {
    const pages = await allPages(dora, `projectId=${d1}&status=todo&subtasks=hide`, 1);
    expect(titles(pages.tasks)).toEqual(['T2', 'P1']);
    expect(pages.total).toBe(2);
    const started = await allPages(olive, 'category=started&subtasks=hide', 1);
    expect(titles(started.tasks)).toEqual(['X']);
  });

  it('takes only hide, and nothing of another team', async () => {
    await fails(dora, 'GET', '/api/tasks?subtasks=show', undefined, 400);
    await fails(dora, 'GET', '/api/tasks/board?subtasks=', undefined, 400);
    expect((await list(sam, 'subtasks=hide')).total).toBe(0);
    expect((await board(sam, 'subtasks=hide')).total).toBe(0);
  });

  it('is kept in a saved view, with the start-date filter', async () => {
    const view = await ok<SavedViewDto>(
      mia,
      'POST',
      '/api/views',
      { name: 'Top level', config: { subtasks: 'hide', start: 'set', view: 'board' } },
      201,
    );
    expect(view.config).toEqual({ subtasks: 'hide', start: 'set', view: 'board' });
    await fails(mia, 'POST', '/api/views', { name: 'Bad', config: { subtasks: 'show' } }, 400);
  });
});

describe('the start-date filters and sort', () => {
  it('start=none and start=set split the tasks; startFrom/startTo are an inclusive range of start dates', async () => {
    const none = await allPages(dora, 'sort=title&start=none', 100);
    const set = await allPages(dora, 'sort=title&start=set', 100);
    expect(titles(set.tasks)).toEqual(['P2', 'S1a', 'S2a', 'T1', 'T2']);
    expect(titles(none.tasks)).toEqual(['P1', 'S1a1', 'S1b', 'S1c', 'T3']);
    expect(none.total + set.total).toBe(10);
    const range = await list(dora, 'sort=title&startFrom=2026-02-01&startTo=2026-03-05');
    expect(titles(range.tasks)).toEqual(['P2', 'T1', 'T2']);
    expect(range.total).toBe(3);
    const fromOnly = await list(dora, 'sort=title&startFrom=2026-03-02');
    expect(titles(fromOnly.tasks)).toEqual(['P2', 'S1a']);
    // With sub-tasks hidden, on the board.
    const b = await board(dora, 'start=set&subtasks=hide');
    expect(b.counts).toEqual({ todo: 1, in_progress: 1, review: 1, completed: 0 });
    await fails(dora, 'GET', '/api/tasks?start=maybe', undefined, 400);
    await fails(dora, 'GET', '/api/tasks?startFrom=2026-13-01', undefined, 400);
  });

  it('sorts by start date, nulls last both ways', async () => {
    const asc = await list(dora, 'sort=start&dir=asc');
    expect(titles(asc.tasks).slice(0, 5)).toEqual(['S2a', 'T2', 'T1', 'P2', 'S1a']);
    expect(asc.tasks.slice(5).every((t) => t.startDate === null)).toBe(true);
    const desc = await list(dora, 'sort=start&dir=desc');
    expect(titles(desc.tasks).slice(0, 5)).toEqual(['S1a', 'P2', 'T1', 'T2', 'S2a']);
    expect(desc.tasks.slice(5).every((t) => t.startDate === null)).toBe(true);
    expect(desc.tasks).toHaveLength(10);
  });
});

describe('start dates in export and import', () => {
  it("the CSV export has a 'Start Date' column beside the due date", async () => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: `/api/teams/${teamOf.delta}/export.csv?projectId=${d1}`,
      headers: dora.auth,
    });
    expect(res.statusCode, res.body).toBe(200);
    const lines = res.rawPayload.toString('utf8').split('\r\n');
    expect(lines[0]).toBe('\uFEFFTitle,Status,Priority,Assignee,Start Date,Due Date,Project,Tags,Created,Description');
    expect(lines.find((l) => l.startsWith('T1,'))).toMatch(/^T1,Review,Medium,,2026-03-01,2026-03-10,D1,,/);
    expect(lines.find((l) => l.startsWith('P1,'))).toMatch(/^P1,To Do,Medium,,,,D1,,/);
  });

  it("the CSV import maps a 'Start date' column, and refuses a row whose start is after its due date", async () => {
    const csv = 'Title,Start date,Due\r\nSpan,2026-05-01,2026-05-04\r\nBackwards,2026-05-05,2026-05-04\r\n';
    const url = `/api/teams/${teamOf.delta}/import/csv`;
    const preview = await ok<CsvPreviewDto>(dora, 'POST', url, { csv, projectId: d2 });
    expect(preview.mapping).toEqual({ Title: 'title', 'Start date': 'startDate', Due: 'dueDate' });
    expect(preview.rows.map((r) => [r.title, r.startDate, r.dueDate])).toEqual([['Span', '2026-05-01', '2026-05-04']]);
    expect(preview.errors).toEqual([{ line: 3, message: 'Start date must be on or before the due date' }]);
    const good = 'Title,Start date,Due\r\nSpan,2026-05-01,2026-05-04\r\n';
    await ok(dora, 'POST', url, { csv: good, projectId: d2, mapping: preview.mapping }, 201);
    const span = (await list(dora, `projectId=${d2}&q=Span`)).tasks;
    expect(span.map((t) => [t.title, t.startDate, t.dueDate])).toEqual([['Span', '2026-05-01', '2026-05-04']]);
  });

  it('the JSON export carries startDate, the import restores it, and drops a start after the due date with a warning', async () => {
    const file = await ok<CrewboardExport>(dora, 'GET', `/api/teams/${teamOf.delta}/export`);
    const t1 = file.tasks.find((t) => t.title === 'T1')!;
    expect(t1).toMatchObject({ startDate: '2026-03-01', dueDate: '2026-03-10' });
    expect(file.tasks.find((t) => t.title === 'P1')!.startDate).toBeNull();
    // A hand-edited file: T2's start moved after a due date it now has.
    const edited = {
      ...file,
      team: { ...file.team, name: 'Delta copy' },
      tasks: file.tasks.map((t) => (t.title === 'T2' ? { ...t, startDate: '2026-06-02', dueDate: '2026-06-01' } : t)),
    };
    const imported = await ok<TeamImportResultDto>(dora, 'POST', '/api/teams/import', edited, 201);
    expect(imported.warnings).toContain('T2: its start date 2026-06-02 is after its due date 2026-06-01: left out');
    const copy = await ok<CrewboardExport>(dora, 'GET', `/api/teams/${imported.teamId}/export`);
    const dates = (title: string) => {
      const t = copy.tasks.find((x) => x.title === title)!;
      return [t.startDate, t.dueDate];
    };
    expect(dates('T1')).toEqual(['2026-03-01', '2026-03-10']);
    expect(dates('S2a')).toEqual(['2026-01-15', null]);
    expect(dates('T2')).toEqual([null, '2026-06-01']);
    // A file from before start dates (no field) imports with none.
    const old = { ...file, team: { ...file.team, name: 'Delta old' }, tasks: file.tasks.map(({ startDate: _, ...t }) => t) };
    const fromOld = await ok<TeamImportResultDto>(dora, 'POST', '/api/teams/import', old, 201);
    const oldCopy = await ok<CrewboardExport>(dora, 'GET', `/api/teams/${fromOld.teamId}/export`);
    expect(oldCopy.tasks.every((t) => t.startDate === null)).toBe(true);
  });
});

describe("the calendar's range (spanFrom/spanTo): tasks whose days overlap it", () => {
  it('takes a task spanning into the range from either side or across it, and a due date within it', async () => {
    const q = (from: string, to: string) =>
      list(dora, `teamId=${teamOf.delta}&spanFrom=${from}&spanTo=${to}&sort=title&limit=100`).then((r) => titles(r.tasks));
    // T1 runs Mar 1–10, P2 is due Mar 5 (start Mar 5), S2a starts Jan 15 with no due date (not on the calendar).
    expect(await q('2026-03-06', '2026-03-08')).toEqual(['T1']);
    expect(await q('2026-02-20', '2026-03-01')).toEqual(['T1']);
    expect(await q('2026-03-10', '2026-03-20')).toEqual(['T1']);
    expect(await q('2026-03-05', '2026-03-05')).toEqual(['P2', 'T1']);
    expect(await q('2026-03-11', '2026-04-30')).toEqual([]);
    expect(await q('2026-01-01', '2026-02-28')).toEqual([]);
  });
});
