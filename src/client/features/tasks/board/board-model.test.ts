import { describe, expect, it } from 'vitest';
import type { TaskDto } from '../../../../domain/schemas/task';
import type { StatusDto } from '../../../../domain/schemas/workflow';
import { DEFAULT_STATUSES, type StatusCategory } from '../../../../domain/workflow';
import {
  type BoardWorkflows,
  columnsOf,
  DEFAULT_SHAPE,
  dropPatch,
  groupIntoLanes,
  movedTask,
  nextTarget,
  taskStatusOf,
} from './board-model';

const P1 = '11111111-1111-4111-8111-111111111111';
const P2 = '22222222-2222-4222-8222-222222222222';

let n = 0;
const status = (key: string, name: string, category: StatusCategory, wipLimit: number | null = null): StatusDto => ({
  id: `s${n++}`,
  key,
  name,
  category,
  color: '#123456',
  position: n,
  wipLimit,
});
const defaults = (): StatusDto[] => DEFAULT_STATUSES.map((s, i) => ({ ...s, id: `d${i}` }));
const custom = [
  status('backlog', 'Backlog', 'backlog'),
  status('todo', 'To Do', 'unstarted'),
  status('design', 'Design', 'started'),
  status('qa', 'QA', 'started', 1),
  status('done', 'Done', 'completed'),
];
const workflows: BoardWorkflows = [
  { projectId: P1, statuses: custom },
  { projectId: P2, statuses: defaults() },
];

const task = (over: Partial<TaskDto> = {}): TaskDto =>
  ({
    id: `t${n++}`,
    title: 'A task',
    status: 'todo',
    statusCategory: 'unstarted',
    priority: 'medium',
    assigneeId: null,
    assignee: null,
    projectId: P1,
    projectName: 'Apollo',
    createdAt: '2026-01-01T00:00:00.000Z',
    ...over,
  }) as TaskDto;

describe('columnsOf', () => {
  it("draws one project's statuses in the answer's order, with their names, colours and WIP limits", () => {
    const columns = columnsOf({ columnKind: 'status', order: custom.map((s) => s.key), workflows: [workflows[0]!] });
    expect(columns.map((c) => [c.id, c.name])).toEqual([
      ['backlog', 'Backlog'],
      ['todo', 'To Do'],
      ['design', 'Design'],
      ['qa', 'QA'],
      ['done', 'Done'],
    ]);
    expect(columns[3]).toMatchObject({ kind: 'status', wipLimit: 1, color: '#123456', category: 'started' });
  });

  it('draws the default four exactly when the answer has no workflow, and categories by their labels', () => {
    expect(columnsOf(DEFAULT_SHAPE).map((c) => c.name)).toEqual(['To Do', 'In Progress', 'Review', 'Completed']);
    const byCategory = columnsOf({ columnKind: 'category', order: ['backlog', 'unstarted', 'started', 'completed'], workflows });
    expect(byCategory.map((c) => [c.kind, c.id, c.name])).toEqual([
      ['category', 'backlog', 'Backlog'],
      ['category', 'unstarted', 'Not started'],
      ['category', 'started', 'Started'],
      ['category', 'completed', 'Completed'],
    ]);
  });

  it('draws an id the workflows do not describe by its key', () => {
    expect(columnsOf({ columnKind: 'status', order: ['gone'], workflows: [workflows[0]!] })[0]).toMatchObject({
      id: 'gone',
      name: 'gone',
    });
  });
});

describe('taskStatusOf', () => {
  it("is the task's own status in its project's workflow", () => {
    expect(taskStatusOf(workflows, task({ status: 'qa' }))?.name).toBe('QA');
    expect(taskStatusOf(workflows, task({ status: 'review', projectId: P2 }))?.name).toBe('Review');
    expect(taskStatusOf(workflows, task({ status: 'nope' }))).toBeUndefined();
  });
});

describe('dropPatch', () => {
  const [, , , qa] = columnsOf({ columnKind: 'status', order: custom.map((s) => s.key), workflows: [workflows[0]!] });
  const byCategory = columnsOf({ columnKind: 'category', order: ['unstarted', 'started', 'completed'], workflows });
  const started = byCategory[1]!;

  it("sends a status column's key, and nothing for the column the card is in", () => {
    expect(dropPatch(task(), qa!, workflows)).toEqual({ status: 'qa' });
    expect(dropPatch(task({ status: 'qa', statusCategory: 'started' }), qa!, workflows)).toBeNull();
  });

  it("sends the first status of a category column's category in the card's own project", () => {
    expect(dropPatch(task(), started, workflows)).toEqual({ status: 'design' });
    expect(dropPatch(task({ projectId: P2 }), started, workflows)).toEqual({ status: 'in_progress' });
    // Already in that category (any status of it): no move.
    expect(dropPatch(task({ status: 'qa', statusCategory: 'started' }), started, workflows)).toBeNull();
  });

  it("adds the lane's field in the same patch, only when it changes", () => {
    const alice = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
    expect(dropPatch(task(), qa!, workflows, { assigneeId: alice })).toEqual({ status: 'qa', assigneeId: alice });
    expect(dropPatch(task({ assigneeId: alice }), qa!, workflows, { assigneeId: null })).toEqual({
      status: 'qa',
      assigneeId: null,
    });
    const inQa = task({ status: 'qa', statusCategory: 'started' });
    expect(dropPatch(inQa, qa!, workflows, { priority: 'urgent' })).toEqual({ priority: 'urgent' });
    expect(dropPatch(inQa, qa!, workflows, { priority: 'medium' })).toBeNull();
  });

  it("takes a status of the lane's project when the card changes project", () => {
    // Into project 2's lane and the Started column: project 2's first started status.
    expect(dropPatch(task(), started, workflows, { projectId: P2 })).toEqual({ projectId: P2, status: 'in_progress' });
    // A status column whose key project 2 lacks: the first of its category there.
    expect(dropPatch(task(), qa!, workflows, { projectId: P2 })).toEqual({ projectId: P2, status: 'in_progress' });
    // No column change: the server maps the status itself.
    expect(dropPatch(task({ status: 'qa', statusCategory: 'started' }), qa!, workflows, { projectId: P2 })).toEqual({
      projectId: P2,
    });
  });
});

describe('movedTask', () => {
  it('shows the new status and category, and the lane as the new assignee', () => {
    const byCategory = columnsOf({ columnKind: 'category', order: ['started'], workflows });
    const moved = movedTask(task(), { status: 'design', assigneeId: 'u1' }, workflows, byCategory[0]!, 'Alice Smith');
    expect(moved).toMatchObject({
      status: 'design',
      statusCategory: 'started',
      assigneeId: 'u1',
      assignee: { id: 'u1', fullName: 'Alice Smith', firstName: 'Alice' },
    });
  });
});

describe('groupIntoLanes', () => {
  const alice = task({ assigneeId: 'a', assignee: { id: 'a', fullName: 'Alice Smith', firstName: 'Alice' }, priority: 'high' });
  const bob = task({ assigneeId: 'b', assignee: { id: 'b', fullName: 'Bob Jones', firstName: 'Bob' }, status: 'qa' });
  const nobody = task({ projectId: P2, projectName: 'Borealis' });
  const columns = [
    { id: 'todo', tasks: [alice, nobody] },
    { id: 'qa', tasks: [bob] },
  ];

  it('by assignee: one lane per member with cards, by name, then Unassigned; each cell by column', () => {
    const lanes = groupIntoLanes(columns, 'assignee');
    expect(lanes.map((l) => [l.name, l.count])).toEqual([
      ['Alice Smith', 1],
      ['Bob Jones', 1],
      ['Unassigned', 1],
    ]);
    expect(lanes[1]!.cells).toEqual({ todo: [], qa: [bob] });
    expect(lanes[2]!.patch).toEqual({ assigneeId: null });
  });

  it('by priority: all four, urgent first, empty ones too', () => {
    const lanes = groupIntoLanes(columns, 'priority');
    expect(lanes.map((l) => [l.name, l.count])).toEqual([
      ['Urgent', 0],
      ['High', 1],
      ['Medium', 2],
      ['Low', 0],
    ]);
  });

  it('by project: the projects with cards and those the board can show, by name', () => {
    const lanes = groupIntoLanes(columns, 'project', [{ id: 'p3', name: 'Aardvark' }]);
    expect(lanes.map((l) => [l.name, l.count])).toEqual([
      ['Aardvark', 0],
      ['Apollo', 2],
      ['Borealis', 1],
    ]);
    expect(lanes[2]!.patch).toEqual({ projectId: P2 });
  });
});

describe('nextTarget', () => {
  // Two columns of two lanes: x 0–100 and 120–220, y 0–100 and 120–220.
  const cell = (id: string, left: number, top: number) => ({ id, left, top, width: 100, height: 100 });
  const rects = [cell('a1', 0, 0), cell('b1', 120, 0), cell('a2', 0, 120), cell('b2', 120, 120)];

  it('moves right and left in the same lane, up and down in the same column', () => {
    expect(nextTarget(rects, { x: 50, y: 50 }, 'right')?.id).toBe('b1');
    expect(nextTarget(rects, { x: 170, y: 170 }, 'left')?.id).toBe('a2');
    expect(nextTarget(rects, { x: 170, y: 50 }, 'down')?.id).toBe('b2');
    expect(nextTarget(rects, { x: 50, y: 170 }, 'up')?.id).toBe('a1');
  });

  it('has nowhere to go past the edge', () => {
    expect(nextTarget(rects, { x: 170, y: 50 }, 'right')).toBeUndefined();
    expect(nextTarget(rects, { x: 50, y: 50 }, 'up')).toBeUndefined();
  });
});
