/**
 * Custom fields (issue 38, decision 0026): a team's own fields on its tasks — their types, the rule each value keeps,
 * the filters each type offers, and how a value reads to a person. Plain data and functions (no zod): the client's
 * start-up script reads them for cards, the server for every write.
 *
 * A task's values are one JSON object on its row (`tasks.fields`, `{ [fieldId]: value }`), stored as:
 * text, url → string; number → number; select → an option id; multi_select → option ids (non-empty, in option order);
 * date → 'YYYY-MM-DD'; person → a user id; checkbox → true. A field without a value is absent (a checkbox that is not
 * ticked, an empty text, an empty multi-select: absent), so "no value" has one form.
 */

export const CUSTOM_FIELD_TYPES = ['text', 'number', 'select', 'multi_select', 'date', 'person', 'checkbox', 'url'] as const;
export type CustomFieldType = (typeof CUSTOM_FIELD_TYPES)[number];

/** The names of the types, as the 'Add field' dialog shows them. */
export const CUSTOM_FIELD_TYPE_LABELS: Record<CustomFieldType, string> = {
  text: 'Text',
  number: 'Number',
  select: 'Select',
  multi_select: 'Multi-select',
  date: 'Date',
  person: 'Person',
  checkbox: 'Checkbox',
  url: 'URL',
};

// In constants.ts: errors.ts (the start-up script) reads the limit, and this file must not ride along with it.
export { CUSTOM_FIELD_LIMITS } from './constants';
import { CUSTOM_FIELD_LIMITS } from './constants';

/** Colours an option can take (`#rrggbb`); the dialog offers these, the server takes any `#rrggbb`. */
export const CUSTOM_FIELD_OPTION_COLORS = [
  '#64748b',
  '#2563eb',
  '#0891b2',
  '#16a34a',
  '#ca8a04',
  '#ea580c',
  '#dc2626',
  '#db2777',
  '#7c3aed',
] as const;

export interface CustomFieldOption {
  id: string;
  name: string;
  color: string;
}

/** A field as the API gives it (schemas/custom-field.ts `customFieldDto`). */
export interface CustomFieldDef {
  id: string;
  teamId: string;
  name: string;
  type: CustomFieldType;
  /** Select and multi-select only (empty for the rest), in their order. */
  options: CustomFieldOption[];
  /** null: every project of the team. */
  projectIds: string[] | null;
  showOnCard: boolean;
  archived: boolean;
  /** Number only: shown after the value ('h', '€'); null otherwise. */
  unit: string | null;
  /** Number only: how many decimals a value may have and is shown with (0–6); null: any, shown as entered. */
  decimals: number | null;
  /** The field's place among the team's fields (0-based). */
  position: number;
}

export type CustomFieldValue = string | number | boolean | string[];
/** A task's values, by field id (only fields with a value). */
export type CustomFieldValues = Record<string, CustomFieldValue>;

/** The field applies to a project: it is not archived and names no projects, or names this one. */
export const fieldAppliesTo = (field: Pick<CustomFieldDef, 'projectIds' | 'archived'>, projectId: string): boolean =>
  !field.archived && (field.projectIds === null || field.projectIds.includes(projectId));

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const isIsoDate = (s: string): boolean => {
  if (!ISO_DATE.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
};

const isWebAddress = (s: string): boolean => {
  try {
    const url = new URL(s);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
};

/** How many digits a number has after its decimal point (as JavaScript writes it; 1e-7 and the like count as many). */
const decimalsOf = (n: number): number => {
  const s = String(n);
  if (s.includes('e-')) return Number(s.split('e-')[1]) + (s.split('.')[1]?.split('e')[0]?.length ?? 0);
  return s.split('.')[1]?.length ?? 0;
};

export type FieldValueResult = { ok: true; value: CustomFieldValue | null } | { ok: false; message: string };

/** The texts of a refused value, each naming the field (the server's 400 puts it under `fields.fields`). */
export const FIELD_VALUE_TEXT = {
  text: (name: string) => `${name} must be text of at most ${CUSTOM_FIELD_LIMITS.textMax} characters`,
  number: (name: string) => `${name} must be a number`,
  decimals: (name: string, decimals: number) =>
    decimals === 0 ? `${name} must be a whole number` : `${name} allows at most ${decimals} decimals`,
  option: (name: string) => `${name} has no such option`,
  date: (name: string) => `${name} must be a date (YYYY-MM-DD)`,
  person: (name: string) => `${name} must be a member of the team`,
  checkbox: (name: string) => `${name} must be true or false`,
  url: (name: string) => `${name} must be a web address starting with http:// or https://`,
  archived: (name: string) => `${name} is archived`,
  notHere: (name: string) => `${name} does not apply to this task's project`,
  unknown: 'No such custom field in this team',
} as const;

/**
 * A value as the API received it, checked against its field: the value to store, null to clear, or the refusal.
 * `isMember` says whether a user id is an active member of the field's team (the person type). Empty text, an empty
 * list, false and null clear. Numbers must be finite JSON numbers (not strings) with at most `decimals` decimals.
 */
export function validateFieldValue(
  field: Pick<CustomFieldDef, 'name' | 'type' | 'options' | 'decimals'>,
  value: unknown,
  isMember: (userId: string) => boolean,
): FieldValueResult {
  const fail = (message: string): FieldValueResult => ({ ok: false, message });
  const ok = (v: CustomFieldValue | null): FieldValueResult => ({ ok: true, value: v });
  if (value === null || value === undefined) return ok(null);
  const { name } = field;
  switch (field.type) {
    case 'text': {
      if (typeof value !== 'string' || value.length > CUSTOM_FIELD_LIMITS.textMax) return fail(FIELD_VALUE_TEXT.text(name));
      const text = value.trim();
      return ok(text === '' ? null : text);
    }
    case 'url': {
      if (typeof value !== 'string') return fail(FIELD_VALUE_TEXT.url(name));
      const text = value.trim();
      if (text === '') return ok(null);
      return text.length <= CUSTOM_FIELD_LIMITS.urlMax && isWebAddress(text) ? ok(text) : fail(FIELD_VALUE_TEXT.url(name));
    }
    case 'number': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return fail(FIELD_VALUE_TEXT.number(name));
      if (field.decimals !== null && decimalsOf(value) > field.decimals)
        return fail(FIELD_VALUE_TEXT.decimals(name, field.decimals));
      return ok(value);
    }
    case 'select': {
      if (typeof value !== 'string' || !field.options.some((o) => o.id === value)) return fail(FIELD_VALUE_TEXT.option(name));
      return ok(value);
    }
    case 'multi_select': {
      if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) return fail(FIELD_VALUE_TEXT.option(name));
      const chosen = new Set(value as string[]);
      if ([...chosen].some((id) => !field.options.some((o) => o.id === id))) return fail(FIELD_VALUE_TEXT.option(name));
      // Stored in the field's option order, each once.
      const ids = field.options.filter((o) => chosen.has(o.id)).map((o) => o.id);
      return ok(ids.length > 0 ? ids : null);
    }
    case 'date':
      return typeof value === 'string' && isIsoDate(value) ? ok(value) : fail(FIELD_VALUE_TEXT.date(name));
    case 'person':
      return typeof value === 'string' && UUID.test(value) && isMember(value.toLowerCase())
        ? ok(value.toLowerCase())
        : fail(FIELD_VALUE_TEXT.person(name));
    case 'checkbox':
      if (typeof value !== 'boolean') return fail(FIELD_VALUE_TEXT.checkbox(name));
      return ok(value ? true : null);
  }
}

/**
 * A value as a person reads it (the card, the list, the history, CSV export): an option's name, option names joined
 * by ', ', a number with its decimals and unit ('3.50 h'), 'Yes' for a ticked checkbox, a person's name through
 * `personName` (their id when unknown). null when there is no value or it names nothing the field still has.
 */
export function fieldValueText(
  field: Pick<CustomFieldDef, 'type' | 'options' | 'unit' | 'decimals'>,
  value: CustomFieldValue | null | undefined,
  personName: (userId: string) => string | null = () => null,
): string | null {
  if (value === null || value === undefined) return null;
  switch (field.type) {
    case 'select':
      return field.options.find((o) => o.id === value)?.name ?? null;
    case 'multi_select': {
      const ids = Array.isArray(value) ? value : [];
      const names = field.options.filter((o) => ids.includes(o.id)).map((o) => o.name);
      return names.length > 0 ? names.join(', ') : null;
    }
    case 'number': {
      if (typeof value !== 'number') return null;
      const n = field.decimals === null ? String(value) : value.toFixed(field.decimals);
      return field.unit ? `${n} ${field.unit}` : n;
    }
    case 'checkbox':
      return value === true ? 'Yes' : null;
    case 'person':
      return typeof value === 'string' ? (personName(value) ?? value) : null;
    default:
      return typeof value === 'string' ? value : String(value);
  }
}

// ---- filters (the list's and the board's `cf` query parameter, saved views, the URL) ----

/** The operators each type offers (issue 38 "Filters"). */
export const FIELD_FILTER_OPS = {
  text: ['contains'],
  url: ['contains'],
  number: ['eq', 'lt', 'gt', 'between'],
  select: ['any', 'none'],
  multi_select: ['any', 'none'],
  date: ['before', 'after', 'between'],
  person: ['is'],
  checkbox: ['is'],
} as const satisfies Record<CustomFieldType, readonly string[]>;
export type FieldFilterOp = (typeof FIELD_FILTER_OPS)[CustomFieldType][number];

export const FIELD_FILTER_OP_LABELS: Record<FieldFilterOp, string> = {
  contains: 'contains',
  eq: '=',
  lt: '<',
  gt: '>',
  between: 'between',
  any: 'is any of',
  none: 'is none of',
  before: 'before',
  after: 'after',
  is: 'is',
};

/**
 * One field's filter: `<fieldId>:<op>:<value>` in the query (`cf`, repeated for several fields). The value is
 * text for 'contains' (everything after the second colon, commas and colons included); otherwise comma-separated:
 * one number (eq, lt, gt) or two (between: from,to inclusive), option ids (any, none), a date (before, after: strictly
 * before / after) or two (between, inclusive), a user id (person 'is'), 'true' or 'false' (checkbox 'is').
 */
export interface FieldFilter {
  fieldId: string;
  op: FieldFilterOp;
  values: string[];
}

const LIST_OPS: ReadonlySet<string> = new Set(['any', 'none', 'between']);

/** `<fieldId>:<op>:<value>` → a filter whose shape suits its op (not yet checked against a field: `checkFieldFilter`). */
export function parseFieldFilter(text: string): FieldFilter | null {
  const m = /^([0-9a-f-]{36}):([a-z]+):(.*)$/is.exec(text);
  if (!m) return null;
  const [, fieldId, op, rest] = m as unknown as [string, string, string, string];
  if (!UUID.test(fieldId) || !(op in FIELD_FILTER_OP_LABELS)) return null;
  const values = op === 'contains' ? [rest] : rest.split(',').map((v) => v.trim());
  if (values.some((v) => v === '')) return null;
  if (LIST_OPS.has(op) ? op === 'between' && values.length !== 2 : values.length !== 1) return null;
  return { fieldId: fieldId.toLowerCase(), op: op as FieldFilterOp, values };
}

export const formatFieldFilter = (f: FieldFilter): string =>
  `${f.fieldId}:${f.op}:${f.values.join(f.op === 'contains' ? '' : ',')}`;

/**
 * The filter fits its field: an op of the field's type, values of its kind (numbers, dates, option ids of the field,
 * a uuid, true/false). Returns the message for a 400 (naming the field) or null.
 */
export function checkFieldFilter(field: Pick<CustomFieldDef, 'name' | 'type' | 'options'>, f: FieldFilter): string | null {
  const bad = `${field.name} cannot be filtered that way`;
  if (!(FIELD_FILTER_OPS[field.type] as readonly string[]).includes(f.op)) return bad;
  switch (field.type) {
    case 'number':
      return f.values.every((v) => v !== '' && Number.isFinite(Number(v))) ? null : bad;
    case 'date':
      return f.values.every(isIsoDate) ? null : bad;
    case 'select':
    case 'multi_select':
      return f.values.every((v) => field.options.some((o) => o.id === v)) ? null : bad;
    case 'person':
      return f.values.every((v) => UUID.test(v)) ? null : bad;
    case 'checkbox':
      return f.values.every((v) => v === 'true' || v === 'false') ? null : bad;
    default:
      return f.values[0]!.length <= 200 ? null : bad;
  }
}

/** The list's sort key for a field: `field:<fieldId>` (TASK_SORTS holds the built-in ones). */
export const FIELD_SORT_PREFIX = 'field:';
export const fieldSortKey = (fieldId: string): `field:${string}` => `field:${fieldId}`;
export const fieldIdOfSort = (sort: string | undefined): string | null =>
  sort?.startsWith(FIELD_SORT_PREFIX) ? sort.slice(FIELD_SORT_PREFIX.length) : null;
