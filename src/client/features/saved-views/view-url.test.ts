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
