import { describe, expect, it } from 'vitest';
import { planCounts, planProblems, workflowProblems } from './import-plan';
import {
  labelTag,
  listCategories,
  listCategory,
  parseTrelloBoard,
  planTrelloImport,
  suggestListStatus,
  trelloDueDate,
  trelloImportPlan,
  trelloWorkflow,
} from './trello';

const board = (extra: Record<string, unknown> = {}) => ({
  name: 'Board',
  lists: [
    { id: 'l2', name: 'Done', pos: 2 },
    { id: 'l1', name: 'To do', pos: 1 },
    { id: 'l3', name: 'Attic', pos: 3, closed: true },
  ],
  cards: [
    { id: 'b', idList: 'l1', name: 'Second', pos: 2 },
    {
      id: 'a',
      idList: 'l1',
      name: '  First  ',
      pos: 1,
      desc: 'Text',
      due: '2024-02-29T23:30:00.000Z',
      start: '2024-02-27T09:00:00.000Z',
      idLabels: ['x', 'y', 'z'],
    },
    { id: 'c', idList: 'l2', name: 'Shipped', pos: 1 },
    { id: 'd', idList: 'l3', name: 'In the attic', pos: 1 },
    { id: 'e', idList: 'l1', name: 'Archived', pos: 3, closed: true },
  ],
  labels: [
    { id: 'x', name: 'Bug', color: 'red' },
    { id: 'y', name: '', color: 'green' },
    { id: 'z', name: 'bug', color: 'orange' },
  ],
  checklists: [
    { id: 'k2', idCard: 'a', name: 'Two', pos: 2, checkItems: [{ name: 'z', state: 'complete', pos: 1 }] },
    {
      id: 'k1',
      idCard: 'a',
      name: 'One',
      pos: 1,
      checkItems: [
        { name: 'second', state: 'incomplete', pos: 2 },
        { name: 'first', state: 'complete', pos: 1 },
      ],
    },
  ],
  actions: [
    {
      type: 'commentCard',
      date: '2024-01-03T00:00:00Z',
      data: { text: 'later', card: { id: 'a' } },
      memberCreator: { fullName: 'Grace Hopper' },
    },
    { type: 'createCard', data: { card: { id: 'a' } } },
    {
      type: 'commentCard',
      date: '2024-01-02T10:00:00Z',
      data: { text: 'earlier', card: { id: 'a' } },
      memberCreator: { username: 'ada' },
    },
    { type: 'commentCard', date: '2024-01-02T10:00:00Z', data: { text: '   ', card: { id: 'a' } } },
  ],
  ...extra,
});

describe('suggestListStatus', () => {
  it('reads the usual list names', () => {
    expect(suggestListStatus('To Do')).toBe('todo');
    expect(suggestListStatus('Backlog')).toBe('todo');
    expect(suggestListStatus('Doing')).toBe('in_progress');
    expect(suggestListStatus('In progress')).toBe('in_progress');
    expect(suggestListStatus('Code review')).toBe('review');
    expect(suggestListStatus('QA')).toBe('review');
    expect(suggestListStatus('Done ✅')).toBe('completed');
    expect(suggestListStatus('Completed')).toBe('completed');
    expect(suggestListStatus('Doing', true)).toBe('skip');
  });
});

describe('trello helpers', () => {
  it('turns labels into tags, and due times into UTC days', () => {
    expect(labelTag({ name: ' Bug ', color: 'red' })).toBe('Bug');
    expect(labelTag({ name: '', color: 'green' })).toBe('green');
    expect(labelTag({ name: null, color: null })).toBeNull();
    expect(labelTag({ name: 'x'.repeat(50) })).toHaveLength(40);
    expect(trelloDueDate('2024-02-29T23:30:00.000Z')).toBe('2024-02-29');
    expect(trelloDueDate(null)).toBeNull();
    expect(trelloDueDate('not a date')).toBeNull();
  });

  it('refuses what is not a board, with the reasons', () => {
    for (const value of [null, 'x', [], {}, { name: 'b', lists: [], cards: [{ id: 'c' }] }]) {
      const parsed = parseTrelloBoard(value);
      expect(parsed.ok).toBe(false);
      if (!parsed.ok) expect(parsed.issues.length).toBeGreaterThan(0);
    }
    expect(parseTrelloBoard(board()).ok).toBe(true);
  });
});

describe('planTrelloImport', () => {
  const plan = (mapping?: Record<string, 'todo' | 'in_progress' | 'review' | 'completed' | 'skip'>) => {
    const parsed = parseTrelloBoard(board());
    if (!parsed.ok) throw new Error('not a board');
    return planTrelloImport(parsed.board, mapping);
  };

  it('suggests a status per list, skips archived lists and cards, and keeps the board order', () => {
    const p = plan();
    expect(p.lists.map((l) => [l.id, l.status, l.cards])).toEqual([
      ['l1', 'todo', 2],
      ['l2', 'completed', 1],
      ['l3', 'skip', 1],
    ]);
    expect(p.tasks.map((t) => [t.title, t.status])).toEqual([
      ['First', 'todo'],
      ['Second', 'todo'],
      ['Shipped', 'completed'],
    ]);
    expect(p.warnings).toEqual(['1 archived card is left out', '1 card is in lists left out']);
  });

  it('maps a card: labels to tags once each, checklists in order with their names, comments oldest first', () => {
    const [first] = plan().tasks;
    expect(first).toEqual({
      title: 'First',
      description: 'Text',
      status: 'todo',
      assigneeId: null,
      startDate: '2024-02-27',
      dueDate: '2024-02-29',
      tags: ['Bug', 'green'],
      checklist: [
        { title: 'One: first', done: true },
        { title: 'One: second', done: false },
        { title: 'Two: z', done: true },
      ],
      comments: ['Originally by ada on 2024-01-02:\n\nearlier', 'Originally by Grace Hopper on 2024-01-03:\n\nlater'],
      fields: {},
    });
  });

  it('follows the mapping: an archived list given a status comes in, a list mapped to skip stays out', () => {
    const p = plan({ l1: 'skip', l3: 'review' });
    expect(p.tasks.map((t) => [t.title, t.status])).toEqual([
      ['Shipped', 'completed'],
      ['In the attic', 'review'],
    ]);
    expect(p.counts).toEqual({ tasks: 2, comments: 0, checklistItems: 0 });
  });

  it("reads a card's start date; one after its due date, or unreadable, is left out with a warning", () => {
    const cards = [
      { id: 'a', idList: 'l1', name: 'Backwards', start: '2024-03-02T10:00:00Z', due: '2024-03-01T10:00:00Z' },
      { id: 'b', idList: 'l1', name: 'Start only', start: '2024-03-02T10:00:00Z' },
      { id: 'c', idList: 'l1', name: 'Garbled', start: 'someday', due: '2024-03-01T10:00:00Z' },
    ];
    const parsed = parseTrelloBoard(board({ cards, checklists: [], actions: [] }));
    if (!parsed.ok) throw new Error('not a board');
    const p = planTrelloImport(parsed.board);
    expect(p.tasks.map((t) => [t.title, t.startDate, t.dueDate])).toEqual([
      ['Backwards', null, '2024-03-01'],
      ['Start only', '2024-03-02', null],
      ['Garbled', null, '2024-03-01'],
    ]);
    expect(p.warnings).toEqual([
      'Card "Backwards": its start date 2024-03-02 is after its due date 2024-03-01: left out',
      'Card "Garbled": its start date "someday" could not be read',
    ]);
  });

  it('shortens what is too long, with a warning', () => {
    const parsed = parseTrelloBoard(
      board({ cards: [{ id: 'a', idList: 'l1', name: 'T'.repeat(300), desc: 'D'.repeat(6000) }], checklists: [], actions: [] }),
    );
    if (!parsed.ok) throw new Error('not a board');
    const p = planTrelloImport(parsed.board);
    expect(p.tasks[0]!.title).toHaveLength(200);
    expect(p.tasks[0]!.description).toHaveLength(5000);
    expect(p.warnings.some((w) => w.includes('title shortened'))).toBe(true);
    expect(p.warnings.some((w) => w.includes('description shortened'))).toBe(true);
  });
});

describe('Trello people, files and times (issue 35, item 9)', () => {
  const team = [
    { id: 'u-ada', email: 'ada@example.com', fullName: 'Ada Lovelace' },
    { id: 'u-grace', email: 'grace@navy.example', fullName: 'Grace Hopper' },
  ];
  const peopleBoard = () => {
    const parsed = parseTrelloBoard(
      board({
        members: [
          { id: 'm-ada', fullName: 'ada lovelace', username: 'ada' },
          { id: 'm-grace', fullName: 'Rear Admiral', username: 'amazing', email: 'GRACE@navy.example' },
          { id: 'm-linus', fullName: 'Linus T', username: 'linus' },
          { id: 'm-ken', fullName: 'Ken T', username: 'ken' },
          'not a member',
        ],
        cards: [
          {
            id: 'a',
            idList: 'l1',
            name: 'Both',
            pos: 1,
            desc: 'Own text',
            idMembers: ['m-linus', 'm-ada', 'm-grace'],
            attachments: [
              { name: 'Spec [v2]', url: 'https://docs.example.com/spec(1)', isUpload: false },
              { name: 'photo.png', url: 'https://trello.com/1/cards/a/attachments/x/download/photo.png', isUpload: true },
              { name: 'evil', url: 'javascript:alert(1)', isUpload: false },
              42,
            ],
          },
          { id: 'b', idList: 'l1', name: 'Nobody known', pos: 2, idMembers: ['m-linus', 'm-ken'] },
          { id: 'c', idList: 'l1', name: 'Late in New York', pos: 3, due: '2024-03-01T03:30:00.000Z' },
          { id: 'e', idList: 'l1', name: 'Archived', pos: 4, closed: true },
        ],
      }),
    );
    if (!parsed.ok) throw new Error(parsed.issues.join('; '));
    return parsed.board;
  };

  it('makes the first member matching the team (by address or name) the assignee and names the others', () => {
    const p = planTrelloImport(peopleBoard(), {}, { members: team });
    const [both, nobody] = p.tasks;
    expect(both!.assigneeId).toBe('u-ada');
    expect(nobody!.assigneeId).toBeNull();
    expect(both!.description).toBe(
      'Own text\n\nMembers on Trello: Linus T, Rear Admiral\n\nLinks:\n- [Spec \\[v2\\]](https://docs.example.com/spec%281%29)',
    );
    expect(nobody!.description).toBe('Members on Trello: Linus T, Ken T');
  });

  it('warns with counts about members without a match, files it cannot fetch and archived cards', () => {
    const p = planTrelloImport(peopleBoard(), {}, { members: team });
    expect(p.warnings).toEqual([
      '1 archived card is left out',
      '2 Trello members match no member of the team: named in the card descriptions, not assigned',
      '2 attached files stored on Trello could not be fetched and are left out',
    ]);
  });

  it("turns a due time into a day in the importing user's time zone", () => {
    const p = planTrelloImport(peopleBoard(), {}, { timeZone: 'America/New_York' });
    expect(p.tasks.find((t) => t.title === 'Late in New York')!.dueDate).toBe('2024-02-29');
    expect(planTrelloImport(peopleBoard()).tasks.find((t) => t.title === 'Late in New York')!.dueDate).toBe('2024-03-01');
    expect(trelloDueDate('2024-03-01T03:30:00.000Z', 'Asia/Tokyo')).toBe('2024-03-01');
    expect(trelloDueDate('2024-02-29T20:00:00.000Z', 'Asia/Tokyo')).toBe('2024-03-01');
  });

  it('becomes an import plan of one project, the comments posted by the importer', () => {
    const trello = planTrelloImport(peopleBoard(), {}, { members: team });
    const plan = trelloImportPlan(trello, 'team-1', 'Relaunch', 'u-me');
    expect(planProblems(plan)).toEqual([]);
    expect(plan.target).toEqual({ kind: 'team', teamId: 'team-1' });
    expect(plan.projects.map((p) => p.name)).toEqual(['Relaunch']);
    expect(plan.tasks.map((t) => [t.title, t.assigneeId, t.priority])).toEqual([
      ['Both', 'u-ada', 'medium'],
      ['Nobody known', null, 'medium'],
      ['Late in New York', null, 'medium'],
    ]);
    expect(planCounts(plan)).toEqual({ projects: 1, tasks: 3, comments: 2, checklistItems: 3, history: 0, notes: 0 });
    expect(plan.tasks.flatMap((t) => t.comments.map((c) => c.authorId))).toEqual(['u-me', 'u-me']);
  });
});

describe('a list as a status of its own (issue 36)', () => {
  it('takes its category from words in its name', () => {
    expect(
      ['Done', 'Completed', 'Shipped', "Won't do", 'Won’t do', 'Cancelled', 'Canceled', 'Backlog', 'Icebox', 'Doing'].map(
        listCategory,
      ),
    ).toEqual([
      'completed',
      'completed',
      'completed',
      'canceled',
      'canceled',
      'canceled',
      'canceled',
      'backlog',
      'backlog',
      'started',
    ]);
    expect(['In progress', 'Review', 'QA', 'To do', 'Not started', 'Ideas', 'This week'].map(listCategory)).toEqual([
      'started',
      'started',
      'started',
      'unstarted',
      'unstarted',
      null,
      null,
    ]);
  });

  it('else from its place: the first lists (before the first started one) unstarted, the last completed, between started', () => {
    const names = (...n: string[]) => listCategories(n.map((name) => ({ name })));
    expect(names('Ideas', 'This week', 'Today', 'Finito')).toEqual(['unstarted', 'started', 'started', 'completed']);
    expect(names('Ideas', 'Next', 'Doing', 'Later', 'Archive')).toEqual([
      'unstarted',
      'unstarted',
      'started',
      'started',
      'completed',
    ]);
    expect(names('Only')).toEqual(['unstarted']);
    // A list mapped onto a default status counts with that status's category.
    expect(listCategories([{ name: 'A' }, { name: 'B', known: 'started' }, { name: 'C' }])).toEqual([
      'unstarted',
      'started',
      'completed',
    ]);
  });

  it("makes the workflow of the lists mapped to 'own', with keys from their names, and the defaults' where mapped", () => {
    const lists = [
      { id: 'l1', name: 'Backlog', target: 'own' },
      { id: 'l2', name: 'Doing', target: 'own' },
      { id: 'l3', name: 'QA', target: 'own' },
      { id: 'l4', name: 'Done', target: 'own' },
      { id: 'l5', name: "Won't do", target: 'own' },
      { id: 'l6', name: 'Attic', target: 'skip' },
    ] as const;
    const { statuses, keyOf } = trelloWorkflow(lists);
    expect(statuses!.map((s) => [s.key, s.name, s.category])).toEqual([
      ['backlog', 'Backlog', 'backlog'],
      ['doing', 'Doing', 'started'],
      ['qa', 'QA', 'started'],
      ['done', 'Done', 'completed'],
      ['won_t_do', "Won't do", 'canceled'],
    ]);
    expect(workflowProblems(statuses!)).toEqual([]);
    expect([...keyOf]).toEqual([
      ['l1', 'backlog'],
      ['l2', 'doing'],
      ['l3', 'qa'],
      ['l4', 'done'],
      ['l5', 'won_t_do'],
    ]);

    // Mixed: a default status comes in once, where its first list is; a clashing name is made unique; a workflow
    // with no status where work waits gets the default 'To Do' first, one without a completed status 'Completed' last.
    const mixed = trelloWorkflow([
      { id: 'a', name: 'Review', target: 'own' },
      { id: 'b', name: 'Doing', target: 'in_progress' },
      { id: 'c', name: 'In Progress', target: 'own' },
      { id: 'd', name: 'Also doing', target: 'in_progress' },
    ]);
    expect(mixed.statuses!.map((s) => [s.key, s.name, s.category])).toEqual([
      ['todo', 'To Do', 'unstarted'],
      ['review', 'Review', 'started'],
      ['in_progress', 'In Progress', 'started'],
      ['in_progress_2', 'In Progress (2)', 'started'],
      ['completed', 'Completed', 'completed'],
    ]);
    expect(workflowProblems(mixed.statuses!)).toEqual([]);
    expect(Object.fromEntries(mixed.keyOf)).toEqual({ a: 'review', b: 'in_progress', c: 'in_progress_2', d: 'in_progress' });
    // A list named as a default status's key takes the next key when that default is in the workflow.
    expect(
      trelloWorkflow([
        { id: 'a', name: 'Todo', target: 'own' },
        { id: 'b', name: 'Doing', target: 'own' },
      ]).statuses!.map((s) => [s.key, s.name, s.category]),
    ).toEqual([
      ['todo', 'Todo', 'unstarted'],
      ['doing', 'Doing', 'started'],
      ['completed', 'Completed', 'completed'],
    ]);

    // No list mapped to 'own': the default four, as before.
    expect(trelloWorkflow([{ id: 'a', name: 'Doing', target: 'review' }])).toEqual({
      statuses: null,
      keyOf: new Map([['a', 'review']]),
    });
  });

  it('becomes a plan whose project carries the workflow and whose tasks are in its keys', () => {
    const trello = planTrelloImport(board(), { l1: 'own', l2: 'own', l3: 'skip' });
    expect(trello.statuses!.map((s) => [s.key, s.category])).toEqual([
      ['to_do', 'unstarted'],
      ['done', 'completed'],
    ]);
    const plan = trelloImportPlan(trello, 'team-1', 'P', 'u-me');
    expect(planProblems(plan)).toEqual([]);
    expect(plan.projects[0]!.statuses).toBe(trello.statuses);
    expect(plan.tasks.map((t) => t.status)).toEqual(['to_do', 'to_do', 'done']);
    // A task in a key its project does not have is a problem of the plan.
    expect(planProblems({ ...plan, tasks: [{ ...plan.tasks[0]!, status: 'todo' }] })).toEqual([
      'Task "First": project p1 has no status todo',
    ]);
  });
});

describe("the board's custom fields (issue 38)", () => {
  const SEVERITY_ID = '99999999-9999-4999-8999-999999999999';
  const withFields = board({
    customFields: [
      {
        id: 'cf-sev',
        name: 'Severity',
        type: 'list',
        pos: 2,
        options: [
          { id: 'o-low', value: { text: 'Low' }, color: 'green', pos: 1 },
          { id: 'o-crit', value: { text: 'Critical' }, color: 'red', pos: 2 },
        ],
        display: { cardFront: true },
      },
      { id: 'cf-pts', name: 'Points', type: 'number', pos: 1 },
      { id: 'cf-ok', name: 'Approved', type: 'checkbox', pos: 3 },
      { id: 'cf-day', name: 'Release', type: 'date', pos: 4 },
      { id: 'cf-note', name: 'Customer', type: 'text', pos: 5 },
      { id: 'cf-odd', name: 'Rating', type: 'stars', pos: 6 },
    ],
    cards: [
      {
        id: 'a',
        idList: 'l1',
        name: 'First',
        pos: 1,
        customFieldItems: [
          { idCustomField: 'cf-sev', idValue: 'o-crit' },
          { idCustomField: 'cf-pts', value: { number: '3.5' } },
          { idCustomField: 'cf-ok', value: { checked: 'true' } },
          { idCustomField: 'cf-day', value: { date: '2024-03-01T23:30:00.000Z' } },
          { idCustomField: 'cf-note', value: { text: ' ACME ' } },
        ],
      },
      {
        id: 'b',
        idList: 'l1',
        name: 'Second',
        pos: 2,
        customFieldItems: [
          { idCustomField: 'cf-pts', value: { number: 'lots' } },
          { idCustomField: 'cf-ok', value: { checked: 'false' } },
        ],
      },
    ],
  });

  const parsedBoard = () => {
    const parsed = parseTrelloBoard(withFields);
    if (!parsed.ok) throw new Error(parsed.issues.join('; '));
    return parsed.board;
  };

  it('become new team fields (list → select with its options and colours) and the cards their values', () => {
    const p = planTrelloImport(parsedBoard(), {}, { timeZone: 'UTC' });
    expect(p.fields.map((f) => [f.ref, f.name, f.type, f.existingId])).toEqual([
      ['cf-pts', 'Points', 'number', undefined],
      ['cf-sev', 'Severity', 'select', undefined],
      ['cf-ok', 'Approved', 'checkbox', undefined],
      ['cf-day', 'Release', 'date', undefined],
      ['cf-note', 'Customer', 'text', undefined],
    ]);
    const severity = p.fields.find((f) => f.ref === 'cf-sev')!;
    expect(severity.options).toEqual([
      { ref: 'o-low', name: 'Low', color: '#16a34a' },
      { ref: 'o-crit', name: 'Critical', color: '#dc2626' },
    ]);
    expect(severity.showOnCard).toBe(true);
    expect(p.tasks[0]!.fields).toEqual({
      'cf-sev': 'o-crit',
      'cf-pts': 3.5,
      'cf-ok': true,
      'cf-day': '2024-03-01',
      'cf-note': 'ACME',
    });
    // A number that is not one is left out with a warning; an unticked box is no value.
    expect(p.tasks[1]!.fields).toEqual({});
    expect(p.warnings).toEqual(
      expect.arrayContaining([
        'Custom field "Rating": its kind (stars) is not imported',
        'Card "Second": Points must be a number: left out',
      ]),
    );
    const written = trelloImportPlan(p, 'team', 'Board', 'me');
    expect(written.fields).toHaveLength(5);
    expect(written.tasks[0]!.fields).toEqual(p.tasks[0]!.fields);
    expect(planProblems(written)).toEqual([]);
  });

  it("reuse the team's field of the same name and type, adding the options it lacks; another type is left out", () => {
    const teamFields = [
      {
        id: SEVERITY_ID,
        name: 'severity',
        type: 'select' as const,
        options: [{ id: 'existing-crit', name: 'CRITICAL', color: '#000000' }],
        projectIds: null,
        archived: false,
      },
      { id: 'pts', name: 'Points', type: 'text' as const, options: [], projectIds: null, archived: false },
    ];
    const p = planTrelloImport(parsedBoard(), {}, { teamFields });
    const severity = p.fields.find((f) => f.ref === 'cf-sev')!;
    expect(severity.existingId).toBe(SEVERITY_ID);
    expect(severity.name).toBe('severity');
    // The existing option first (the board's 'Critical' is it), then the new 'Low'.
    expect(severity.options).toEqual([
      { ref: 'o-crit', id: 'existing-crit', name: 'Critical', color: '#dc2626' },
      { ref: 'o-low', name: 'Low', color: '#16a34a' },
    ]);
    expect(p.tasks[0]!.fields['cf-sev']).toBe('o-crit');
    expect(p.fields.some((f) => f.ref === 'cf-pts')).toBe(false);
    expect(p.tasks[0]!.fields).not.toHaveProperty('cf-pts');
    expect(p.warnings).toContain(
      'Custom field "Points": the team has a field of that name that cannot take its values: left out',
    );
  });
});
