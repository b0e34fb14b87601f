import {
  type CustomFieldDef,
  FIELD_FILTER_OP_LABELS,
  type FieldFilter,
  fieldValueText,
  formatFieldFilter,
  parseFieldFilter,
} from '../../../domain/custom-fields';

/**
 * The Tasks page's custom field filters (issue 38): the URL's `cf` list, and how a filter reads as a chip. Loaded with
 * the chips (lazily: the board's start-up script does not need them).
 */

/** The URL's `cf` values that parse (malformed ones are ignored by the page; the server would refuse them). */
export const parseFieldFilters = (raw: readonly string[]): FieldFilter[] =>
  raw.map(parseFieldFilter).filter((f): f is FieldFilter => f !== null);

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
