import { describe, expect, it } from 'vitest';
import { defaultRange, rangeErrors, readScope, type Scope, scopeChanges, scopeQuery } from './analytics-scope';

const TEAM = '11111111-1111-4111-8111-111111111111';
const PROJECT = '22222222-2222-4222-8222-222222222222';
const read = (search: string) => readScope(new URLSearchParams(search));
const base: Scope = { teamId: '', projectId: '', period: '12', from: '', to: '', splitBy: '' };
const FIELD = '33333333-3333-4333-8333-333333333333';

describe('readScope', () => {
  it('defaults to all teams, all projects and the last 12 weeks', () => {
    expect(read('')).toEqual(base);
  });

  it('reads a team, a project and a period of weeks', () => {
    expect(read(`?teamId=${TEAM}&projectId=${PROJECT}&weeks=4`)).toEqual({
      ...base,
      teamId: TEAM,
      projectId: PROJECT,
      period: '4',
    });
  });

  it('reads a custom range, which wins over weeks', () => {
    expect(read('?weeks=26&from=2026-01-01&to=2026-03-31')).toEqual({
      ...base,
      period: 'custom',
      from: '2026-01-01',
      to: '2026-03-31',
    });
  });

  it('leaves out what a tampered link holds: ids that are not ids, periods that do not exist', () => {
    expect(read('?teamId=nope&projectId=1%27%20or%201=1&weeks=5')).toEqual(base);
  });
});

describe('scopeQuery', () => {
  it('asks for the weeks of a period', () => {
    expect(scopeQuery({ ...base, teamId: TEAM, period: '26' })).toEqual({
      query: { teamId: TEAM, projectId: undefined, weeks: 26 },
    });
  });

  it('asks for a valid custom range', () => {
    expect(scopeQuery({ ...base, period: 'custom', from: '2026-01-01', to: '2026-01-31' })).toEqual({
      query: { teamId: undefined, projectId: undefined, from: '2026-01-01', to: '2026-01-31' },
    });
  });

  it('asks nothing for an invalid range, and says why', () => {
    expect(scopeQuery({ ...base, period: 'custom', from: '2026-02-01', to: '2026-01-31' })).toEqual({
      errors: { from: 'from must not be after to' },
    });
  });
});

describe('rangeErrors (the API schema’s rules)', () => {
  it('accepts one day and exactly 366 days', () => {
    expect(rangeErrors('2026-03-01', '2026-03-01')).toBeUndefined();
    expect(rangeErrors('2026-01-01', '2027-01-02')).toBeUndefined();
  });

  it('refuses a range of more than 366 days', () => {
    expect(rangeErrors('2026-01-01', '2027-01-03')).toEqual({ to: 'The range may span at most 366 days' });
  });

  it('asks for both dates', () => {
    expect(rangeErrors('', '2026-01-01')).toEqual({ from: 'Enter a date' });
    expect(rangeErrors('', '')).toEqual({ from: 'Enter a date', to: 'Enter a date' });
  });

  it('refuses a date that does not exist', () => {
    expect(rangeErrors('2026-02-30', '2026-03-01')?.from).toBeTruthy();
  });
});

describe('scopeChanges', () => {
  it('sets only what changed, so two quick changes do not undo each other', () => {
    expect(scopeChanges({ teamId: TEAM })).toEqual({ teamId: TEAM });
    expect(scopeChanges({ period: '4' })).toEqual({ weeks: '4', from: null, to: null });
    const url = new URLSearchParams();
    for (const change of [scopeChanges({ teamId: TEAM }), scopeChanges({ period: '4' })]) {
      for (const [k, v] of Object.entries(change)) v ? url.set(k, v) : url.delete(k);
    }
    expect(readScope(url)).toEqual({ ...base, teamId: TEAM, period: '4' });
  });

  it('removes what is cleared or the default', () => {
    expect(scopeChanges({ teamId: '', projectId: '' })).toEqual({ teamId: null, projectId: null });
    expect(scopeChanges({ period: '12' })).toEqual({ weeks: null, from: null, to: null });
  });

  it('writes a custom range instead of weeks, and reads back as the same scope', () => {
    const change = { period: 'custom', from: '2026-01-01', to: '2026-02-01' } as const;
    expect(scopeChanges(change)).toEqual({ weeks: null, from: '2026-01-01', to: '2026-02-01' });
    const url = new URLSearchParams(`weeks=4&projectId=${PROJECT}`);
    for (const [k, v] of Object.entries(scopeChanges(change))) v ? url.set(k, v) : url.delete(k);
    expect(readScope(url)).toEqual({ ...base, projectId: PROJECT, ...change });
  });
});

describe('defaultRange', () => {
  it('starts from the weeks on screen, else the 12 weeks to today', () => {
    expect(defaultRange('2026-11-25', { from: '2026-11-02', to: '2026-11-25' })).toEqual({
      from: '2026-11-02',
      to: '2026-11-25',
    });
    expect(defaultRange('2026-11-25')).toEqual({ from: '2026-09-03', to: '2026-11-25' });
  });
});

describe('Split by (issue 38)', () => {
  it('reads a field id from the URL, asks for it, and clears it with Nothing', () => {
    expect(read(`?splitBy=${FIELD}`)).toEqual({ ...base, splitBy: FIELD });
    expect(read('?splitBy=severity')).toEqual(base);
    expect(scopeQuery({ ...base, splitBy: FIELD })).toEqual({ query: { weeks: 12, splitBy: FIELD } });
    expect(scopeQuery(base).query).not.toHaveProperty('splitBy');
    expect(scopeChanges({ splitBy: FIELD })).toEqual({ splitBy: FIELD });
    expect(scopeChanges({ splitBy: '' })).toEqual({ splitBy: null });
  });
});
