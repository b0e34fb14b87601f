import { describe, expect, it } from 'vitest';
import {
  CUSTOM_FIELD_LIMITS,
  type CustomFieldDef,
  checkFieldFilter,
  FIELD_VALUE_TEXT,
  fieldAppliesTo,
  fieldIdOfSort,
  fieldSortKey,
  fieldValueText,
  formatFieldFilter,
  parseFieldFilter,
  validateFieldValue,
} from './custom-fields';

const FIELD_ID = '11111111-2222-4333-8444-555555555555';
const MEMBER = 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee';
const STRANGER = 'ffffffff-bbbb-4ccc-8ddd-eeeeeeeeeeee';
const [LOW, HIGH, CRITICAL] = [
  '00000000-0000-4000-8000-000000000001',
  '00000000-0000-4000-8000-000000000002',
  '00000000-0000-4000-8000-000000000003',
];

const field = (over: Partial<CustomFieldDef>): CustomFieldDef => ({
  id: FIELD_ID,
  teamId: '99999999-0000-4000-8000-000000000000',
  name: 'Severity',
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
const options = [
  { id: LOW, name: 'Low', color: '#64748b' },
  { id: HIGH, name: 'High', color: '#ea580c' },
  { id: CRITICAL, name: 'Critical', color: '#dc2626' },
];
const isMember = (id: string) => id === MEMBER;
const check = (f: CustomFieldDef, value: unknown) => validateFieldValue(f, value, isMember);
const stored = (value: unknown) => ({ ok: true, value });
const refused = (message: string) => ({ ok: false, message });

describe('validateFieldValue', () => {
  it('clears on null and undefined, whatever the type', () => {
    for (const type of ['text', 'number', 'select', 'multi_select', 'date', 'person', 'checkbox', 'url'] as const) {
      expect(check(field({ type, options }), null)).toEqual(stored(null));
      expect(check(field({ type, options }), undefined)).toEqual(stored(null));
    }
  });

  it('text: trimmed, empty clears, too long or not text is refused naming the field', () => {
    const f = field({ name: 'Customer', type: 'text' });
    expect(check(f, '  Acme  ')).toEqual(stored('Acme'));
    expect(check(f, '   ')).toEqual(stored(null));
    expect(check(f, 'x'.repeat(CUSTOM_FIELD_LIMITS.textMax))).toEqual(stored('x'.repeat(CUSTOM_FIELD_LIMITS.textMax)));
    expect(check(f, 'x'.repeat(CUSTOM_FIELD_LIMITS.textMax + 1))).toEqual(refused(FIELD_VALUE_TEXT.text('Customer')));
    expect(check(f, 12)).toEqual(refused(FIELD_VALUE_TEXT.text('Customer')));
    expect((check(f, 12) as { message: string }).message).toContain('Customer');
  });

  it('url: http(s) only, trimmed, empty clears', () => {
    const f = field({ name: 'Link', type: 'url' });
    expect(check(f, ' https://example.com/a ')).toEqual(stored('https://example.com/a'));
    expect(check(f, 'http://example.com')).toEqual(stored('http://example.com'));
    expect(check(f, '')).toEqual(stored(null));
    expect(check(f, 'javascript:alert(1)')).toEqual(refused(FIELD_VALUE_TEXT.url('Link')));
    expect(check(f, 'example.com')).toEqual(refused(FIELD_VALUE_TEXT.url('Link')));
    expect(check(f, `https://example.com/${'a'.repeat(CUSTOM_FIELD_LIMITS.urlMax)}`)).toEqual(
      refused(FIELD_VALUE_TEXT.url('Link')),
    );
    expect(check(f, true)).toEqual(refused(FIELD_VALUE_TEXT.url('Link')));
  });

  it('number: finite JSON numbers within the decimals', () => {
    const any = field({ name: 'Points', type: 'number' });
    expect(check(any, 2.71)).toEqual(stored(2.71));
    expect(check(any, 0)).toEqual(stored(0));
    expect(check(any, -5)).toEqual(stored(-5));
    expect(check(any, '3')).toEqual(refused(FIELD_VALUE_TEXT.number('Points')));
    expect(check(any, Number.NaN)).toEqual(refused(FIELD_VALUE_TEXT.number('Points')));
    expect(check(any, Number.POSITIVE_INFINITY)).toEqual(refused(FIELD_VALUE_TEXT.number('Points')));
    const two = field({ name: 'Hours', type: 'number', decimals: 2 });
    expect(check(two, 1.25)).toEqual(stored(1.25));
    expect(check(two, 1.255)).toEqual(refused(FIELD_VALUE_TEXT.decimals('Hours', 2)));
    expect(check(two, 1e-7)).toEqual(refused(FIELD_VALUE_TEXT.decimals('Hours', 2)));
    const whole = field({ name: 'Count', type: 'number', decimals: 0 });
    expect(check(whole, 4)).toEqual(stored(4));
    expect(check(whole, 4.5)).toEqual(refused('Count must be a whole number'));
  });

  it('select: an option id of the field', () => {
    const f = field({ type: 'select', options });
    expect(check(f, HIGH)).toEqual(stored(HIGH));
    expect(check(f, STRANGER)).toEqual(refused(FIELD_VALUE_TEXT.option('Severity')));
    expect(check(f, 'High')).toEqual(refused(FIELD_VALUE_TEXT.option('Severity')));
    expect(check(f, [HIGH])).toEqual(refused(FIELD_VALUE_TEXT.option('Severity')));
  });

  it('multi_select: option ids, stored once each in option order; empty clears', () => {
    const f = field({ name: 'Areas', type: 'multi_select', options });
    expect(check(f, [CRITICAL, LOW, CRITICAL])).toEqual(stored([LOW, CRITICAL]));
    expect(check(f, [])).toEqual(stored(null));
    expect(check(f, [LOW, STRANGER])).toEqual(refused(FIELD_VALUE_TEXT.option('Areas')));
    expect(check(f, LOW)).toEqual(refused(FIELD_VALUE_TEXT.option('Areas')));
    expect(check(f, [LOW, 3])).toEqual(refused(FIELD_VALUE_TEXT.option('Areas')));
  });

  it('date: a real calendar day as YYYY-MM-DD', () => {
    const f = field({ name: 'Release', type: 'date' });
    expect(check(f, '2026-02-28')).toEqual(stored('2026-02-28'));
    expect(check(f, '2024-02-29')).toEqual(stored('2024-02-29'));
    expect(check(f, '2026-02-30')).toEqual(refused(FIELD_VALUE_TEXT.date('Release')));
    expect(check(f, '2026-2-3')).toEqual(refused(FIELD_VALUE_TEXT.date('Release')));
    expect(check(f, '2026-02-28T10:00:00Z')).toEqual(refused(FIELD_VALUE_TEXT.date('Release')));
  });

  it('person: a member of the team, stored lower-case', () => {
    const f = field({ name: 'Reviewer', type: 'person' });
    expect(check(f, MEMBER)).toEqual(stored(MEMBER));
    expect(check(f, MEMBER.toUpperCase())).toEqual(stored(MEMBER));
    expect(check(f, STRANGER)).toEqual(refused(FIELD_VALUE_TEXT.person('Reviewer')));
    expect(check(f, 'not-a-uuid')).toEqual(refused(FIELD_VALUE_TEXT.person('Reviewer')));
  });

  it('checkbox: true is stored, false clears, anything else is refused', () => {
    const f = field({ name: 'Approved', type: 'checkbox' });
    expect(check(f, true)).toEqual(stored(true));
    expect(check(f, false)).toEqual(stored(null));
    expect(check(f, 'true')).toEqual(refused(FIELD_VALUE_TEXT.checkbox('Approved')));
    expect(check(f, 1)).toEqual(refused(FIELD_VALUE_TEXT.checkbox('Approved')));
  });
});

describe('fieldValueText', () => {
  it('reads each type as a person would', () => {
    expect(fieldValueText(field({ type: 'select', options }), HIGH)).toBe('High');
    expect(fieldValueText(field({ type: 'select', options }), STRANGER)).toBeNull();
    expect(fieldValueText(field({ type: 'multi_select', options }), [CRITICAL, LOW])).toBe('Low, Critical');
    expect(fieldValueText(field({ type: 'multi_select', options }), [STRANGER])).toBeNull();
    expect(fieldValueText(field({ type: 'number', decimals: 2, unit: 'h' }), 3.5)).toBe('3.50 h');
    expect(fieldValueText(field({ type: 'number' }), 3.5)).toBe('3.5');
    expect(fieldValueText(field({ type: 'number', unit: '€' }), 12)).toBe('12 €');
    expect(fieldValueText(field({ type: 'checkbox' }), true)).toBe('Yes');
    expect(fieldValueText(field({ type: 'person' }), MEMBER, (id) => (id === MEMBER ? 'Mia Member' : null))).toBe('Mia Member');
    expect(fieldValueText(field({ type: 'person' }), STRANGER)).toBe(STRANGER);
    expect(fieldValueText(field({ type: 'date' }), '2026-11-30')).toBe('2026-11-30');
    expect(fieldValueText(field({ type: 'text' }), 'Acme')).toBe('Acme');
    expect(fieldValueText(field({ type: 'url' }), 'https://example.com')).toBe('https://example.com');
    expect(fieldValueText(field({ type: 'text' }), null)).toBeNull();
    expect(fieldValueText(field({ type: 'text' }), undefined)).toBeNull();
  });
});

describe('field filters', () => {
  const cases: [CustomFieldDef, string][] = [
    [field({ type: 'text' }), `${FIELD_ID}:contains:acme, inc: the one`],
    [field({ type: 'url' }), `${FIELD_ID}:contains:example.com`],
    [field({ type: 'number' }), `${FIELD_ID}:eq:3`],
    [field({ type: 'number' }), `${FIELD_ID}:lt:-1.5`],
    [field({ type: 'number' }), `${FIELD_ID}:gt:10`],
    [field({ type: 'number' }), `${FIELD_ID}:between:1,5`],
    [field({ type: 'select', options }), `${FIELD_ID}:any:${LOW},${HIGH}`],
    [field({ type: 'multi_select', options }), `${FIELD_ID}:none:${CRITICAL}`],
    [field({ type: 'date' }), `${FIELD_ID}:before:2026-12-01`],
    [field({ type: 'date' }), `${FIELD_ID}:after:2026-12-01`],
    [field({ type: 'date' }), `${FIELD_ID}:between:2026-12-01,2026-12-31`],
    [field({ type: 'person' }), `${FIELD_ID}:is:${MEMBER}`],
    [field({ type: 'checkbox' }), `${FIELD_ID}:is:true`],
    [field({ type: 'checkbox' }), `${FIELD_ID}:is:false`],
  ];

  it('parse, check and format round-trip for every operator of every type', () => {
    for (const [f, text] of cases) {
      const parsed = parseFieldFilter(text);
      expect(parsed, text).not.toBeNull();
      expect(checkFieldFilter(f, parsed!), text).toBeNull();
      expect(formatFieldFilter(parsed!)).toBe(text);
      expect(parseFieldFilter(formatFieldFilter(parsed!))).toEqual(parsed);
    }
    expect(parseFieldFilter(`${FIELD_ID}:contains:a,b:c`)).toEqual({ fieldId: FIELD_ID, op: 'contains', values: ['a,b:c'] });
    expect(parseFieldFilter(`${FIELD_ID.toUpperCase()}:eq:3`)?.fieldId).toBe(FIELD_ID);
  });

  it('refuses filters that do not parse', () => {
    for (const text of [
      'nonsense',
      `${FIELD_ID}:eq:`,
      `${FIELD_ID}:between:1`,
      `${FIELD_ID}:between:1,2,3`,
      `${FIELD_ID}:eq:1,2`,
      `${FIELD_ID}:teleport:1`,
      `not-a-uuid-at-all-but-thirty-six-char:eq:1`,
      `${FIELD_ID}:any:${LOW},`,
    ]) {
      expect(parseFieldFilter(text), text).toBeNull();
    }
  });

  it('refuses, naming the field, a filter that does not fit its field', () => {
    const bad = (f: CustomFieldDef, text: string) => {
      const parsed = parseFieldFilter(text);
      expect(parsed, text).not.toBeNull();
      expect(checkFieldFilter(f, parsed!), text).toBe(`${f.name} cannot be filtered that way`);
    };
    bad(field({ name: 'Points', type: 'number' }), `${FIELD_ID}:contains:3`);
    bad(field({ name: 'Points', type: 'number' }), `${FIELD_ID}:eq:three`);
    bad(field({ name: 'Release', type: 'date' }), `${FIELD_ID}:before:2026-02-30`);
    bad(field({ name: 'Severity', type: 'select', options }), `${FIELD_ID}:any:${STRANGER}`);
    bad(field({ name: 'Severity', type: 'select', options }), `${FIELD_ID}:eq:1`);
    bad(field({ name: 'Reviewer', type: 'person' }), `${FIELD_ID}:is:somebody`);
    bad(field({ name: 'Approved', type: 'checkbox' }), `${FIELD_ID}:is:yes`);
    bad(field({ name: 'Customer', type: 'text' }), `${FIELD_ID}:contains:${'x'.repeat(201)}`);
    bad(field({ name: 'Customer', type: 'text' }), `${FIELD_ID}:eq:3`);
  });

  it('sort keys name their field', () => {
    expect(fieldSortKey(FIELD_ID)).toBe(`field:${FIELD_ID}`);
    expect(fieldIdOfSort(fieldSortKey(FIELD_ID))).toBe(FIELD_ID);
    expect(fieldIdOfSort('due')).toBeNull();
    expect(fieldIdOfSort(undefined)).toBeNull();
  });
});

describe('fieldAppliesTo', () => {
  const P1 = '00000000-0000-4000-8000-0000000000a1';
  const P2 = '00000000-0000-4000-8000-0000000000a2';
  it('every project when it names none, only its own otherwise, never when archived', () => {
    expect(fieldAppliesTo({ projectIds: null, archived: false }, P1)).toBe(true);
    expect(fieldAppliesTo({ projectIds: [P1], archived: false }, P1)).toBe(true);
    expect(fieldAppliesTo({ projectIds: [P1], archived: false }, P2)).toBe(false);
    expect(fieldAppliesTo({ projectIds: null, archived: true }, P1)).toBe(false);
    expect(fieldAppliesTo({ projectIds: [P1], archived: true }, P1)).toBe(false);
  });
});
