import { useQuery } from '@tanstack/react-query';
import { type CustomFieldDef, fieldAppliesTo } from '../../../../domain/custom-fields';
import type { TaskDto } from '../../../../domain/schemas/task';
import { myFieldsQueryOptions } from '../../../lib/queries/custom-fields';
import { CustomFieldValue } from './custom-field-value';

/** The fields marked 'Show on card', in their order (one list for every card: the same `select` shares its result). */
const cardFieldsOf = (fields: CustomFieldDef[]) =>
  fields.filter((f) => f.showOnCard && !f.archived).sort((a, b) => a.position - b.position);

/**
 * The task's values of the fields shown on cards (issue 38), under the card's meta: 'Severity: Critical' as a chip in
 * the option's colour, a number with its unit, a short date, 'Approved ✓' — a line or two at most. Loaded lazily by
 * task-card.tsx (the board's start-up budget); only a card with values draws it.
 */
export function CardFields({ task }: { task: Pick<TaskDto, 'projectId' | 'fields'> }) {
  const fields = useQuery({ ...myFieldsQueryOptions(), select: cardFieldsOf }).data;
  const shown = fields?.filter((f) => task.fields[f.id] !== undefined && fieldAppliesTo(f, task.projectId)) ?? [];
  if (shown.length === 0) return null;
  return (
    <ul className="mt-2 flex max-h-11 flex-wrap gap-1 overflow-hidden" aria-label="Custom fields" data-testid="card-fields">
      {shown.map((f) => (
        <li key={f.id} className="flex min-w-0 max-w-full">
          <CustomFieldValue field={f} value={task.fields[f.id]} withName />
        </li>
      ))}
    </ul>
  );
}
