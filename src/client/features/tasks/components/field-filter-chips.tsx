import type { ComponentType } from 'react';
import type { CustomFieldDef } from '../../../../domain/custom-fields';
import { fieldFilterText, parseFieldFilters, withoutFieldFilter } from '../field-filters';
import { usePersonNames } from './person-names';

/**
 * The chips of the custom field filters (`cf`): 'Severity is any of Critical', each with its remove button. Loaded
 * when the URL has such a filter, beside the other chips of the filter bar (whose `Chip` it draws them with).
 */
export function FieldFilterChips({
  cf,
  fields,
  onChange,
  Chip,
}: {
  cf: string[];
  /** Every field known (a filter names its field even when the field is not in the page's scope). */
  fields: readonly CustomFieldDef[];
  onChange: (cf: string[]) => void;
  Chip: ComponentType<{ label: string; onRemove: () => void }>;
}) {
  const filters = parseFieldFilters(cf);
  const personName = usePersonNames(filters.some((f) => f.op === 'is'));
  return filters.map((f) => (
    <Chip
      key={f.fieldId}
      label={fieldFilterText(
        fields.find((field) => field.id === f.fieldId),
        f,
        personName,
      )}
      onRemove={() => onChange(withoutFieldFilter(cf, f.fieldId))}
    />
  ));
}
