import { describe, expect, it } from 'vitest';
import { TASK_STATUS_LABELS, TASK_STATUSES } from './constants';
import { projectProgress } from './progress';
import {
  createStatusInput,
  deleteStatusInput,
  statusDto,
  statusKey,
  statusKeyUnknownMessage,
  statusOrderInput,
  updateStatusInput,
  WORKFLOW_ERRORS,
} from './schemas/workflow';
import {
  boardColumns,
  checkWorkflowChange,
  countsByCategory,
  cycleTime,
  DEFAULT_STATUSES,
  fallbackCategories,
  inProgressKeys,
  isClosed,
  isDefaultWorkflow,
  mapStatusToProject,
  overWip,
  planStatusDelete,
  progressOf,
  reorder,
  STATUS_CATEGORIES,
  type StatusCategory,
  type StatusEntry,
  statusKeyFor,
  validateStatusColor,
  validateStatusName,
  validateWipLimit,
  WORKFLOW_RULE_REASONS,
  type WorkflowStatus,
  wipHeader,
} from './workflow';

const ids = ['11111111-1111-4111-8111-111111111111', '22222222-2222-4222-8222-222222222222'];

/** A workflow with ids s0, s1… in the given order. */
const workflow = (...statuses: [key: string, name: string, category: StatusCategory][]): WorkflowStatus[] =>
  statuses.map(([key, name, category], position) => ({
    id: `s${position}`,
    key,
    name,
    category,
    color: '#000000',
    position,
    wipLimit: null,
  }));

const defaults = (): WorkflowStatus[] => DEFAULT_STATUSES.map((s, i) => ({ ...s, id: `d${i}` }));

const HOUR = 3_600_000;

describe('the default workflow', () => {
  it("is the spec's four, in order, with today's labels and categories", () => {
    expect(DEFAULT_STATUSES.map((s) => [s.key, s.name, s.category, s.position])).toEqual([
      ['todo', 'To Do', 'unstarted', 0],
      ['in_progress', 'In Progress', 'started', 1],
      ['review', 'Review', 'started', 2],
      ['completed', 'Completed', 'completed', 3],
    ]);
    expect(DEFAULT_STATUSES.map((s) => s.key)).toEqual([...TASK_STATUSES]);
    for (const s of DEFAULT_STATUSES) expect(s.name).toBe(TASK_STATUS_LABELS[s.key]);
  });

  it('has valid colours and no WIP limits, and is recognised in any order', () => {
    for (const s of DEFAULT_STATUSES) {
      expect(validateStatusColor(s.color)).toEqual({ ok: true, value: s.color });
      expect(s.wipLimit).toBeNull();
    }
    expect(isDefaultWorkflow(defaults().reverse())).toBe(true);
  });

  it('is no longer the default after a rename, a new category, a new status or a new order', () => {
    const renamed = defaults().map((s) => (s.key === 'review' ? { ...s, name: 'QA' } : s));
    const recategorised = defaults().map((s) => (s.key === 'todo' ? { ...s, category: 'backlog' as const } : s));
    const added = [...defaults(), { ...defaults()[0]!, id: 'x', key: 'qa', name: 'QA', position: 4 }];
    const swapped = defaults().map((s) =>
      s.position === 1 ? { ...s, position: 2 } : s.position === 2 ? { ...s, position: 1 } : s,
    );
    for (const w of [renamed, recategorised, added, swapped]) expect(isDefaultWorkflow(w)).toBe(false);
  });

  it('is valid by its own rules', () => {
    expect(checkWorkflowChange(defaults(), { kind: 'add', category: 'started' }).ok).toBe(true);
  });
});

describe('status names, colours and WIP limits', () => {
  const others = [{ id: 'a', name: 'In Progress' }];

  it('takes a trimmed name of 1 to 40 characters', () => {
    expect(validateStatusName('  QA  ', others)).toEqual({ ok: true, value: 'QA' });
    expect(validateStatusName('   ', others)).toEqual({ ok: false, reason: 'status_name_required' });
    expect(validateStatusName('x'.repeat(40), others).ok).toBe(true);
    expect(validateStatusName('x'.repeat(41), others)).toEqual({ ok: false, reason: 'status_name_too_long' });
    // Characters, not UTF-16 units (PostgreSQL's char_length)
    expect(validateStatusName('🚀'.repeat(40), others).ok).toBe(true);
  });

  it('refuses a name the project has, whatever its case, but not the status own name', () => {
    expect(validateStatusName('in progress', others)).toEqual({ ok: false, reason: 'status_name_taken' });
    expect(validateStatusName(' IN PROGRESS ', others)).toEqual({ ok: false, reason: 'status_name_taken' });
    expect(validateStatusName('in progress', others, 'a')).toEqual({ ok: true, value: 'in progress' });
  });

  it('takes a colour as #rrggbb, in lower case', () => {
    expect(validateStatusColor('#A1B2C3')).toEqual({ ok: true, value: '#a1b2c3' });
    for (const bad of ['a1b2c3', '#abc', '#a1b2c3d', '#ggg000', 'red', '']) {
      expect(validateStatusColor(bad)).toEqual({ ok: false, reason: 'status_color_invalid' });
    }
  });

  it('takes a positive whole WIP limit or none', () => {
    expect(validateWipLimit(null)).toEqual({ ok: true, value: null });
    expect(validateWipLimit(1)).toEqual({ ok: true, value: 1 });
    expect(validateWipLimit(10_000).ok).toBe(true);
    for (const bad of [0, -1, 1.5, 10_001, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(validateWipLimit(bad)).toEqual({ ok: false, reason: 'status_wip_limit_invalid' });
    }
  });
});

describe('checkWorkflowChange: an open status and a completed one stay', () => {
  const w = workflow(['todo', 'To Do', 'unstarted'], ['doing', 'Doing', 'started'], ['done', 'Done', 'completed']);

  it('allows adding any category', () => {
    for (const category of STATUS_CATEGORIES) expect(checkWorkflowChange(w, { kind: 'add', category }).ok).toBe(true);
  });

  it('refuses deleting the last unstarted or backlog status, or the last completed one', () => {
    expect(checkWorkflowChange(w, { kind: 'delete', id: 's0' })).toEqual({ ok: false, reason: 'workflow_needs_open_status' });
    expect(checkWorkflowChange(w, { kind: 'delete', id: 's2' })).toEqual({
      ok: false,
      reason: 'workflow_needs_completed_status',
    });
    expect(checkWorkflowChange(w, { kind: 'delete', id: 's1' })).toEqual({ ok: true, value: ['unstarted', 'completed'] });
  });

  it('counts backlog as open', () => {
    const withBacklog = workflow(['b', 'B', 'backlog'], ['t', 'T', 'unstarted'], ['d', 'D', 'completed']);
    expect(checkWorkflowChange(withBacklog, { kind: 'delete', id: 's1' }).ok).toBe(true);
    expect(checkWorkflowChange(withBacklog, { kind: 'recategorise', id: 's1', category: 'started' }).ok).toBe(true);
  });

  it('refuses recategorising away the last open or completed status', () => {
    expect(checkWorkflowChange(w, { kind: 'recategorise', id: 's0', category: 'started' })).toEqual({
      ok: false,
      reason: 'workflow_needs_open_status',
    });
    expect(checkWorkflowChange(w, { kind: 'recategorise', id: 's2', category: 'canceled' })).toEqual({
      ok: false,
      reason: 'workflow_needs_completed_status',
    });
    expect(checkWorkflowChange(w, { kind: 'recategorise', id: 's0', category: 'backlog' }).ok).toBe(true);
  });

  it('refuses an unknown status and a 51st status', () => {
    expect(checkWorkflowChange(w, { kind: 'delete', id: 'nope' })).toEqual({ ok: false, reason: 'status_not_found' });
    const full = Array.from({ length: 50 }, (_, i) => ({
      id: `s${i}`,
      category: (i === 0 ? 'completed' : 'unstarted') as StatusCategory,
    }));
    expect(checkWorkflowChange(full, { kind: 'add', category: 'started' })).toEqual({ ok: false, reason: 'too_many_statuses' });
  });
});

describe('planStatusDelete', () => {
  const w = workflow(['todo', 'To Do', 'unstarted'], ['qa', 'QA', 'started'], ['done', 'Done', 'completed']);

  it('deletes an empty status with or without a target', () => {
    expect(planStatusDelete(w, 's1', 0)).toEqual({ ok: true, value: null });
    expect(planStatusDelete(w, 's1', 0, 's0')).toEqual({ ok: true, value: 's0' });
  });

  it('asks where the tasks go when it has some (409 status_not_empty)', () => {
    expect(planStatusDelete(w, 's1', 3)).toEqual({ ok: false, reason: 'status_not_empty' });
    expect(planStatusDelete(w, 's1', 3, 's2')).toEqual({ ok: true, value: 's2' });
  });

  it('refuses moving the tasks to the status itself or to a status of another project', () => {
    expect(planStatusDelete(w, 's1', 3, 's1')).toEqual({ ok: false, reason: 'status_move_target_invalid' });
    expect(planStatusDelete(w, 's1', 3, 'elsewhere')).toEqual({ ok: false, reason: 'status_move_target_invalid' });
  });

  it('keeps the workflow rules first', () => {
    expect(planStatusDelete(w, 's2', 0)).toEqual({ ok: false, reason: 'workflow_needs_completed_status' });
  });
});

describe('reorder', () => {
  const w = workflow(['a', 'A', 'unstarted'], ['b', 'B', 'started'], ['c', 'C', 'completed']);

  it('gives each id its new position', () => {
    expect(reorder(['s2', 's0', 's1'], w)).toEqual({
      ok: true,
      value: [
        { id: 's2', position: 0 },
        { id: 's0', position: 1 },
        { id: 's1', position: 2 },
      ],
    });
  });

  it('refuses anything but a permutation of the current ids', () => {
    for (const bad of [['s0', 's1'], ['s0', 's1', 's1'], ['s0', 's1', 's2', 's3'], ['s0', 's1', 'x'], []]) {
      expect(reorder(bad, w)).toEqual({ ok: false, reason: 'status_order_mismatch' });
    }
  });
});

describe('statusKeyFor', () => {
  it("is a slug: the default statuses' keys are the spec's, not their names' slugs", () => {
    expect(DEFAULT_STATUSES.map((s) => statusKeyFor(s.name, []))).toEqual(['to_do', 'in_progress', 'review', 'completed']);
  });

  it('is lower-case ASCII separated by _', () => {
    expect(statusKeyFor('QA', [])).toBe('qa');
    expect(statusKeyFor("  Won't do!  ", [])).toBe('won_t_do');
    expect(statusKeyFor('Prêt à livrer', [])).toBe('pret_a_livrer');
    expect(statusKeyFor('Stage 2 / Review', [])).toBe('stage_2_review');
    expect(statusKeyFor('x'.repeat(40), [])).toBe('x'.repeat(40));
  });

  it('adds _2, _3… when the key is taken', () => {
    expect(statusKeyFor('Review', ['review'])).toBe('review_2');
    expect(statusKeyFor('REVIEW', ['review', 'review_2'])).toBe('review_3');
  });

  it('gives a name with no ASCII letter the key status', () => {
    expect(statusKeyFor('Готово', [])).toBe('status');
    expect(statusKeyFor('🚀', ['status'])).toBe('status_2');
    expect(statusKeyFor('2025', ['status', 'status_2'])).toBe('status_3');
  });

  it('always gives a key the task schema accepts', () => {
    for (const name of ['QA', 'Готово', '_x_', "Won't do", 'a'.repeat(40), '9 lives']) {
      expect(statusKey.safeParse(statusKeyFor(name, ['qa', 'status'])).success).toBe(true);
    }
    expect(
      statusKey.safeParse(
        statusKeyFor(
          'y'.repeat(40),
          Array.from({ length: 200 }, (_, i) => (i ? `${'y'.repeat(40)}_${i + 1}` : 'y'.repeat(40))),
        ),
      ).success,
    ).toBe(true);
  });
});

describe('category rules', () => {
  it('closes completed and canceled only', () => {
    expect(STATUS_CATEGORIES.filter(isClosed)).toEqual(['completed', 'canceled']);
  });

  it("gives the default workflow today's progress, for every mix of up to 4 tasks a status", () => {
    const w = defaults();
    const upTo4 = [0, 1, 2, 3, 4];
    for (const todo of upTo4)
      for (const in_progress of upTo4)
        for (const review of upTo4)
          for (const completed of upTo4) {
            const counts = countsByCategory(w, { todo, in_progress, review, completed });
            expect(progressOf(counts)).toBe(projectProgress(completed, todo + in_progress + review + completed));
          }
  });

  it('counts progress as completed ÷ (all − canceled)', () => {
    expect(progressOf({ unstarted: 1, completed: 1, canceled: 2 })).toBe(50);
    expect(progressOf({ backlog: 5, started: 2, completed: 1 })).toBe(13);
    expect(progressOf({ canceled: 3 })).toBe(0);
    expect(progressOf({})).toBe(0);
  });

  it('sums counts by category, ignoring keys the workflow does not have', () => {
    const w = workflow(['todo', 'To Do', 'unstarted'], ['a', 'A', 'started'], ['b', 'B', 'started'], ['done', 'D', 'completed']);
    expect(countsByCategory(w, { todo: 1, a: 2, b: 3, done: 4, gone: 9 })).toEqual({ unstarted: 1, started: 5, completed: 4 });
  });
});

describe('cycleTime', () => {
  /** A history from (day of January 2026 and hour, category) pairs. */
  const history = (...entries: [day: number, hour: number, category: StatusCategory][]): StatusEntry[] =>
    entries.map(([day, hour, category]) => ({ at: new Date(Date.UTC(2026, 0, day, hour)), category }));

  it('runs from the first entry into a started status to the entry into completed', () => {
    const h = history([1, 0, 'unstarted'], [2, 0, 'started'], [3, 0, 'started'], [4, 0, 'completed']);
    expect(cycleTime(h)).toBe(48 * HOUR);
  });

  it('counts any started status as the start (Review too), and a reopened task from its first start', () => {
    const h = history([1, 0, 'unstarted'], [1, 10, 'started'], [2, 0, 'completed'], [3, 0, 'started'], [5, 0, 'completed']);
    expect(cycleTime(h)).toBe(86 * HOUR);
  });

  it('does not restart on a move between two completed statuses', () => {
    expect(cycleTime(history([1, 0, 'started'], [2, 0, 'completed'], [9, 0, 'completed']))).toBe(24 * HOUR);
  });

  it('is null for an open task, a canceled one, one never started, and no history', () => {
    expect(cycleTime(history([1, 0, 'started']))).toBeNull();
    expect(cycleTime(history([1, 0, 'started'], [2, 0, 'canceled']))).toBeNull();
    expect(cycleTime(history([1, 0, 'unstarted'], [2, 0, 'completed']))).toBeNull();
    expect(cycleTime([])).toBeNull();
  });
});

describe('mapStatusToProject', () => {
  const target = workflow(
    ['backlog', 'Backlog', 'backlog'],
    ['todo', 'To Do', 'unstarted'],
    ['design', 'Design', 'started'],
    ['build', 'Build', 'started'],
    ['done', 'Done', 'completed'],
    ['shipped', 'Shipped', 'completed'],
  );

  it('takes the first status of the same category, by position', () => {
    expect(mapStatusToProject({ category: 'started' }, target)?.key).toBe('design');
    expect(mapStatusToProject({ category: 'completed' }, [...target].reverse())?.key).toBe('done');
    expect(mapStatusToProject({ category: 'backlog' }, target)?.key).toBe('backlog');
  });

  it("keeps a task's status between two default workflows (Review too), as before workflows", () => {
    for (const s of defaults()) expect(mapStatusToProject(s, defaults())?.key).toBe(s.key);
  });

  it('keeps the key only where the target gives it the same category', () => {
    const reviewIsCompleted = defaults().map((s) => (s.key === 'review' ? { ...s, category: 'completed' as const } : s));
    expect(mapStatusToProject({ key: 'review', category: 'started' }, reviewIsCompleted)?.key).toBe('in_progress');
    expect(mapStatusToProject({ key: 'build', category: 'started' }, target)?.key).toBe('build');
    expect(mapStatusToProject({ key: 'review', category: 'started' }, target)?.key).toBe('design');
  });

  it('falls back to the nearest category, the earlier of two equally near', () => {
    expect(fallbackCategories('canceled')).toEqual(['canceled', 'completed', 'started', 'unstarted', 'backlog']);
    expect(fallbackCategories('started')).toEqual(['started', 'unstarted', 'completed', 'backlog', 'canceled']);
    expect(mapStatusToProject({ category: 'canceled' }, target)?.key).toBe('done');
    expect(
      mapStatusToProject(
        { category: 'started' },
        defaults().filter((s) => s.category !== 'started'),
      )?.key,
    ).toBe('todo');
    expect(mapStatusToProject({ category: 'backlog' }, defaults())?.key).toBe('todo');
    expect(mapStatusToProject({ category: 'unstarted' }, workflow(['b', 'B', 'backlog'], ['d', 'D', 'completed']))?.key).toBe(
      'b',
    );
    expect(mapStatusToProject({ category: 'started' }, [])).toBeUndefined();
  });
});

describe('boardColumns', () => {
  it("is today's four columns when every shown project uses the default four", () => {
    const columns = boardColumns([defaults(), defaults(), defaults()]);
    expect(columns.map((c) => [c.kind, c.name])).toEqual(TASK_STATUSES.map((s) => ['status', TASK_STATUS_LABELS[s]]));
    expect(columns.map((c) => (c.kind === 'status' ? c.key : null))).toEqual([...TASK_STATUSES]);
    expect(boardColumns([])).toEqual(columns);
  });

  it("is a single project's statuses in order, with their WIP limits", () => {
    const w = workflow(['todo', 'To Do', 'unstarted'], ['qa', 'QA', 'started'], ['done', 'Done', 'completed']).map((s) =>
      s.key === 'qa' ? { ...s, wipLimit: 1 } : s,
    );
    const columns = boardColumns([[...w].reverse()]);
    expect(columns.map((c) => (c.kind === 'status' ? [c.key, c.wipLimit] : null))).toEqual([
      ['todo', null],
      ['qa', 1],
      ['done', null],
    ]);
  });

  it('is the categories in use, in category order, when the workflows differ', () => {
    const other = workflow(['wontdo', "Won't do", 'canceled'], ['ideas', 'Ideas', 'backlog'], ['done', 'Done', 'completed']);
    const columns = boardColumns([defaults(), other]);
    expect(columns.map((c) => [c.kind, c.kind === 'category' ? c.category : null, c.name])).toEqual([
      ['category', 'backlog', 'Backlog'],
      ['category', 'unstarted', 'Not started'],
      ['category', 'started', 'Started'],
      ['category', 'completed', 'Completed'],
      ['category', 'canceled', 'Canceled'],
    ]);
    const renamed = defaults().map((s) => (s.key === 'review' ? { ...s, name: 'QA' } : s));
    expect(boardColumns([defaults(), renamed]).map((c) => c.kind)).toEqual(['category', 'category', 'category']);
  });
});

describe('WIP limits', () => {
  it('is over only past the limit, never without one', () => {
    expect(overWip(2, 1)).toBe(true);
    expect(overWip(1, 1)).toBe(false);
    expect(overWip(0, 1)).toBe(false);
    expect(overWip(999, null)).toBe(false);
  });

  it("shows 'count / limit' and 'Over WIP limit' past it", () => {
    expect(wipHeader(2, 1)).toEqual({ text: '2 / 1', isOver: true, overText: 'Over WIP limit' });
    expect(wipHeader(1, 1)).toEqual({ text: '1 / 1', isOver: false, overText: null });
    expect(wipHeader(5, null)).toEqual({ text: '5', isOver: false, overText: null });
  });
});

describe('the statuses API schemas', () => {
  it('has a code and a text for every rule reason', () => {
    for (const reason of WORKFLOW_RULE_REASONS) expect(WORKFLOW_ERRORS[reason].message.length).toBeGreaterThan(0);
    expect(WORKFLOW_ERRORS.status_not_empty.code).toBe('conflict');
  });

  it('takes a create body, trimming the name, lowering the colour, no WIP limit by default', () => {
    expect(createStatusInput.parse({ name: ' QA ', category: 'started', color: '#ABCDEF' })).toEqual({
      name: 'QA',
      category: 'started',
      color: '#abcdef',
      wipLimit: null,
    });
    expect(createStatusInput.parse({ name: 'QA', category: 'started', color: '#abcdef', wipLimit: 3 }).wipLimit).toBe(3);
  });

  it('refuses a bad create body with the rule texts', () => {
    const issues = (body: unknown) => {
      const r = createStatusInput.safeParse(body);
      return r.success ? [] : r.error.issues.map((i) => i.message);
    };
    expect(issues({ name: ' ', category: 'started', color: '#abcdef' })).toEqual([WORKFLOW_ERRORS.status_name_required.message]);
    expect(issues({ name: 'x'.repeat(41), category: 'started', color: '#abcdef' })).toEqual([
      WORKFLOW_ERRORS.status_name_too_long.message,
    ]);
    expect(issues({ name: 'QA', category: 'started', color: 'blue' })).toEqual([WORKFLOW_ERRORS.status_color_invalid.message]);
    expect(issues({ name: 'QA', category: 'started', color: '#abcdef', wipLimit: 0 })).toEqual([
      WORKFLOW_ERRORS.status_wip_limit_invalid.message,
    ]);
    expect(issues({ name: 'QA', category: 'doing', color: '#abcdef' })).toHaveLength(1);
    expect(issues({ name: 'QA', category: 'started', color: '#abcdef', key: 'qa' })).toHaveLength(1);
  });

  it('takes a patch of at least one field; null clears the WIP limit', () => {
    expect(updateStatusInput.parse({ name: 'Checks' })).toEqual({ name: 'Checks' });
    expect(updateStatusInput.parse({ wipLimit: null })).toEqual({ wipLimit: null });
    expect(updateStatusInput.safeParse({}).success).toBe(false);
    expect(updateStatusInput.safeParse({ key: 'x' }).success).toBe(false);
    expect(updateStatusInput.safeParse({ position: 2 }).success).toBe(false);
  });

  it('takes a delete body with an optional target, and an order of ids', () => {
    expect(deleteStatusInput.parse({})).toEqual({});
    expect(deleteStatusInput.parse({ moveTo: ids[0] })).toEqual({ moveTo: ids[0] });
    expect(deleteStatusInput.safeParse({ moveTo: 'review' }).success).toBe(false);
    expect(statusOrderInput.parse({ ids })).toEqual({ ids });
    expect(statusOrderInput.safeParse({ ids: [] }).success).toBe(false);
    expect(statusOrderInput.safeParse({ ids: ['s1'] }).success).toBe(false);
  });

  it('describes a status as the API gives it', () => {
    const dto = { id: ids[0], key: 'qa', name: 'QA', category: 'started', color: '#abcdef', position: 4, wipLimit: 1 };
    expect(statusDto.parse(dto)).toEqual(dto);
  });

  it("names the project's keys in the unknown-key message", () => {
    expect(statusKeyUnknownMessage('qa', ['todo', 'in_progress', 'review', 'completed'])).toBe(
      'Unknown status "qa". This project\'s statuses are: todo, in_progress, review, completed',
    );
  });
});

describe('inProgressKeys', () => {
  const status = (key: string, category: StatusCategory, position: number) => ({ key, name: key, category, position });
  it('is In Progress alone for the default four, as the spec counts it', () => {
    expect(inProgressKeys(DEFAULT_STATUSES)).toEqual(['in_progress']);
  });
  it('leaves out the last started step of several, in workflow order whatever the input order', () => {
    const flow = [
      status('qa', 'started', 3),
      status('todo', 'unstarted', 0),
      status('design', 'started', 1),
      status('build', 'started', 2),
    ];
    expect(inProgressKeys(flow)).toEqual(['design', 'build']);
  });
  it('keeps a lone started status, and is empty without one', () => {
    expect(inProgressKeys([status('doing', 'started', 1), status('done', 'completed', 2)])).toEqual(['doing']);
    expect(inProgressKeys([status('todo', 'unstarted', 0), status('done', 'completed', 1)])).toEqual([]);
  });
});
