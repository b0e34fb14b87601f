import { describe, expect, it } from 'vitest';
import { isProjectOverdue, localIsoDate, PROJECT_TEAM_REQUIRED, projectForm, projectStats, projectTileCounts } from './projects';
import { parseForm } from './forms';

const TEAM = '7d4a1f0e-3b2c-4d5e-8f9a-0b1c2d3e4f50';
const validateProjectForm = (values: unknown) => {
  const result = parseForm(projectForm, values);
  return result.ok ? {} : result.errors;
};
const projectFormPayload = (values: unknown) => {
  const result = parseForm(projectForm, values);
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.data;
};
import { endNotAfterStart, createProjectInput, updateProjectInput } from './schemas/project';
import { MSG } from './messages';

const p = (status: 'planning' | 'active' | 'on_hold' | 'completed' | 'archived', progress = 0) => ({ status, progress });

describe('projectStats', () => {
  it('is all zero with no projects (Avg Progress 0, not NaN)', () => {
    expect(projectStats([])).toEqual({ total: 0, active: 0, completed: 0, avgProgress: 0 });
  });

  it('counts active and completed and rounds the mean progress', () => {
    const stats = projectStats([p('active', 10), p('completed', 100), p('planning', 0), p('active', 1)]);
    expect(stats).toEqual({ total: 4, active: 2, completed: 1, avgProgress: 28 }); // 111 / 4 = 27.75
  });

  it('rounds half up', () => {
    expect(projectStats([p('active', 50), p('active', 51)]).avgProgress).toBe(51); // 50.5
    expect(projectStats([p('active', 33), p('active', 33), p('active', 34)]).avgProgress).toBe(33); // 33.33
  });
});

describe('projectTileCounts', () => {
  it('counts each tile; archived counts only under All Projects', () => {
    expect(projectTileCounts([p('active'), p('active'), p('planning'), p('on_hold'), p('archived')])).toEqual({
      all: 5,
      active: 2,
      planning: 1,
      on_hold: 1,
      completed: 0,
    });
  });
});

describe('isProjectOverdue', () => {
  it('is overdue only when the end date is before today and the project is not completed', () => {
    expect(isProjectOverdue('2024-01-09', 'active', '2024-01-10')).toBe(true);
    expect(isProjectOverdue('2024-01-10', 'active', '2024-01-10')).toBe(false);
    expect(isProjectOverdue('2024-01-09', 'completed', '2024-01-10')).toBe(false);
    expect(isProjectOverdue(null, 'planning', '2024-01-10')).toBe(false);
  });

  it('formats the local date as YYYY-MM-DD', () => {
    expect(localIsoDate(new Date(2024, 0, 5, 23, 59))).toBe('2024-01-05');
  });
});

describe('project schemas', () => {
  const teamId = '6f1c2a52-5a0e-4b8e-9a3f-0c2d6b1e7a11';

  it('requires a trimmed name and defaults status to planning', () => {
    const bad = createProjectInput.safeParse({ name: '   ', teamId });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.message).toBe(MSG.projectNameRequired);
    const ok = createProjectInput.parse({ name: ' Apollo ', teamId });
    expect(ok).toMatchObject({ name: 'Apollo', status: 'planning', startDate: null, endDate: null, description: null });
  });

  it('rejects an end date not after the start date', () => {
    expect(endNotAfterStart('2024-01-10', '2024-01-10')).toBe(true);
    expect(endNotAfterStart('2024-01-10', '2024-01-11')).toBe(false);
    expect(endNotAfterStart('2024-01-10', null)).toBe(false);
    const res = createProjectInput.safeParse({ name: 'A', teamId, startDate: '2024-02-01', endDate: '2024-01-01' });
    expect(res.success).toBe(false);
    expect(res.error?.issues[0]).toMatchObject({ message: MSG.endAfterStart, path: ['endDate'] });
  });

  it('never accepts progress or ownerId in a body', () => {
    expect(createProjectInput.safeParse({ name: 'A', teamId, progress: 50 }).success).toBe(false);
    expect(updateProjectInput.safeParse({ ownerId: teamId }).success).toBe(false);
    expect(updateProjectInput.safeParse({ owner_id: teamId }).success).toBe(false);
  });

  it('keeps absent fields absent in an edit, and null clears', () => {
    expect(updateProjectInput.parse({ name: 'B' })).toEqual({ name: 'B' });
    expect(updateProjectInput.parse({ description: null, endDate: null })).toEqual({ description: null, endDate: null });
    expect(updateProjectInput.parse({ description: '  ' }).description).toBeNull();
  });
});

describe('validateProjectForm', () => {
  const base = { name: 'Apollo', description: '', teamId: TEAM, status: 'planning' as const, startDate: '', endDate: '' };

  it('accepts a named project with a team and no dates', () => {
    expect(validateProjectForm(base)).toEqual({});
  });

  it('requires a name after trimming and a team', () => {
    expect(validateProjectForm({ ...base, name: '  ', teamId: '' })).toEqual({
      name: MSG.projectNameRequired,
      teamId: PROJECT_TEAM_REQUIRED,
    });
  });

  it('requires the end after the start when both are set', () => {
    expect(validateProjectForm({ ...base, startDate: '2030-01-02', endDate: '2030-01-02' })).toEqual({
      endDate: MSG.endAfterStart,
    });
    expect(validateProjectForm({ ...base, startDate: '2030-01-02', endDate: '' })).toEqual({});
  });

  it('builds a trimmed payload with nulls for empty optional fields', () => {
    expect(projectFormPayload({ ...base, name: ' A ', description: '  ' })).toEqual({
      name: 'A',
      description: null,
      teamId: TEAM,
      status: 'planning',
      startDate: null,
      endDate: null,
    });
  });
});
