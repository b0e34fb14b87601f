import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  HIGHLIGHT_END as E,
  HIGHLIGHT_START as S,
  SEARCH_LIMITS,
  type SearchHit,
  type SearchKind,
  type SearchResultDto,
} from '../../src/domain/schemas/search';
import { stripHighlights } from '../../src/domain/search-query';
import { createUser, insertMember, insertTeam, type TestUser } from '../factories';
import { apiRequests } from '../helpers/api';
import { setupTestApp } from '../helpers/app';

const ctx = setupTestApp();

const { call, ok } = apiRequests(ctx);

const searchUrl = (q: string, extra = '') => `/api/search?q=${encodeURIComponent(q)}${extra}`;
const search = (user: TestUser, q: string, extra = '') => ok<SearchResultDto>(user, 'GET', searchUrl(q, extra));
/** A group's titles without highlight markers. */
const titles = (hits: SearchHit[]) => hits.map((h) => stripHighlights(h.title));
const allHits = (r: SearchResultDto) => Object.values(r.groups).flat();

// Alice and Bob run the Apollo team; Carol runs Borealis. Both teams hold text that matches the same searches.
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;
let apollo: { id: string };
let borealis: { id: string };
let bobMembershipInBorealis: { id: string };
const ids: Record<string, string> = {};

async function task(user: TestUser, projectId: string, title: string, extra: Record<string, unknown> = {}) {
  const t = await ok<{ id: string }>(user, 'POST', '/api/tasks', { title, projectId, ...extra }, 201);
  return t.id;
}

beforeAll(async () => {
  [alice, bob, carol] = await Promise.all([
    createUser(ctx.app, { fullName: 'Alice Zyskowski' }),
    createUser(ctx.app, { fullName: 'Bob Quillfeather' }),
    createUser(ctx.app, { fullName: 'Carol Zylberstein' }),
  ]);
  apollo = await insertTeam(ctx.database.db, alice, 'Apollo Crew');
  borealis = await insertTeam(ctx.database.db, carol, 'Borealis Squad');
  await insertMember(ctx.database.db, apollo.id, bob, 'member');

  const apolloProject = await ok<{ id: string }>(
    alice,
    'POST',
    '/api/projects',
    { name: 'Kanban board rollout', description: 'Moving every team to the new résumé builder', teamId: apollo.id },
    201,
  );
  const borealisProject = await ok<{ id: string }>(
    carol,
    'POST',
    '/api/projects',
    {
      name: 'Kanban board secrets',
      description: 'Nobody outside Borealis may read about the résumé builder',
      teamId: borealis.id,
    },
    201,
  );
  ids.apolloProject = apolloProject.id;
  ids.borealisProject = borealisProject.id;
  const p = apolloProject.id;
  ids.design = await task(alice, p, 'Design review', { tags: ['ux'] });
  ids.descriptionOnly = await task(alice, p, 'Quarterly cleanup', {
    description: 'Prepare the design review notes for everyone',
  });
  ids.kanban = await task(alice, p, 'Kanban board polish');
  ids.resumeAccented = await task(alice, p, 'Résumé template');
  ids.resumePlain = await task(alice, p, 'Export the resume as PDF');
  ids.tagged = await task(alice, p, 'Fix header', { tags: ['zeppelin', 'frontend'] });
  ids.described = await task(alice, p, 'Weekly sync', { description: 'Bring the quokka statistics and the coffee' });
  ids.evil = await task(alice, p, `Evil ${S}fake${E} highlight marker`, {
    description: `Stored ${E}markers${S} must ${S}never${E} survive`,
  });

  // The same words in Borealis: none of it may ever show up for Alice or Bob.
  ids.borealisDesign = await task(carol, borealisProject.id, 'Design review (Borealis)', {
    tags: ['zeppelin'],
    description: 'quokka statistics, Borealis only',
  });
  ids.borealisComment = (
    await ok<{ id: string }>(
      carol,
      'POST',
      `/api/tasks/${ids.borealisDesign}/comments`,
      {
        body: 'The flamingo budget is secret',
      },
      201,
    )
  ).id;

  ids.comment = (
    await ok<{ id: string }>(
      bob,
      'POST',
      `/api/tasks/${ids.design}/comments`,
      {
        body: `Ask <@${alice.id}> about the flamingo budget before Friday`,
      },
      201,
    )
  ).id;

  // Notes (issue 25): found by title and by the plain text the server keeps (written here as compaction would).
  const note = async (user: TestUser, teamId: string, title: string, text: string, projectId: string | null = null) => {
    const n = await ok<{ id: string }>(user, 'POST', '/api/notes', { teamId, title, projectId }, 201);
    await ctx.database.db.execute(sql`update notes set plain_text = ${text} where id = ${n.id}`);
    return n.id;
  };
  ids.note = await note(alice, apollo.id, 'Runbook for the albatross release', 'Step one: warm the quokka servers.', p);
  ids.borealisNote = await note(carol, borealis.id, 'Borealis secret runbook', 'The albatross plan, quokka included.');

  // Bob is also in Borealis for now (removed in the leak test).
  bobMembershipInBorealis = await insertMember(ctx.database.db, borealis.id, bob, 'member');
});

describe('search: matching', () => {
  it('finds a task by the prefix of its words while typing', async () => {
    for (const q of ['desi', 'Design', 'design rev', 'rev desi', 'DESIGN REVIEW']) {
      const r = await search(alice, q);
      expect(titles(r.groups.task)[0], q).toBe('Design review');
      expect(r.groups.task[0]).toMatchObject({
        kind: 'task',
        id: ids.design,
        taskId: ids.design,
        projectId: ids.apolloProject,
        teamId: apollo.id,
        status: 'todo',
        statusName: 'To Do',
        statusCategory: 'unstarted',
        priority: 'medium',
        context: 'Kanban board rollout',
      });
    }
  });

  it('gives a task hit its own status’s name in its project’s workflow (issue 36), renamed as it is renamed', async () => {
    const status = await ok<{ id: string; key: string }>(
      alice,
      'POST',
      `/api/projects/${ids.apolloProject}/statuses`,
      { name: 'Wireframing', category: 'started', color: '#7c3aed' },
      201,
    );
    const id = await task(alice, ids.apolloProject!, 'Zanzibar mockups', { status: status.key });
    const hit = async () => (await search(alice, 'zanzibar')).groups.task.find((h) => h.id === id);
    expect(await hit()).toMatchObject({ status: status.key, statusName: 'Wireframing', statusCategory: 'started' });
    await ok(alice, 'PATCH', `/api/statuses/${status.id}`, { name: 'Sketching' });
    expect(await hit()).toMatchObject({ status: status.key, statusName: 'Sketching', statusCategory: 'started' });
    // Other kinds carry none.
    const project = (await search(alice, 'kanban', '&kinds=project')).groups.project[0];
    expect(project).toMatchObject({ status: null, statusName: null, statusCategory: null });
  });

  it('finds titles and names with a typo (trigram similarity)', async () => {
    const r = await search(alice, 'kanbna');
    expect(titles(r.groups.task)).toContain('Kanban board polish');
    expect(titles(r.groups.project)).toContain('Kanban board rollout');
    expect(titles((await search(alice, 'kanbna bord')).groups.task)).toContain('Kanban board polish');
    expect(titles((await search(alice, 'Quilfeather')).groups.person)).toEqual(['Bob Quillfeather']);
  });

  it('folds accents both ways', async () => {
    const plain = titles((await search(alice, 'resume')).groups.task);
    expect(plain).toEqual(expect.arrayContaining(['Résumé template', 'Export the resume as PDF']));
    const accented = titles((await search(alice, 'résumé')).groups.task);
    expect(accented).toEqual(expect.arrayContaining(['Résumé template', 'Export the resume as PDF']));
    // A decomposed 'é' (e + combining acute) is the same word.
    expect(titles((await search(alice, 're\u0301sume\u0301 templ')).groups.task)).toEqual(['Résumé template']);
    // And in a project's description.
    expect((await search(alice, 'resume builder')).groups.project.map((h) => h.id)).toEqual([ids.apolloProject]);
  });

  it('matches tags and descriptions, and shows where', async () => {
    const byTag = (await search(alice, 'zeppel')).groups.task;
    expect(byTag.map((h) => h.id)).toEqual([ids.tagged]);
    expect(byTag[0]!.snippet).toBe(`${S}zeppelin${E}, frontend`);

    const byDescription = (await search(alice, 'quokka stat')).groups.task;
    expect(byDescription.map((h) => h.id)).toEqual([ids.described]);
    expect(byDescription[0]!.snippet).toContain(`${S}quokka${E} ${S}statistics${E}`);
    expect(byDescription[0]!.title).toBe('Weekly sync');
  });

  it('ranks a title match above a description-only match', async () => {
    const r = await search(alice, 'design review');
    expect(r.groups.task.map((h) => h.id).slice(0, 2)).toEqual([ids.design, ids.descriptionOnly]);
    expect(r.groups.task[0]!.rank).toBeGreaterThan(r.groups.task[1]!.rank);
  });

  it('marks the matched words, and strips marker characters from stored text first', async () => {
    const [hit] = (await search(alice, 'desi')).groups.task;
    expect(hit!.title).toBe(`${S}Design${E} review`);

    const [evil] = (await search(alice, 'fake marker survive')).groups.task;
    expect(evil!.id).toBe(ids.evil);
    expect(evil!.title).toBe(`Evil ${S}fake${E} highlight ${S}marker${E}`);
    // Markers only around the words matched ('marker' is a prefix of 'markers'), none from the stored text.
    expect(evil!.snippet).toBe(`Stored ${S}markers${E} must never ${S}survive${E}`);
  });

  it('finds people in the caller’s teams by name or email, with the shared teams as context', async () => {
    const r = await search(alice, 'quill');
    expect(r.groups.person).toHaveLength(1);
    expect(r.groups.person[0]).toMatchObject({ id: bob.id, context: 'Apollo Crew', taskId: null, teamId: null });
    expect(r.groups.person[0]!.title).toBe(`Bob ${S}Quillfeather${E}`);
    // Part of an email address (the random part of the test's address: a substring match).
    const part = bob.email.split('@')[0]!.split('.').pop()!;
    const byEmail = (await search(alice, part)).groups.person;
    expect(byEmail.map((h) => h.id)).toEqual([bob.id]);
    expect(byEmail[0]!.snippet).toContain(`${S}${part}${E}@example.com`);
    expect((await search(alice, '%')).groups.person).toEqual([]);
    // Carol shares Borealis with Bob (and only that team).
    const carolSeesBob = (await search(carol, 'Quillfeather')).groups.person;
    expect(carolSeesBob[0]).toMatchObject({ id: bob.id, context: 'Borealis Squad' });
    const bobSeesAlice = (await search(bob, 'zyskowski')).groups.person;
    expect(bobSeesAlice.map((h) => h.id)).toEqual([alice.id]);
  });

  it('finds teams and comments, a comment with its mentions as names', async () => {
    const teams = (await search(alice, 'apol')).groups.team;
    expect(teams).toHaveLength(1);
    expect(teams[0]).toMatchObject({ id: apollo.id, teamId: apollo.id, title: `${S}Apollo${E} Crew` });

    const comments = (await search(alice, 'flamingo')).groups.comment;
    expect(comments.map((h) => h.id)).toEqual([ids.comment]);
    expect(comments[0]).toMatchObject({
      title: 'Design review',
      taskId: ids.design,
      projectId: ids.apolloProject,
      teamId: apollo.id,
      context: 'Kanban board rollout',
    });
    expect(comments[0]!.snippet).toContain(`@Alice Zyskowski about the ${S}flamingo${E} budget`);
    expect(comments[0]!.snippet).not.toContain('<@');
    // A long comment whose mention is cut by the snippet's source limit: no half token either.
    const long = await ok<{ id: string }>(
      bob,
      'POST',
      `/api/tasks/${ids.kanban}/comments`,
      {
        body: `${'x '.repeat(993)}pelican <@${alice.id}> and more`,
      },
      201,
    );
    const [cut] = (await search(alice, 'pelican')).groups.comment;
    expect(cut!.id).toBe(long.id);
    expect(cut!.snippet).toContain(`${S}pelican${E}`);
    expect(cut!.snippet).not.toContain('<@');
    // A mention's person is not a match of the comment (the vector leaves the token out).
    expect((await search(alice, alice.id.slice(0, 8))).groups.comment).toEqual([]);
  });

  it('finds notes by title and by their text, with the project (else the team) as context', async () => {
    const byTitle = (await search(alice, 'albatross')).groups.note;
    expect(byTitle.map((h) => h.id)).toEqual([ids.note]);
    expect(byTitle[0]).toMatchObject({
      kind: 'note',
      teamId: apollo.id,
      projectId: ids.apolloProject,
      taskId: null,
      context: 'Kanban board rollout',
    });
    expect(byTitle[0]!.title).toContain(`${S}albatross${E}`);
    const byText = (await search(alice, 'warm quokka', '&kinds=note')).groups.note;
    expect(byText.map((h) => h.id)).toEqual([ids.note]);
    expect(byText[0]!.snippet).toContain(`${S}quokka${E}`);
    expect((await search(carol, 'albatross', '&kinds=note')).groups.note.map((h) => h.id)).toEqual([ids.borealisNote]);
  });

  it('answers only the kinds asked for, at most `limit` per kind', async () => {
    const r = await search(alice, 'kanban', '&kinds=project,team');
    expect(r.groups.task).toEqual([]);
    expect(r.groups.comment).toEqual([]);
    expect(r.groups.project.map((h) => h.id)).toEqual([ids.apolloProject]);
    for (let i = 1; i <= SEARCH_LIMITS.perKindDefault + 2; i++) await task(alice, ids.apolloProject!, `Echo chamber ${i}`);
    expect((await search(alice, 'echo cham')).groups.task).toHaveLength(SEARCH_LIMITS.perKindDefault);
    expect((await search(alice, 'echo cham', '&limit=1')).groups.task).toHaveLength(1);
    expect((await search(alice, 'echo cham', '&limit=20')).groups.task).toHaveLength(SEARCH_LIMITS.perKindDefault + 2);
  });

  it('answers empty groups to an empty or blank query, and 400 to bad parameters', async () => {
    for (const q of ['', '   ', '\t\n', '&|!', '🚀']) {
      const r = await search(alice, q);
      expect(r.q).toBe(q);
      expect(allHits(r)).toEqual([]);
    }
    expect((await call(alice, 'GET', searchUrl('x'.repeat(SEARCH_LIMITS.queryMax)))).statusCode).toBe(200);
    expect((await call(alice, 'GET', searchUrl('x'.repeat(SEARCH_LIMITS.queryMax + 1)))).statusCode).toBe(400);
    expect((await call(alice, 'GET', searchUrl('x', '&limit=0'))).statusCode).toBe(400);
    expect((await call(alice, 'GET', searchUrl('x', `&limit=${SEARCH_LIMITS.perKindMax + 1}`))).statusCode).toBe(400);
    expect((await call(alice, 'GET', searchUrl('x', '&kinds=task,secret'))).statusCode).toBe(400);
    expect((await call(alice, 'GET', '/api/search')).statusCode).toBe(400);
    expect((await call(null, 'GET', searchUrl('design'))).statusCode).toBe(401);
  });
});

describe('search: scoped to the caller’s teams (leak test)', () => {
  /** Every id any search of these words shows `user`. */
  async function seen(user: TestUser): Promise<Set<string>> {
    const found = new Set<string>();
    for (const q of [
      'design review',
      'kanban board',
      'kanbna',
      'zeppelin',
      'quokka',
      'flamingo',
      'borealis',
      'résumé',
      'secret',
      'albatross',
    ]) {
      const r = await search(user, q, `&limit=${SEARCH_LIMITS.perKindMax}`);
      for (const hit of allHits(r)) {
        found.add(hit.id);
        if (hit.teamId) found.add(hit.teamId);
      }
    }
    return found;
  }
  const borealisThings = () => [ids.borealisProject!, ids.borealisDesign!, ids.borealisComment!, ids.borealisNote!, borealis.id];
  const apolloThings = () => [ids.apolloProject!, ids.design!, ids.comment!, ids.tagged!, ids.described!, ids.note!, apollo.id];

  it('shows each team only its own tasks, projects, comments, team and people', async () => {
    const aliceSees = await seen(alice);
    const carolSees = await seen(carol);
    for (const id of apolloThings()) expect(aliceSees.has(id), `alice sees ${id}`).toBe(true);
    for (const id of borealisThings()) expect(aliceSees.has(id), `alice must not see ${id}`).toBe(false);
    for (const id of borealisThings()) expect(carolSees.has(id), `carol sees ${id}`).toBe(true);
    for (const id of apolloThings()) expect(carolSees.has(id), `carol must not see ${id}`).toBe(false);
    // People: Alice and Carol share no team.
    expect((await search(alice, 'zylberstein')).groups.person).toEqual([]);
    expect((await search(carol, 'zyskowski')).groups.person).toEqual([]);
  });

  it('shows nothing of a team once the caller is removed from it', async () => {
    const before = await seen(bob);
    for (const id of borealisThings()) expect(before.has(id), `bob sees ${id} while a member`).toBe(true);
    await ok(carol, 'DELETE', `/api/teams/${borealis.id}/members/${bobMembershipInBorealis.id}`, undefined, 204);
    const after = await seen(bob);
    for (const id of borealisThings()) expect(after.has(id), `bob must not see ${id} after removal`).toBe(false);
    for (const id of apolloThings()) expect(after.has(id), `bob still sees ${id}`).toBe(true);
    expect((await search(bob, 'zylberstein')).groups.person).toEqual([]);
  });
});

describe('search: hostile input never fails', () => {
  /** mulberry32: the same strings on every run. */
  function prng(seed: number) {
    let a = seed >>> 0;
    return () => {
      a = (a + 0x6d2b79f5) >>> 0;
      let t = a;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }

  const fixed = [
    `& | ! ( ) : * < > ' " \\`,
    `'`,
    `''`,
    `\\`,
    `design:*`,
    `design & !review`,
    `(design | review) <-> board`,
    `design <2> review`,
    `!!!design`,
    `a:*A & b:B`,
    `'design':* | 'x`,
    `"design review"`,
    `'; drop table tasks; --`,
    `1' or '1'='1`,
    `%`,
    `_`,
    `%_%\\%`,
    `\\x00`,
    `$1 $$ $tag$`,
    `e\u0301\u0301\u0301\u0301`,
    `\u0301`,
    `🚀🔥 design 👩‍👩‍👧‍👦`,
    `مرحبا بالعالم design`,
    `שָׁלוֹם עוֹלָם`,
    `\u200f\u202eevil\u202c`,
    `\u0001\u0002\u0003\u0007\u001b\u007f`,
    `${S}design${E}`,
    `\uFEFFdesign\uFFFF`,
    `nul\u0000inside`,
    'ǅ ß ẞ ﬁ İ ı',
    '𝔡𝔢𝔰𝔦𝔤𝔫',
    'x'.repeat(200),
    'design '.repeat(28).slice(0, 200),
    '-'.repeat(200),
    '&'.repeat(200),
    `${'a:* & '.repeat(33)}`.slice(0, 200),
    Array.from({ length: 100 }, (_, i) => String.fromCharCode(97 + (i % 26))).join(' '),
  ];

  it('answers 200 to tsquery syntax, SQL, unicode, control characters and long strings', async () => {
    for (const q of fixed) {
      const res = await call(alice, 'GET', searchUrl(q));
      expect(res.statusCode, `${JSON.stringify(q)}: ${res.body}`).toBe(200);
      const body = res.json() as SearchResultDto;
      expect(body.q).toBe(q);
      for (const hit of allHits(body)) {
        expect(borealisThings()).not.toContain(hit.id);
      }
    }
  });

  const borealisThings = () => [ids.borealisProject!, ids.borealisDesign!, ids.borealisComment!, borealis.id];

  it('answers 200 or 400, never 500, to broken encodings in the URL', async () => {
    for (const raw of ['%ED%A0%BD', '%', '%zz', '%C3', '%00', 'a%26b%7Cc', 'x&q=y', 'design&kinds=', 'x&limit=abc']) {
      const res = await call(alice, 'GET', `/api/search?q=${raw}`);
      expect([200, 400], `${raw}: ${res.statusCode} ${res.body}`).toContain(res.statusCode);
    }
  });

  it('answers 200 (or 400 when too long) to random strings from a seeded generator', async () => {
    const rand = prng(23);
    const pieces = [
      ...`abcdeéèxyzDESIGN0129 &|!():*<>'"\\%_-.@/+#,;$\t\n`,
      '\u0301',
      '\u200f',
      '\u0002',
      '\u0003',
      '\u0007',
      '🚀',
      'ש',
      'ب',
      '日本',
      '<->',
      ':*',
      'design',
      'kanban',
    ];
    const kinds: SearchKind[] = ['task', 'project', 'team', 'person', 'comment', 'note'];
    for (let n = 0; n < 120; n++) {
      const length = Math.floor(rand() * (n % 10 === 0 ? 260 : 40));
      let q = '';
      while ([...q].length < length) q += pieces[Math.floor(rand() * pieces.length)];
      const kindList = kinds.filter(() => rand() < 0.5).join(',');
      const res = await call(alice, 'GET', searchUrl(q, kindList ? `&kinds=${kindList}` : ''));
      const expected = q.length > SEARCH_LIMITS.queryMax ? 400 : 200;
      expect(res.statusCode, `${JSON.stringify(q)}: ${res.body}`).toBe(expected);
    }
  });
});
