import { describe, expect, it } from 'vitest';
import type { CustomFieldDef } from '../../../domain/custom-fields';
import { fieldFilterText, parseFieldFilters, withoutFieldFilter } from './field-filters';
import { scopeFields } from './hooks/use-scope-fields';

const T1 = '11111111-1111-4111-8111-111111111111';
const T2 = '22222222-2222-4222-8222-222222222222';
const P1 = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const P2 = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';
const LOW = 'c0000000-0000-4000-8000-000000000001';
const CRIT = 'c0000000-0000-4000-8000-000000000003';
const USER = 'd0000000-0000-4000-8000-000000000001';

const field = (id: string, over: Partial<CustomFieldDef> = {}): CustomFieldDef => ({
  id,
  teamId: T1,
  name: 'Field',
  type: 'text',
  options: [],
  projectIds: null,
  showOnCard: false,
  archived: false,
  unit: null,
  decimals: null,
  position: 0,
  ...over,
});
const F = (n: number) => `f0000000-0000-4000-8000-00000000000${n}`;

const severity = field(F(1), {
  name: 'Severity',
  type: 'select',
  options: [
    { id: LOW, name: 'Low', color: '#16a34a' },
    { id: CRIT, name: 'Critical', color: '#dc2626' },
  ],
});

describe('scopeFields', () => {
  const fields = [
    field(F(1), { position: 1 }),
    field(F(2), { position: 0, projectIds: [P2] }),
    field(F(3), { archived: true }),
    field(F(4), { teamId: T2 }),
    field(F(5), { position: 2, projectIds: [P1] }),
  ];

  it("on one project: its team's fields applying to it, in order", () => {
    expect(scopeFields(fields, P1, T1).map((f) => f.id)).toEqual([F(1), F(5)]);
    expect(scopeFields(fields, P2, T1).map((f) => f.id)).toEqual([F(2), F(1)]);
    // Another team's project: none of team 1's fields, even those for every project.
    expect(scopeFields(fields, P1, T2).map((f) => f.id)).toEqual([F(4)]);
  });

  it('on All Projects: every field not archived', () => {
    expect(scopeFields(fields, '').map((f) => f.id)).toEqual([F(2), F(1), F(5), F(4)]);
  });
});

describe('the cf list', () => {
  const a = `${F(1)}:any:${CRIT}`;
  const b = `${F(2)}:gt:3`;

  it('parses what parses', () => {
    expect(parseFieldFilters([a, 'junk', `${F(2)}:between:1`])).toEqual([{ fieldId: F(1), op: 'any', values: [CRIT] }]);
  });

  it("removing a field's filter drops it (and what does not parse)", () => {
    expect(withoutFieldFilter([a, b, 'junk'], F(1))).toEqual([b]);
  });
});

describe('fieldFilterText', () => {
  it('reads as the chip says it', () => {
    expect(fieldFilterText(severity, { fieldId: F(1), op: 'any', values: [CRIT] })).toBe('Severity is any of Critical');
    expect(fieldFilterText(severity, { fieldId: F(1), op: 'none', values: [LOW, CRIT] })).toBe(
      'Severity is none of Low, Critical',
    );
    const points = field(F(2), { name: 'Points', type: 'number', unit: 'pt', decimals: 0 });
    expect(fieldFilterText(points, { fieldId: F(2), op: 'between', values: ['1', '5'] })).toBe('Points between 1 pt and 5 pt');
    expect(fieldFilterText(points, { fieldId: F(2), op: 'lt', values: ['2.5'] })).toBe('Points < 2.5 pt');
    const approved = field(F(3), { name: 'Approved', type: 'checkbox' });
    expect(fieldFilterText(approved, { fieldId: F(3), op: 'is', values: ['false'] })).toBe('Approved is No');
    const owner = field(F(4), { name: 'Owner', type: 'person' });
    const name = (id: string) => (id === USER ? 'Olive Owner' : null);
    expect(fieldFilterText(owner, { fieldId: F(4), op: 'is', values: [USER] }, name)).toBe('Owner is Olive Owner');
    const due = field(F(5), { name: 'Release', type: 'date' });
    expect(fieldFilterText(due, { fieldId: F(5), op: 'before', values: ['2026-12-01'] })).toBe('Release before 2026-12-01');
    expect(fieldFilterText(undefined, { fieldId: F(5), op: 'contains', values: ['x'] })).toBe('Custom field contains x');
  });
});
