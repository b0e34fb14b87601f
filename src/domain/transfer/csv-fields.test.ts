import { describe, expect, it } from 'vitest';
import { csvFieldValue, type CsvFieldDef, newFieldFromColumn, parseCsvNumber } from './csv-fields';
import { planCsvImport, suggestCsvMapping } from './csv-import';
import { tasksCsv } from './task-csv';

const SEV = '11111111-1111-4111-8111-111111111111';
const TAGS = '22222222-2222-4222-8222-222222222222';
const OWNER = '33333333-3333-4333-8333-333333333333';
const ADA = '44444444-4444-4444-8444-444444444444';

const field = (type: CsvFieldDef['type'], extra: Partial<CsvFieldDef> = {}): CsvFieldDef => ({
  id: SEV,
  name: 'Severity',
  type,
  options: [],
  decimals: null,
  unit: null,
  ...extra,
});
const severity = field('select', {
  options: [
    { id: 'o-low', name: 'Low', color: '#16a34a' },
    { id: 'o-high', name: 'High', color: '#dc2626' },
  ],
});
const labels = field('multi_select', {
  id: TAGS,
  name: 'Areas',
  options: [
    { id: 'o-web', name: 'Web', color: '#2563eb' },
    { id: 'o-api', name: 'API', color: '#16a34a' },
  ],
});
const members = [{ id: ADA, email: 'ada@example.com', fullName: 'Ada Lovelace' }];

describe('a cell as a custom field value (issue 38)', () => {
  it('reads each type', () => {
    expect(csvFieldValue(severity, ' high ', members)).toEqual({ ok: true, value: 'o-high' });
    // Multi-select: names split at ';' or ',', stored in the field's option order.
    expect(csvFieldValue(labels, 'api; web', members)).toEqual({ ok: true, value: ['o-web', 'o-api'] });
    expect(csvFieldValue(field('number', { unit: 'h', decimals: 1 }), '3.5 h', members)).toEqual({ ok: true, value: 3.5 });
    expect(csvFieldValue(field('date'), '2024/3/1', members)).toEqual({ ok: true, value: '2024-03-01' });
    expect(csvFieldValue(field('date'), '2024-03-01T10:00:00Z', members)).toEqual({ ok: true, value: '2024-03-01' });
    for (const yes of ['yes', 'TRUE', '1', 'x']) {
      expect(csvFieldValue(field('checkbox'), yes, members)).toEqual({ ok: true, value: true });
    }
    expect(csvFieldValue(field('checkbox'), 'no', members)).toEqual({ ok: true, value: null });
    expect(csvFieldValue(field('person'), 'ADA@example.com', members)).toEqual({ ok: true, value: ADA });
    expect(csvFieldValue(field('url'), 'https://example.com/a', members)).toEqual({ ok: true, value: 'https://example.com/a' });
    expect(csvFieldValue(field('text'), '  ACME ', members)).toEqual({ ok: true, value: 'ACME' });
    expect(csvFieldValue(field('text'), '  ', members)).toEqual({ ok: true, value: null });
  });

  it('refuses what does not fit, naming the field', () => {
    expect(csvFieldValue(severity, 'Blocker', members)).toEqual({ ok: false, message: 'Severity has no option "Blocker"' });
    expect(csvFieldValue(labels, 'Web, Mobile', members)).toEqual({ ok: false, message: 'Areas has no option "Mobile"' });
    expect(csvFieldValue(field('number'), '3 apples', members).ok).toBe(false);
    expect(csvFieldValue(field('number', { decimals: 0 }), '2.5', members)).toEqual({
      ok: false,
      message: 'Severity must be a whole number',
    });
    expect(csvFieldValue(field('date'), '01/03/2024', members).ok).toBe(false);
    expect(csvFieldValue(field('checkbox'), 'maybe', members).ok).toBe(false);
    expect(csvFieldValue(field('person'), 'Ada Lovelace', members).ok).toBe(false);
    expect(csvFieldValue(field('url'), 'javascript:alert(1)', members).ok).toBe(false);
  });

  it('makes a new field Number when every value is a number, else Text, named after the header', () => {
    expect(newFieldFromColumn('Points', ['3', '', '1.5'])).toEqual({ name: 'Points', type: 'number' });
    expect(newFieldFromColumn('Customer', ['ACME', '3'])).toEqual({ name: 'Customer', type: 'text' });
    expect(newFieldFromColumn('Empty', ['', ''])).toEqual({ name: 'Empty', type: 'text' });
    expect(newFieldFromColumn('x'.repeat(60), ['1']).name).toHaveLength(40);
    expect(parseCsvNumber('1e3')).toBe(1000);
    expect(parseCsvNumber('0x10')).toBeUndefined();
  });
});

describe('a CSV import with custom field columns', () => {
  const headers = ['Title', 'severity', 'Points', 'Owner'];
  const records = [
    { line: 2, cells: ['One', 'High', '3', 'ada@example.com'] },
    { line: 3, cells: ['Two', 'Blocker', '', 'nobody@example.com'] },
  ];
  const context = { fields: [severity, field('person', { id: OWNER, name: 'Owner' })], takenNames: ['Severity', 'Owner'] };

  it('offers a column named as a field (any case) to that field', () => {
    expect(suggestCsvMapping(headers, context.fields)).toEqual({
      Title: 'title',
      severity: `field:${SEV}`,
      Points: 'ignore',
      Owner: `field:${OWNER}`,
    });
  });

  it('fills existing and new fields; a value that does not fit is a warning, the task kept', () => {
    const mapping = { ...suggestCsvMapping(headers, context.fields), Points: 'new_field' as const };
    const plan = planCsvImport(headers, records, mapping, members, context);
    expect(plan.errors).toEqual([]);
    expect(plan.tasks.map((t) => t.fields)).toEqual([{ [SEV]: 'o-high', 'new:Points': 3, [OWNER]: ADA }, {}]);
    expect(plan.tasks[0]!.fieldTexts).toEqual({ Severity: 'High', Points: '3', Owner: 'Ada Lovelace' });
    expect(plan.warnings).toEqual([
      'Line 3: Severity has no option "Blocker": left empty',
      'Line 3: Owner: "nobody@example.com" is not a member of the team: left empty',
    ]);
    expect(plan.fields.map((f) => [f.ref, f.name, f.type, f.existingId])).toEqual([
      [SEV, 'Severity', 'select', SEV],
      ['new:Points', 'Points', 'number', undefined],
      [OWNER, 'Owner', 'person', OWNER],
    ]);
  });

  it('refuses a new field whose name the team has, and ignores a field not for this project', () => {
    const taken = planCsvImport(headers, records, { Title: 'title', severity: 'new_field' }, members, context);
    expect(taken.errors).toEqual([{ line: 1, message: 'The team already has a field named "severity": map the column to it' }]);
    const elsewhere = planCsvImport(
      headers,
      records,
      { Title: 'title', severity: 'field:55555555-5555-4555-8555-555555555555' },
      members,
      context,
    );
    expect(elsewhere.errors).toEqual([]);
    expect(elsewhere.warnings[0]).toMatch(/no such custom field for this project/);
    expect(elsewhere.tasks[0]!.fields).toEqual({});
  });
});

describe('the tasks CSV with custom field columns', () => {
  it('adds a column per field after the others, empty where a task has no value', () => {
    const row = {
      title: 'One',
      status: 'todo',
      priority: 'low' as const,
      assigneeName: null,
      startDate: null,
      dueDate: null,
      projectName: 'P',
      tags: [],
      createdAt: '2024-01-01T00:00:00.000Z',
      description: null,
    };
    const csv = tasksCsv([{ ...row, fields: ['High', '=3'] }, row], ['Severity', 'Formula']);
    const [header, first, second] = csv.replace('\uFEFF', '').split('\r\n');
    expect(header!.endsWith(',Description,Severity,Formula')).toBe(true);
    expect(first!.endsWith(",,High,'=3")).toBe(true);
    expect(second!.endsWith(',,,')).toBe(true);
  });
});
