import {
  type CustomFieldDef,
  FIELD_FILTER_OP_LABELS,
  type FieldFilter,
  fieldAppliesTo,
  fieldValueText,
  formatFieldFilter,
  parseFieldFilter,
} from '../../../domain/custom-fields';

/**
 * The Tasks page's custom fields (issue 38): which fields it offers (columns, filters), and how a field filter of the
 * URL's `cf` reads as a chip. Plain functions, small: the filter bar loads them at start-up (the editor is lazy).
 */

type ScopeField = Pick<CustomFieldDef, 'id' | 'teamId' | 'archived' | 'projectIds' | 'position'>;

/**
 * The fields the page shows: on one project those applying to it (of its team), on All Projects (projectTeamId
 * undefined, projectId '') every field not archived of the caller's teams; in the teams' then the fields' order.
 */
export function scopeFields<F extends ScopeField>(fields: readonly F[], projectId: string, projectTeamId?: string): F[] {
  return fields
    .filter((f) => (projectId ? f.teamId === projectTeamId && fieldAppliesTo(f, projectId) : !f.archived))
    .sort((a, b) => (a.teamId === b.teamId ? a.position - b.position : a.teamId < b.teamId ? -1 : 1));
}

/** The URL's `cf` values that parse (malformed ones are ignored by the page; the server would refuse them). */
export const parseFieldFilters = (raw: readonly string[]): FieldFilter[] =>
  raw.map(parseFieldFilter).filter((f): f is FieldFilter => f !== null);

/** `cf` with `filter` in place of any filter on the same field (one filter a field). */
export const withFieldFilter = (raw: readonly string[], filter: FieldFilter): string[] => [
  ...parseFieldFilters(raw)
    .filter((f) => f.fieldId !== filter.fieldId)
    .map(formatFieldFilter),
  formatFieldFilter(filter),
];

/** `cf` without the filter on this field. */
export const withoutFieldFilter = (raw: readonly string[], fieldId: string): string[] =>
  parseFieldFilters(raw)
    .filter((f) => f.fieldId !== fieldId)
    .map(formatFieldFilter);

/**
 * A filter as its chip reads: 'Severity is any of Critical, High', 'Points between 1 and 5', 'Approved is Yes',
 * 'Owner is Olive Owner'. A field the page does not know (another team's, deleted) reads 'Custom field …'.
 */
export function fieldFilterText(
  field: Pick<CustomFieldDef, 'name' | 'type' | 'options' | 'unit' | 'decimals'> | undefined,
  filter: FieldFilter,
  personName: (userId: string) => string | null = () => null,
): string {
  const op = FIELD_FILTER_OP_LABELS[filter.op];
  if (!field) return `Custom field ${op} ${filter.values.join(', ')}`;
  const value = (v: string): string => {
    switch (field.type) {
      case 'select':
      case 'multi_select':
        return field.options.find((o) => o.id === v)?.name ?? 'removed option';
      case 'checkbox':
        return v === 'true' ? 'Yes' : 'No';
      case 'person':
        return personName(v) ?? 'a former member';
      case 'number':
        return fieldValueText({ ...field, decimals: null }, Number(v)) ?? v;
      default:
        return v;
    }
  };
  const values =
    filter.op === 'between'
      ? `${value(filter.values[0] ?? '')} and ${value(filter.values[1] ?? '')}`
      : filter.values.map(value).join(', ');
  return `${field.name} ${op} ${values}`;
}
