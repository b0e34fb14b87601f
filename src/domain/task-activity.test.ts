import { describe, expect, it } from 'vitest';
import { type TaskActivityState, taskFieldChanges } from './task-activity';

const base: TaskActivityState = {
  title: 'Write the release',
  description: 'Draft',
  status: 'todo',
  priority: 'medium',
  assigneeId: null,
  assigneeName: null,
  dueDate: null,
  projectId: 'p1',
  projectName: 'Launch',
  tags: ['a', 'b'],
  startDate: null,
  parentId: null,
  parentTitle: null,
  estimateMinutes: null,
  estimatePoints: null,
};

describe('taskFieldChanges', () => {
  it('records nothing when nothing changed (names alone do not count)', () => {
    expect(taskFieldChanges(base, { ...base, tags: [...base.tags], projectName: 'Renamed' })).toEqual([]);
  });

  it('records each changed field with its stored values, in the fields order', () => {
    const after: TaskActivityState = {
      ...base,
      title: 'Ship the release',
      description: 'Final',
      status: 'in_progress',
      priority: 'high',
      assigneeId: 'u1',
      assigneeName: 'Mia Member',
      dueDate: '2030-01-31',
      projectId: 'p2',
      projectName: 'Borealis',
      tags: ['b'],
    };
    expect(taskFieldChanges(base, after)).toEqual([
      { field: 'title', oldValue: 'Write the release', newValue: 'Ship the release', oldLabel: null, newLabel: null },
      { field: 'description', oldValue: null, newValue: null, oldLabel: null, newLabel: null },
      { field: 'status', oldValue: 'todo', newValue: 'in_progress', oldLabel: null, newLabel: null },
      { field: 'priority', oldValue: 'medium', newValue: 'high', oldLabel: null, newLabel: null },
      { field: 'assignee', oldValue: null, newValue: 'u1', oldLabel: null, newLabel: 'Mia Member' },
      { field: 'due_date', oldValue: null, newValue: '2030-01-31', oldLabel: null, newLabel: null },
      { field: 'project', oldValue: 'p1', newValue: 'p2', oldLabel: 'Launch', newLabel: 'Borealis' },
      { field: 'tags', oldValue: 'a,b', newValue: 'b', oldLabel: null, newLabel: null },
    ]);
  });

  it('records a cleared value as null', () => {
    const before = { ...base, assigneeId: 'u1', assigneeName: 'Mia Member', dueDate: '2030-01-31' };
    expect(taskFieldChanges(before, { ...base, description: null, tags: [] })).toEqual([
      { field: 'description', oldValue: null, newValue: null, oldLabel: null, newLabel: null },
      { field: 'assignee', oldValue: 'u1', newValue: null, oldLabel: 'Mia Member', newLabel: null },
      { field: 'due_date', oldValue: '2030-01-31', newValue: null, oldLabel: null, newLabel: null },
      { field: 'tags', oldValue: 'a,b', newValue: null, oldLabel: null, newLabel: null },
    ]);
  });

  it('tells tag lists apart that join to the same text', () => {
    const changes = taskFieldChanges({ ...base, tags: ['a,b'] }, { ...base, tags: ['a', 'b'] });
    expect(changes.map((c) => c.field)).toEqual(['tags']);
  });

  it('records the start date and the parent (issue 37), the parent by its title at the time', () => {
    const after: TaskActivityState = { ...base, startDate: '2026-12-01', parentId: 'p9', parentTitle: 'Launch plan' };
    expect(taskFieldChanges(base, after)).toEqual([
      { field: 'start_date', oldValue: null, newValue: '2026-12-01', oldLabel: null, newLabel: null },
      { field: 'parent', oldValue: null, newValue: 'p9', oldLabel: null, newLabel: 'Launch plan' },
    ]);
    // A renamed parent is not a change of parent.
    expect(taskFieldChanges(after, { ...after, parentTitle: 'Renamed' })).toEqual([]);
  });

  it('records the estimate (issue 39): minutes, points or both, stored with units and labelled as a person reads them', () => {
    const inTime: TaskActivityState = { ...base, estimateMinutes: 90 };
    expect(taskFieldChanges(base, inTime)).toEqual([
      { field: 'estimate', oldValue: null, newValue: '90m', oldLabel: null, newLabel: '1h 30m' },
    ]);
    const both: TaskActivityState = { ...inTime, estimatePoints: 1 };
    expect(taskFieldChanges(inTime, both)).toEqual([
      { field: 'estimate', oldValue: '90m', newValue: '90m 1pt', oldLabel: '1h 30m', newLabel: '1h 30m · 1 point' },
    ]);
    expect(taskFieldChanges(both, base)).toEqual([
      { field: 'estimate', oldValue: '90m 1pt', newValue: null, oldLabel: '1h 30m · 1 point', newLabel: null },
    ]);
    expect(taskFieldChanges(inTime, { ...inTime })).toEqual([]);
  });
});
