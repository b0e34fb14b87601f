// Export and import carry each project's workflow (issue 36, decision 0024, step 7): an export names each project's
// statuses and every task's key, an import recreates both; an export from before workflows imports with the default
// four; a Trello list may become a status of its own.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ProjectDto } from '../../src/domain/schemas/project';
import type { TaskDto, TaskListDto } from '../../src/domain/schemas/task';
import { expandTaskList } from '../../src/domain/task-list';
import type { CrewboardExport, ImportResultDto, TeamImportResultDto, TrelloPreviewDto } from '../../src/domain/schemas/transfer';
import type { StatusDto, StatusListDto } from '../../src/domain/schemas/workflow';
import { DEFAULT_STATUSES } from '../../src/domain/workflow';
import { projects } from '../../src/server/db/schema';
import { createUser, insertTeam, type TestUser } from '../factories';
import { apiRequests } from '../helpers/api';
import { setupTestApp } from '../helpers/app';

const ctx = setupTestApp();
const { ok, fails } = apiRequests(ctx);

let olive: TestUser;

beforeAll(async () => {
  olive = await createUser(ctx.app, { fullName: 'Olive Owner' });
});

const statusesOf = async (projectId: string) =>
  (await ok<StatusListDto>(olive, 'GET', `/api/projects/${projectId}/statuses`)).statuses;
/** A workflow as the export writes it: the statuses without their ids. */
const withoutIds = (statuses: StatusDto[]) => statuses.map(({ id: _id, ...s }) => s);
const tasksOf = async (projectId: string) =>
  expandTaskList(await ok<TaskListDto>(olive, 'GET', `/api/tasks?projectId=${projectId}&limit=500`)).tasks;
const projectsOfTeam = (teamId: string) =>
  ctx.database.db.select().from(projects).where(eq(projects.teamId, teamId)).orderBy(projects.createdAt);
const keysByTitle = (list: TaskDto[]) => Object.fromEntries(list.map((t) => [t.title, [t.status, t.statusCategory]] as const));

describe('a Crewboard export carries the workflows', () => {
  it('a project with a 6-status workflow: exported with its statuses, imported with the same workflow and every task in its key', async () => {
    const crew = await insertTeam(ctx.database.db, olive, 'Six Steps');
    const project = await ok<ProjectDto>(olive, 'POST', '/api/projects', { name: 'Rocket', teamId: crew.id }, 201);
    const plain = await ok<ProjectDto>(olive, 'POST', '/api/projects', { name: 'Plain', teamId: crew.id }, 201);
    // Backlog first, QA (WIP 2) between Review and Completed, "Won't do" last; Review renamed (its key stays).
    const add = (body: Record<string, unknown>) =>
      ok<StatusDto>(olive, 'POST', `/api/projects/${project.id}/statuses`, { color: '#7c3aed', ...body }, 201);
    const backlog = await add({ name: 'Backlog', category: 'backlog', color: '#94A3B8' });
    const qa = await add({ name: 'QA', category: 'started', wipLimit: 2 });
    const wont = await add({ name: "Won't do", category: 'canceled', color: '#ef4444' });
    const [todo, inProgress, review, completed] = await statusesOf(project.id);
    await ok(olive, 'PATCH', `/api/statuses/${review!.id}`, { name: 'Code review' });
    await ok(olive, 'PUT', `/api/projects/${project.id}/statuses/order`, {
      ids: [backlog.id, todo!.id, inProgress!.id, review!.id, qa.id, completed!.id, wont.id],
    });
    // A status deleted with its task moved out: not part of the workflow any more, so not exported, but the task's
    // history still says what it meant.
    const gone = await add({ name: 'Gone', category: 'completed' });
    const ghost = await ok<TaskDto>(olive, 'POST', '/api/tasks', { title: 'Ghost', projectId: project.id, status: 'gone' }, 201);
    await ok(olive, 'DELETE', `/api/statuses/${gone.id}`, { moveTo: qa.id }, 204);
    await ok(olive, 'PATCH', `/api/statuses/${todo!.id}`, { name: 'Ready' });
    const workflow = await statusesOf(project.id);
    expect(workflow.map((s) => s.key)).toEqual(['backlog', 'todo', 'in_progress', 'review', 'qa', 'completed', 'won_t_do']);
    await ok(olive, 'DELETE', `/api/statuses/${inProgress!.id}`, undefined, 204);
    const six = await statusesOf(project.id);
    expect(six).toHaveLength(6);
    for (const s of six)
      await ok(olive, 'POST', '/api/tasks', { title: `In ${s.name}`, projectId: project.id, status: s.key }, 201);
    const moved = await ok<TaskDto>(
      olive,
      'POST',
      '/api/tasks',
      { title: 'Travelled', projectId: project.id, status: 'backlog' },
      201,
    );
    await ok(olive, 'PATCH', `/api/tasks/${moved.id}/status`, { status: 'qa' });
    await ok(olive, 'PATCH', `/api/tasks/${moved.id}/status`, { status: 'won_t_do' });
    await ok(olive, 'POST', '/api/tasks', { title: 'Plain task', projectId: plain.id, status: 'review' }, 201);

    const file = await ok<CrewboardExport>(olive, 'GET', `/api/teams/${crew.id}/export`);
    const rocket = file.projects.find((p) => p.name === 'Rocket')!;
    expect(rocket.statuses).toEqual(withoutIds(six));
    expect(rocket.statuses!.map((s) => [s.key, s.name, s.category, s.position, s.wipLimit])).toEqual([
      ['backlog', 'Backlog', 'backlog', 0, null],
      ['todo', 'Ready', 'unstarted', 1, null],
      ['review', 'Code review', 'started', 2, null],
      ['qa', 'QA', 'started', 3, 2],
      ['completed', 'Completed', 'completed', 4, null],
      ['won_t_do', "Won't do", 'canceled', 5, null],
    ]);
    expect(rocket.statuses![0]!.color).toBe('#94a3b8');
    expect(file.projects.find((p) => p.name === 'Plain')!.statuses).toEqual(DEFAULT_STATUSES);
    const travelled = file.tasks.find((t) => t.title === 'Travelled')!;
    expect(travelled).toMatchObject({ project: rocket.key, status: 'won_t_do' });
    const statusHistory = (title: string, of: CrewboardExport) =>
      of.tasks
        .find((t) => t.title === title)!
        .history.filter((h) => h.field === 'status')
        .map((h) => [h.oldValue, h.newValue, h.oldCategory, h.newCategory]);
    expect(statusHistory('Travelled', file)).toEqual([
      ['backlog', 'qa', 'backlog', 'started'],
      ['qa', 'won_t_do', 'started', 'canceled'],
    ]);
    expect(statusHistory('Ghost', file)).toEqual([['gone', 'qa', 'completed', 'started']]);
    expect(ghost.status).toBe('gone');

    // Imported (as a new team): the same workflows, every task in its key and category, counts and progress right.
    const imported = await ok<TeamImportResultDto>(olive, 'POST', '/api/teams/import', file, 201);
    const [rocket2, plain2] = await projectsOfTeam(imported.teamId);
    expect(rocket2!.name).toBe('Rocket');
    expect(withoutIds(await statusesOf(rocket2!.id))).toEqual(withoutIds(six));
    expect(withoutIds(await statusesOf(plain2!.id))).toEqual(withoutIds(await statusesOf(plain.id)));
    expect(keysByTitle(await tasksOf(rocket2!.id))).toEqual(keysByTitle(await tasksOf(project.id)));
    expect(keysByTitle(await tasksOf(plain2!.id))).toEqual({ 'Plain task': ['review', 'started'] });
    const [before, after] = await Promise.all([
      ok<ProjectDto>(olive, 'GET', `/api/projects/${project.id}`),
      ok<ProjectDto>(olive, 'GET', `/api/projects/${rocket2!.id}`),
    ]);
    expect([after.taskCount, after.progress]).toEqual([before.taskCount, before.progress]);
    // The imported workflow is a workflow like any: a status added to it takes the next free key.
    const again = await ok<StatusDto>(
      olive,
      'POST',
      `/api/projects/${rocket2!.id}/statuses`,
      { name: 'QA!', category: 'started', color: '#7c3aed' },
      201,
    );
    expect(again).toMatchObject({ key: 'qa_2', position: 6 });

    // And exported again: the same file, apart from times and the new status.
    await ok(olive, 'DELETE', `/api/statuses/${again.id}`, undefined, 204);
    const second = await ok<CrewboardExport>(olive, 'GET', `/api/teams/${imported.teamId}/export`);
    expect(second.projects.map((p) => p.statuses)).toEqual(file.projects.map((p) => p.statuses));
    expect(second.tasks.map((t) => [t.title, t.status])).toEqual(file.tasks.map((t) => [t.title, t.status]));
    // The history keeps its categories, the deleted status's included (the new project never had it).
    for (const title of ['Travelled', 'Ghost']) expect(statusHistory(title, second)).toEqual(statusHistory(title, file));
  });

  it('an export from before workflows (no statuses) imports with the default four, every task in its key', async () => {
    const old = JSON.parse(readFileSync(join(import.meta.dirname, 'fixtures/export-before-workflows.json'), 'utf8'));
    expect(old.projects.some((p: object) => 'statuses' in p)).toBe(false);
    const imported = await ok<TeamImportResultDto>(olive, 'POST', '/api/teams/import', old, 201);
    expect(imported.counts).toMatchObject({ projects: 2, tasks: 4, comments: 1, checklistItems: 1, history: 1 });
    const [engine, compiler] = await projectsOfTeam(imported.teamId);
    for (const p of [engine!, compiler!]) {
      expect(withoutIds(await statusesOf(p.id))).toEqual(DEFAULT_STATUSES);
    }
    expect(keysByTitle(await tasksOf(engine!.id))).toEqual({
      'Sketch the mill': ['todo', 'unstarted'],
      'Punch the cards': ['in_progress', 'started'],
    });
    expect(keysByTitle(await tasksOf(compiler!.id))).toEqual({
      'Find the bug': ['review', 'started'],
      'Tape the moth in': ['completed', 'completed'],
    });
    expect((await ok<ProjectDto>(olive, 'GET', `/api/projects/${compiler!.id}`)).progress).toBe(50);
  });

  it('refuses a file whose workflow breaks the rules, or whose task is in a status its project lacks (400, nothing written)', async () => {
    const old = JSON.parse(readFileSync(join(import.meta.dirname, 'fixtures/export-before-workflows.json'), 'utf8'));
    const status = (key: string, name: string, category: string, position: number) => ({
      key,
      name,
      category,
      color: '#64748b',
      position,
      wipLimit: null,
    });
    const four = DEFAULT_STATUSES.map((s) => status(s.key, s.name, s.category, s.position));
    const withWorkflow = (statuses: unknown[], tasks = old.tasks) => ({
      ...old,
      projects: old.projects.map((p: object) => ({ ...p, statuses })),
      tasks,
    });
    const teamsBefore = (await ctx.database.db.select().from(projects)).length;
    for (const body of [
      // No completed status; nowhere for work to start; two of one name; a key twice; a task in a key not there.
      withWorkflow(four.filter((s) => s.category !== 'completed')),
      withWorkflow([...four.filter((s) => s.category !== 'unstarted'), status('x', 'X', 'canceled', 9)]),
      withWorkflow([...four, status('todo_2', 'to do', 'unstarted', 4)]),
      withWorkflow([...four, status('todo', 'Other', 'unstarted', 4)]),
      withWorkflow(four, [{ ...old.tasks[0], status: 'qa' }]),
      withWorkflow([...four, { ...status('qa', 'QA', 'started', 4), color: 'red' }]),
      withWorkflow([...four, { ...status('QA', 'QA', 'started', 4) }]),
      withWorkflow([]),
    ]) {
      await fails(olive, 'POST', '/api/teams/import', body, 400, 'import_invalid');
    }
    expect((await ctx.database.db.select().from(projects)).length).toBe(teamsBefore);
    // Positions need not start at 0 or follow each other: their order is the workflow's.
    const spaced = withWorkflow(four.map((s, i) => ({ ...s, position: 40 - i * 10 })).reverse());
    const imported = await ok<TeamImportResultDto>(olive, 'POST', '/api/teams/import', spaced, 201);
    const [engine] = await projectsOfTeam(imported.teamId);
    expect((await statusesOf(engine!.id)).map((s) => [s.key, s.position])).toEqual([
      ['completed', 0],
      ['review', 1],
      ['in_progress', 2],
      ['todo', 3],
    ]);
  });
});

describe('Trello: a list as a status of its own', () => {
  const board = () => {
    const list = (id: string, name: string, pos: number) => ({ id, name, pos, closed: false, idBoard: 'b1' });
    const card = (id: string, idList: string, name: string, pos: number) => ({ id, idList, name, pos, closed: false, desc: '' });
    return {
      id: 'b1',
      name: 'Mission control',
      lists: [
        list('l1', 'Backlog', 1),
        list('l2', 'Doing', 2),
        list('l3', 'QA', 3),
        list('l4', 'Done', 4),
        list('l5', "Won't do", 5),
      ],
      cards: [
        card('c1', 'l1', 'Someday', 1),
        card('c2', 'l2', 'Fuel', 1),
        card('c3', 'l2', 'Wiring', 2),
        card('c4', 'l3', 'Check the seals', 1),
        card('c5', 'l4', 'Launch pad', 1),
        card('c6', 'l4', 'Paint', 2),
        card('c7', 'l5', 'Teleporter', 1),
      ],
      labels: [],
      actions: [],
    };
  };
  const own = { l1: 'own', l2: 'own', l3: 'own', l4: 'own', l5: 'own' } as const;

  it("lists 'Backlog', 'Doing', 'QA', 'Done' and \"Won't do\" become the project's statuses with their categories", async () => {
    const crew = await insertTeam(ctx.database.db, olive, 'Trello Crew');
    const url = `/api/teams/${crew.id}/import/trello`;
    // The first dry run suggests the four default statuses, as before, and says the project gets them.
    const first = await ok<TrelloPreviewDto>(olive, 'POST', url, { board: board() });
    expect(first.lists.map((l) => l.suggestedStatus)).toEqual(['todo', 'in_progress', 'review', 'completed', 'todo']);
    expect(first.statuses.map((s) => s.key)).toEqual(['todo', 'in_progress', 'review', 'completed']);
    // With every list its own status, the preview names the workflow the project will have.
    const preview = await ok<TrelloPreviewDto>(olive, 'POST', url, { board: board(), mapping: own, dryRun: true });
    const expected = [
      { key: 'backlog', name: 'Backlog', category: 'backlog' },
      { key: 'doing', name: 'Doing', category: 'started' },
      { key: 'qa', name: 'QA', category: 'started' },
      { key: 'done', name: 'Done', category: 'completed' },
      { key: 'won_t_do', name: "Won't do", category: 'canceled' },
    ];
    expect(preview.statuses).toEqual(expected);
    expect(preview.lists.map((l) => l.status)).toEqual(['own', 'own', 'own', 'own', 'own']);

    const result = await ok<ImportResultDto>(olive, 'POST', url, { board: board(), mapping: own }, 201);
    const statuses = await statusesOf(result.projectId);
    expect(statuses.map(({ key, name, category }) => ({ key, name, category }))).toEqual(expected);
    expect(statuses.map((s) => s.position)).toEqual([0, 1, 2, 3, 4]);
    expect(keysByTitle(await tasksOf(result.projectId))).toEqual({
      Someday: ['backlog', 'backlog'],
      Fuel: ['doing', 'started'],
      Wiring: ['doing', 'started'],
      'Check the seals': ['qa', 'started'],
      'Launch pad': ['done', 'completed'],
      Paint: ['done', 'completed'],
      Teleporter: ['won_t_do', 'canceled'],
    });
    // Progress leaves the canceled card out: 2 completed of 6.
    expect(await ok<ProjectDto>(olive, 'GET', `/api/projects/${result.projectId}`)).toMatchObject({ taskCount: 7, progress: 33 });
  });

  it('the mapping onto the four default statuses still works, and may be mixed with own statuses', async () => {
    const crew = await insertTeam(ctx.database.db, olive, 'Mixed Crew');
    const url = `/api/teams/${crew.id}/import/trello`;
    const four = await ok<ImportResultDto>(
      olive,
      'POST',
      url,
      { board: board(), mapping: { l1: 'todo', l2: 'in_progress', l3: 'review', l4: 'completed', l5: 'skip' } },
      201,
    );
    expect((await statusesOf(four.projectId)).map((s) => s.key)).toEqual(['todo', 'in_progress', 'review', 'completed']);
    expect(
      Object.values(keysByTitle(await tasksOf(four.projectId)))
        .map(([key]) => key)
        .sort(),
    ).toEqual(['completed', 'completed', 'in_progress', 'in_progress', 'review', 'todo']);

    const mixed = await ok<ImportResultDto>(
      olive,
      'POST',
      url,
      { board: board(), mapping: { l1: 'own', l2: 'in_progress', l3: 'own', l4: 'completed', l5: 'skip' } },
      201,
    );
    expect((await statusesOf(mixed.projectId)).map((s) => [s.key, s.category])).toEqual([
      ['backlog', 'backlog'],
      ['in_progress', 'started'],
      ['qa', 'started'],
      ['completed', 'completed'],
    ]);
    expect(keysByTitle(await tasksOf(mixed.projectId))).toMatchObject({
      Someday: ['backlog', 'backlog'],
      Paint: ['completed', 'completed'],
    });
  });
});

describe('CSV and workflows', () => {
  it("imports into a project's own workflow (a status it lacks becomes the nearest, with a warning); exports status names", async () => {
    const crew = await insertTeam(ctx.database.db, olive, 'CSV Crew');
    const project = await ok<ProjectDto>(olive, 'POST', '/api/projects', { name: 'Sheets', teamId: crew.id }, 201);
    await ok(
      olive,
      'POST',
      `/api/projects/${project.id}/statuses`,
      { name: 'Backlog', category: 'backlog', color: '#94a3b8' },
      201,
    );
    const [todo, , review] = await statusesOf(project.id);
    await ok(olive, 'DELETE', `/api/statuses/${todo!.id}`, undefined, 204);
    await ok(olive, 'PATCH', `/api/statuses/${review!.id}`, { name: 'Code review' });

    const url = `/api/teams/${crew.id}/import/csv`;
    const body = { csv: 'Title,Status\nA,To Do\nB,Review\nC,Done\nD,To Do\n', projectId: project.id };
    const warning = '2 tasks in a status this project does not have: To Do → Backlog';
    const preview = await ok<{ rows: { title: string; status: string }[]; warnings: string[] }>(olive, 'POST', url, body);
    expect(preview.rows.map((r) => [r.title, r.status])).toEqual([
      ['A', 'backlog'],
      ['B', 'review'],
      ['C', 'completed'],
      ['D', 'backlog'],
    ]);
    expect(preview.warnings).toEqual([warning]);
    const result = await ok<ImportResultDto>(olive, 'POST', url, { ...body, mapping: { Title: 'title', Status: 'status' } }, 201);
    expect(result.warnings).toEqual([warning]);
    expect(keysByTitle(await tasksOf(project.id))).toEqual({
      A: ['backlog', 'backlog'],
      B: ['review', 'started'],
      C: ['completed', 'completed'],
      D: ['backlog', 'backlog'],
    });

    const csv = await ctx.app.inject({ url: `/api/teams/${crew.id}/export.csv`, headers: olive.auth });
    expect(csv.statusCode).toBe(200);
    const cells = csv.rawPayload
      .toString('utf8')
      .split('\r\n')
      .filter(Boolean)
      .slice(1)
      .map((line) => line.split(',').slice(0, 2));
    expect(cells.sort()).toEqual([
      ['A', 'Backlog'],
      ['B', 'Code review'],
      ['C', 'Completed'],
      ['D', 'Backlog'],
    ]);
  });
});
