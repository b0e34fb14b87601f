import { describe, expect, it } from 'vitest';
import { configFromParams, paramsFromConfig, SAVED_VIEW_PARAM, sameConfig, viewSearch } from './view-url';

const P = '0b5e4f5e-1c1f-4a53-9a44-6f1f0f5d2c11';
const U = '7d1b2f80-3c43-4a9e-8f65-2b7f6a0e9c22';

describe('configFromParams', () => {
  it("reads the Tasks page's parameters into a view's config", () => {
    const params = new URLSearchParams({
      project: P,
      status: 'in_progress',
      priority: 'high',
      assignee: U,
      due: 'overdue',
      q: '  bug  ',
      sort: 'due',
      dir: 'asc',
      view: 'list',
      other: 'x',
    });
    expect(configFromParams(params)).toEqual({
      projectId: P,
      status: 'in_progress',
      priority: 'high',
      assigneeId: U,
      due: 'overdue',
      q: 'bug',
      sort: 'due',
      dir: 'asc',
      view: 'list',
    });
  });

  it('leaves out what is malformed, and stores the board when no layout is set', () => {
    const params = new URLSearchParams({ project: 'nope', status: 'done-ish', assignee: 'unassigned', q: '   ', dir: 'up' });
    expect(configFromParams(params)).toEqual({ assigneeId: 'unassigned', view: 'board' });
  });
});

describe('a custom workflow and swimlanes', () => {
  it("keeps any project's status key and the board's groupBy, and restores them", () => {
    const params = new URLSearchParams({ status: 'qa_2', groupBy: 'assignee' });
    const config = configFromParams(params);
    expect(config).toEqual({ status: 'qa_2', groupBy: 'assignee', view: 'board' });
    expect(paramsFromConfig(config, 'v1')).toMatchObject({ status: 'qa_2', groupBy: 'assignee' });
    expect(configFromParams(new URLSearchParams({ groupBy: 'team', status: 'QA' }))).toEqual({ view: 'board' });
    expect(sameConfig({ groupBy: 'priority' }, {})).toBe(false);
  });
});

describe("'Show sub-tasks' off and the start-date filter", () => {
  it('keeps subtasks=hide and start in a view, and restores them', () => {
    const config = configFromParams(new URLSearchParams({ subtasks: 'hide', start: 'none' }));
    expect(config).toEqual({ subtasks: 'hide', start: 'none', view: 'board' });
    expect(paramsFromConfig(config, 'v1')).toMatchObject({ subtasks: 'hide', start: 'none' });
    expect(configFromParams(new URLSearchParams({ subtasks: 'show', start: 'later' }))).toEqual({ view: 'board' });
    expect(sameConfig({ subtasks: 'hide' }, {})).toBe(false);
  });
});

describe('paramsFromConfig / viewSearch', () => {
  it('sets what the view holds, clears the rest, and names the view', () => {
    expect(paramsFromConfig({ status: 'completed', view: 'board' }, 'v1')).toEqual({
      [SAVED_VIEW_PARAM]: 'v1',
      project: null,
      status: 'completed',
      category: null,
      priority: null,
      assignee: null,
      due: null,
      start: null,
      subtasks: null,
      q: null,
      sort: null,
      dir: null,
      view: null,
      groupBy: null,
      cf: null,
      columns: null,
    });
    expect(viewSearch({ projectId: P, q: 'a&b', view: 'list' }, 'v2')).toBe(`savedView=v2&project=${P}&q=a%26b&view=list`);
  });

  it('round-trips through the URL', () => {
    const config = { projectId: P, category: 'canceled', priority: 'low', sort: 'title', dir: 'desc', view: 'list' } as const;
    expect(configFromParams(new URLSearchParams(viewSearch(config, 'v')))).toEqual(config);
  });
});

describe('sameConfig', () => {
  it('treats a missing layout as the board', () => {
    expect(sameConfig({ status: 'todo' }, { status: 'todo', view: 'board' })).toBe(true);
    expect(sameConfig({ status: 'todo' }, { status: 'todo', view: 'list' })).toBe(false);
  });
});

describe('custom fields: filters (cf), a field sort and hidden columns (issue 38)', () => {
  const F = '3c9d2a10-5b6e-4f7a-8c9d-0e1f2a3b4c5d';
  const O1 = '9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d';
  const O2 = '1f2e3d4c-5b6a-4978-8695-a4b3c2d1e0f9';
  const N = '5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a8b';
  const cf = [`${F}:any:${O1},${O2}`, `${N}:between:1,5`];

  it('reads repeated cf, sort=field:<id> and columns into the config', () => {
    const params = new URLSearchParams([
      ['cf', cf[0]!],
      ['cf', cf[1]!],
      ['sort', `field:${N}`],
      ['dir', 'desc'],
      ['columns', `tags,field:${F}`],
      ['view', 'list'],
    ]);
    expect(configFromParams(params)).toEqual({
      cf,
      sort: `field:${N}`,
      dir: 'desc',
      hiddenColumns: ['tags', `field:${F}`],
      view: 'list',
    });
  });

  it('restores them as the URL holds them: cf as a list (repeated), columns comma-joined', () => {
    const config = { cf, sort: `field:${N}`, dir: 'asc', hiddenColumns: ['status', `field:${F}`], view: 'list' } as const;
    const out = paramsFromConfig({ ...config, cf: [...config.cf], hiddenColumns: [...config.hiddenColumns] }, 'v');
    expect(out).toMatchObject({ cf, sort: `field:${N}`, columns: `status,field:${F}` });
    const search = viewSearch({ ...config, cf: [...config.cf], hiddenColumns: [...config.hiddenColumns] }, 'v');
    expect(new URLSearchParams(search).getAll('cf')).toEqual(cf);
    expect(configFromParams(new URLSearchParams(search))).toEqual(config);
  });

  it('a view without them clears them from the URL', () => {
    expect(paramsFromConfig({ view: 'list' }, 'v')).toMatchObject({ cf: null, columns: null, sort: null });
    expect(paramsFromConfig({ hiddenColumns: [], cf: [] }, 'v')).toMatchObject({ columns: null });
  });

  it('leaves out malformed filters, an empty columns list and a malformed field sort', () => {
    const params = new URLSearchParams([
      ['cf', 'nonsense'],
      ['cf', `${F}:between:1`],
      ['cf', `${N}:gt:3`],
      ['columns', ',,'],
      ['sort', 'field:not-a-uuid'],
    ]);
    expect(configFromParams(params)).toEqual({ cf: [`${N}:gt:3`], view: 'board' });
    expect(configFromParams(new URLSearchParams({ cf: `${F}:zap:1` }))).toEqual({ view: 'board' });
  });

  it('keeps at most ten filters', () => {
    const many = Array.from({ length: 12 }, (_, i) => ['cf', `${N}:eq:${i}`] as [string, string]);
    expect(configFromParams(new URLSearchParams(many)).cf).toHaveLength(10);
  });

  it('tells views apart by their filters and hidden columns', () => {
    expect(sameConfig({ cf: [cf[0]!] }, {})).toBe(false);
    expect(sameConfig({ cf: [cf[0]!] }, { cf: [cf[0]!] })).toBe(true);
    expect(sameConfig({ hiddenColumns: ['tags'] }, { hiddenColumns: [] })).toBe(false);
    expect(sameConfig({ hiddenColumns: [] }, {})).toBe(true);
  });
});
