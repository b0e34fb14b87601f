/**
 * CSV columns mapped to custom fields (issue 38): a cell's text read as its field's value. An option is named by its
 * name (any case); a multi-select's cell holds names split at ';' or ','; an option name the field lacks is a warning
 * and left out (never created: the team's owners keep its options). A number is a number, a date as the due date
 * column reads it, a checkbox yes/true/1/x (no/false/0 untick), a person a team member's email, text and URL as is.
 * Every value is then checked by the field's own rule (domain custom-fields.ts `validateFieldValue`).
 */
import { CUSTOM_FIELD_LIMITS, type CustomFieldDef, type CustomFieldValue, validateFieldValue } from '../custom-fields';

/** Also the CSV's due and start dates. */
/** A calendar day from 'YYYY-MM-DD', 'YYYY/MM/DD' or an ISO date-time (its date part), if it exists. */
export function parseDueDate(value: string): string | undefined {
  const m = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:[T ][\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/.exec(value.trim());
  if (!m) return undefined;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) return undefined;
  return `${m[1]}-${String(mo).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

export type CsvFieldDef = Pick<CustomFieldDef, 'id' | 'name' | 'type' | 'options' | 'decimals' | 'unit'>;

export interface CsvFieldMember {
  id: string;
  email: string;
}

/** A cell read as a value: the value (null: none), or why it was left out. */
export type CsvFieldResult = { ok: true; value: CustomFieldValue | null } | { ok: false; message: string };

const CHECKED = new Set(['yes', 'y', 'true', '1', 'x', '✓', '✔']);
const UNCHECKED = new Set(['no', 'n', 'false', '0', '']);

/** A number as a CSV writes it: '3', '-2.5', '1e3'; a unit after it ('3 h') is taken off when it is the field's. */
export function parseCsvNumber(text: string, unit: string | null = null): number | undefined {
  let t = text.trim();
  if (unit && t.toLowerCase().endsWith(unit.toLowerCase())) t = t.slice(0, t.length - unit.length).trim();
  if (t === '' || !/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(t)) return undefined;
  const n = Number(t);
  return Number.isFinite(n) ? n : undefined;
}

/** The cell `text` as a value of `field`; `members` are the team's active members (a person by email). */
export function csvFieldValue(field: CsvFieldDef, text: string, members: readonly CsvFieldMember[]): CsvFieldResult {
  const t = text.trim();
  if (t === '') return { ok: true, value: null };
  const byName = (name: string) => field.options.find((o) => o.name.toLowerCase() === name.trim().toLowerCase());
  const quote = (s: string) => `"${s.slice(0, 40)}"`;
  let raw: unknown;
  switch (field.type) {
    case 'select': {
      const option = byName(t);
      if (!option) return { ok: false, message: `${field.name} has no option ${quote(t)}` };
      raw = option.id;
      break;
    }
    case 'multi_select': {
      const names = t
        .split(/[;,]/)
        .map((n) => n.trim())
        .filter(Boolean);
      const missing = names.find((n) => !byName(n));
      if (missing !== undefined) return { ok: false, message: `${field.name} has no option ${quote(missing)}` };
      raw = names.map((n) => byName(n)!.id);
      break;
    }
    case 'number': {
      raw = parseCsvNumber(t, field.unit);
      if (raw === undefined) return { ok: false, message: `${field.name}: ${quote(t)} is not a number` };
      break;
    }
    case 'date': {
      raw = parseDueDate(t);
      if (raw === undefined) return { ok: false, message: `${field.name}: ${quote(t)} is not a date (YYYY-MM-DD)` };
      break;
    }
    case 'checkbox': {
      const word = t.toLowerCase();
      if (CHECKED.has(word)) raw = true;
      else if (UNCHECKED.has(word)) raw = false;
      else return { ok: false, message: `${field.name}: ${quote(t)} is not yes or no` };
      break;
    }
    case 'person': {
      const member = members.find((m) => m.email.toLowerCase() === t.toLowerCase());
      if (!member) return { ok: false, message: `${field.name}: ${quote(t)} is not a member of the team` };
      raw = member.id;
      break;
    }
    default:
      raw = t;
  }
  const checked = validateFieldValue(field, raw, (id) => members.some((m) => m.id === id));
  return checked.ok ? { ok: true, value: checked.value } : { ok: false, message: checked.message };
}

/**
 * The field a 'New field' column makes: named after its header (cut to the longest name a field may have), Number
 * when every non-empty cell is a number (at least one), else Text.
 */
export function newFieldFromColumn(header: string, cells: readonly string[]): { name: string; type: 'number' | 'text' } {
  const values = cells.map((c) => c.trim()).filter(Boolean);
  const numeric = values.length > 0 && values.every((v) => parseCsvNumber(v) !== undefined);
  return {
    name: header.trim().slice(0, CUSTOM_FIELD_LIMITS.nameMax).trim() || 'Imported field',
    type: numeric ? 'number' : 'text',
  };
}
