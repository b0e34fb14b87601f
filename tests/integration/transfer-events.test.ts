import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TaskListDto } from '../../src/domain/schemas/task';
import type { CrewboardExport, ImportResultDto, TeamImportResultDto, TrelloPreviewDto } from '../../src/domain/schemas/transfer';
import { auditLog, webhookDeliveries, webhooks } from '../../src/server/db/schema';
import { createUser, insertMember, insertTeam, type TestUser } from '../factories';
import { apiRequests } from '../helpers/api';
import { setupTestApp } from '../helpers/app';
import { until } from '../helpers/smtp';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver';

/**
 * Imports as changes (issue 34): one audit row and one `import.completed` webhook event per import, written with it,
 * nothing for a dry run or an import that rolled back. And issue 35, items 8 and 9, through the real server.
 */
const ctx = setupTestApp({ webhooksAllowPrivate: true, webhookPollIntervalMs: 50, webhookTimeoutMs: 2_500 });
const { ok, call } = apiRequests(ctx);

let receiver: WebhookReceiver;
let owner: TestUser;
let ada: TestUser;
let outsider: TestUser;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  [owner, ada, outsider] = await Promise.all([
    createUser(ctx.app, { fullName: 'Olive Owner' }),
    createUser(ctx.app, { fullName: 'Ada Lovelace' }),
    createUser(ctx.app, { fullName: 'Linus Torvalds' }),
  ]);
});
afterAll(async () => {
  await receiver?.close();
});

let counter = 0;
/** A team of its own per test, with a hook for imports only and one for everything else. */
async function newTeam() {
  const team = await insertTeam(ctx.database.db, owner, `Crew ${++counter}`);
  await insertMember(ctx.database.db, team.id, ada, 'member');
  const path = `/imports-${counter}`;
  await ok(owner, 'POST', `/api/teams/${team.id}/webhooks`, { url: receiver.origin + path, events: ['import.completed'] }, 201);
  await ok(
    owner,
    'POST',
    `/api/teams/${team.id}/webhooks`,
    { url: `${receiver.origin}/others-${counter}`, events: ['project.created', 'task.created', 'comment.created'] },
    201,
  );
  return { team, path };
}

/** The team's audit rows besides the setup's own (adding the hooks). */
const auditRows = async (teamId: string) =>
  (await ctx.database.db.select().from(auditLog).where(eq(auditLog.teamId, teamId)).orderBy(auditLog.id)).filter(
    (r) => r.action !== 'webhook.created',
  );

const deliveries = (teamId: string) =>
  ctx.database.db
    .select({ type: webhookDeliveries.eventType, body: webhookDeliveries.body, url: webhooks.url })
    .from(webhookDeliveries)
    .innerJoin(webhooks, eq(webhooks.id, webhookDeliveries.webhookId))
    .where(eq(webhooks.teamId, teamId));

function board() {
  return {
    name: 'Relaunch',
    lists: [
      { id: 'l1', name: 'To do', pos: 1 },
      { id: 'l2', name: 'Done', pos: 2 },
    ],
    members: [
      { id: 'm-ada', fullName: 'Ada Lovelace', username: 'ada' },
      { id: 'm-linus', fullName: 'Linus Torvalds', username: 'linus' },
    ],
    cards: [
      {
        id: 'c1',
        idList: 'l1',
        name: 'Write the copy',
        pos: 1,
        desc: 'All pages.',
        // 02:30 UTC on 1 March is still 29 February in New York.
        due: '2024-03-01T02:30:00.000Z',
        idMembers: ['m-linus', 'm-ada'],
        attachments: [
          { name: 'Brief', url: 'https://docs.example.com/brief', isUpload: false },
          { name: 'photo.png', url: 'https://trello.com/1/cards/c1/attachments/a/download/photo.png', isUpload: true },
        ],
      },
      { id: 'c2', idList: 'l2', name: 'Register the domain', pos: 1, idMembers: ['m-linus'] },
      { id: 'c3', idList: 'l1', name: 'Old card', pos: 2, closed: true },
    ],
    checklists: [{ id: 'k1', idCard: 'c1', name: 'Pages', checkItems: [{ name: 'Home', state: 'complete' }] }],
    actions: [
      {
        type: 'commentCard',
        date: '2024-01-02T10:00:00.000Z',
        data: { text: 'First!', card: { id: 'c1' } },
        memberCreator: { fullName: 'Grace Hopper' },
      },
    ],
  };
}
const mapping = { l1: 'todo', l2: 'completed' } as const;

describe('an import is one change: one audit row, one webhook event', () => {
  it('a Trello import writes one project.imported row and one import.completed delivery, however many rows it makes', async () => {
    const { team, path } = await newTeam();
    const result = await ok<ImportResultDto>(
      ada,
      'POST',
      `/api/teams/${team.id}/import/trello`,
      { board: board(), mapping, projectName: 'Relaunch' },
      201,
    );
    const rows = await auditRows(team.id);
    expect(rows.map((r) => [r.action, r.actorId, r.targetType, r.targetId, r.targetLabel])).toEqual([
      ['project.imported', ada.id, 'project', result.projectId, 'Relaunch'],
    ]);
    expect(rows[0]!.details).toMatchObject({ source: 'trello', counts: { projects: 1, tasks: 2, comments: 1 } });

    // One delivery, to the hook subscribed to imports; the other hook hears nothing of the project or its tasks.
    const queued = await deliveries(team.id);
    expect(queued.map((d) => [d.type, d.url])).toEqual([['import.completed', receiver.origin + path]]);
    await until(() => receiver.at(path).length >= 1, 10_000, 'the import.completed delivery');
    const body = JSON.parse(receiver.at(path)[0]!.body);
    expect(body).toMatchObject({
      type: 'import.completed',
      data: {
        team: { id: team.id },
        actor: { id: ada.id, fullName: 'Ada Lovelace' },
        import: {
          source: 'trello',
          teamCreated: false,
          project: { id: result.projectId, name: 'Relaunch', created: true },
          counts: { projects: 1, tasks: 2, comments: 1, checklistItems: 1, history: 0, notes: 0 },
        },
      },
    });
  });

  it('a CSV import into a project of the team: one row, one delivery', async () => {
    const { team } = await newTeam();
    const project = await ok<{ id: string; name: string }>(owner, 'POST', '/api/projects', { teamId: team.id, name: 'Ops' }, 201);
    const csv = 'Title,Tags\nOne,a\nTwo,b\nThree,c\n';
    await ok(
      owner,
      'POST',
      `/api/teams/${team.id}/import/csv`,
      { csv, mapping: { Title: 'title', Tags: 'tags' }, projectId: project.id },
      201,
    );
    expect((await auditRows(team.id)).map((r) => [r.action, r.targetId, r.details])).toEqual([
      [
        'project.imported',
        project.id,
        {
          source: 'csv',
          projectCreated: false,
          counts: { projects: 0, tasks: 3, comments: 0, checklistItems: 0, history: 0, notes: 0 },
        },
      ],
    ]);
    // The project's own creation went to the other hook before; the import added exactly one delivery.
    expect((await deliveries(team.id)).map((d) => d.type).sort()).toEqual(['import.completed', 'project.created']);
  });

  it('a Crewboard export imported as a new team: one team.imported row in the new team', async () => {
    const { team } = await newTeam();
    await ok(ada, 'POST', `/api/teams/${team.id}/import/csv`, { csv: 'Title\nA\nB\n', mapping: { Title: 'title' } }, 201);
    const file = await ok<CrewboardExport>(owner, 'GET', `/api/teams/${team.id}/export`);
    const imported = await ok<TeamImportResultDto>(owner, 'POST', '/api/teams/import', file, 201);
    const rows = await auditRows(imported.teamId);
    expect(rows.map((r) => [r.action, r.actorId, r.targetType, r.targetId])).toEqual([
      ['team.imported', owner.id, 'team', imported.teamId],
    ]);
    expect(rows[0]!.details).toMatchObject({ source: 'crewboard', counts: { tasks: 2 } });
  });

  it('a dry run and a failed (rolled back) import write no audit row and no delivery', async () => {
    const { team } = await newTeam();
    const preview = await ok<TrelloPreviewDto>(ada, 'POST', `/api/teams/${team.id}/import/trello`, {
      board: board(),
      dryRun: true,
    });
    expect(preview.dryRun).toBe(true);
    await ok(ada, 'POST', `/api/teams/${team.id}/import/csv`, { csv: 'Title\nA\n', dryRun: true });

    // A real failure inside the database, after the project, its tasks and comments went in.
    await ctx.database.db.execute(sql`
      create or replace function transfer_events_refuse() returns trigger language plpgsql as $$
      begin raise exception 'refused for the test' using errcode = '23514'; end $$`);
    await ctx.database.db.execute(
      sql`create trigger transfer_events_refuse before insert on task_checklist_items for each row execute function transfer_events_refuse()`,
    );
    try {
      const res = await call(ada, 'POST', `/api/teams/${team.id}/import/trello`, {
        board: board(),
        mapping,
        projectName: 'Doomed',
      });
      expect(res.statusCode, res.body).toBe(400);
    } finally {
      await ctx.database.db.execute(sql`drop trigger transfer_events_refuse on task_checklist_items`);
      await ctx.database.db.execute(sql`drop function transfer_events_refuse()`);
    }
    expect(await auditRows(team.id)).toEqual([]);
    expect(await deliveries(team.id)).toEqual([]);
  });
});

describe('Trello: people, files and times (issue 35, item 9)', () => {
  it('card members matching the team become assignees, the rest are named; the dry run counts what is left out', async () => {
    const { team } = await newTeam();
    const preview = await ok<TrelloPreviewDto>(ada, 'POST', `/api/teams/${team.id}/import/trello`, { board: board() });
    expect(preview.warnings).toEqual([
      '1 archived card is left out',
      '1 Trello member matches no member of the team: named in the card descriptions, not assigned',
      '1 attached file stored on Trello could not be fetched and is left out',
    ]);
    // Linus has an account, but is no member of this team: he is named, not assigned.
    expect(outsider.fullName).toBe('Linus Torvalds');

    // Ada's time zone is New York: a due time late at night there is that day, not the next one (UTC).
    await ok(ada, 'PATCH', '/api/me/profile', { fullName: 'Ada Lovelace', timeZone: 'America/New_York' });
    const result = await ok<ImportResultDto>(
      ada,
      'POST',
      `/api/teams/${team.id}/import/trello`,
      { board: board(), mapping },
      201,
    );
    const tasks = (await ok<TaskListDto>(ada, 'GET', `/api/tasks?projectId=${result.projectId}&limit=50`)).tasks;
    const copy = tasks.find((t) => t.title === 'Write the copy')!;
    expect(copy).toMatchObject({ assigneeId: ada.id, dueDate: '2024-02-29' });
    expect(copy.description).toBe(
      'All pages.\n\nMembers on Trello: Linus Torvalds\n\nLinks:\n- [Brief](https://docs.example.com/brief)',
    );
    expect(tasks.find((t) => t.title === 'Register the domain')).toMatchObject({
      assigneeId: null,
      description: 'Members on Trello: Linus Torvalds',
    });
  });
});

describe('CSV: an export re-imported gives back the same titles and tags (issue 35, item 8)', () => {
  it('formula guards come off and tags with commas stay whole', async () => {
    const { team } = await newTeam();
    const project = await ok<{ id: string }>(owner, 'POST', '/api/projects', { teamId: team.id, name: 'Round' }, 201);
    const titles = ['=1+1 stays text', '+49 30 1234', '-- draft --', '@team', "'=own apostrophe", 'Plain, with comma'];
    const tags = [['alpha, beta', 'gamma'], ['=x'], ['semi;colon', 'say "hi"'], [], ['a'], ['b']];
    for (const [i, title] of titles.entries()) {
      await ok(owner, 'POST', '/api/tasks', { title, projectId: project.id, tags: tags[i] }, 201);
    }
    const exported = await ctx.app.inject({
      method: 'GET',
      url: `/api/teams/${team.id}/export.csv?projectId=${project.id}`,
      headers: owner.auth,
    });
    expect(exported.statusCode).toBe(200);
    const result = await ok<ImportResultDto>(
      owner,
      'POST',
      `/api/teams/${team.id}/import/csv`,
      { csv: exported.body, mapping: { Title: 'title', Tags: 'tags' }, projectName: 'Round again' },
      201,
    );
    const back = (await ok<TaskListDto>(owner, 'GET', `/api/tasks?projectId=${result.projectId}&limit=50`)).tasks;
    const byTitle = new Map(back.map((t) => [t.title, t.tags]));
    expect([...byTitle.keys()].sort()).toEqual([...titles].sort());
    for (const [i, title] of titles.entries()) expect(byTitle.get(title), title).toEqual(tags[i]);
    // The import of the export is itself one audited change.
    const imported = await ctx.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.teamId, team.id), eq(auditLog.targetId, result.projectId)));
    expect(imported.map((r) => r.action)).toEqual(['project.imported']);
  });
});
