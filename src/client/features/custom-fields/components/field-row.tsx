import { Archive, ArchiveRestore, Pencil, Trash2 } from 'lucide-react';
import { toast } from 'sonner';
import type { CustomFieldDto } from '../../../../domain/schemas/custom-field';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Switch } from '../../../components/ui/switch';
import { cn } from '../../../lib/cn';
import { toastError } from '../../../lib/errors';
import { useUpdateField } from '../api/save-field';
import { FIELD_MSG, projectsSummary, typeSummary } from '../field-edit';
import { OptionSwatch } from './option-swatch';

/** How many options a row shows before '+n more'. */
const OPTIONS_SHOWN = 8;

export interface FieldRowProps {
  teamId: string;
  field: CustomFieldDto;
  projectNames: ReadonlyMap<string, string>;
  /** Owners and admins: the switch and the actions. */
  canManage: boolean;
  onEdit: () => void;
  onDelete: () => void;
}

/**
 * One field of the team: its name, type and projects (an archived one greyed, marked 'Archived'); for owners and
 * admins its 'Show on card' switch (saved at once), Edit, Archive / Unarchive and Delete.
 */
export function FieldRow({ teamId, field, projectNames, canManage, onEdit, onDelete }: FieldRowProps) {
  const update = useUpdateField(teamId);
  // The switch shows the change being sent, and goes back if it is refused.
  const sending = update.isPending ? update.variables.input : undefined;
  const showOnCard = sending?.showOnCard ?? field.showOnCard;

  const save = async (input: { showOnCard: boolean } | { archived: boolean }, saved: string) => {
    try {
      await update.mutateAsync({ fieldId: field.id, input });
      toast.success(saved);
    } catch (error) {
      toastError(error, FIELD_MSG.saveFailed);
    }
  };

  return (
    <li
      aria-label={field.name}
      data-archived={field.archived || undefined}
      className={cn(
        'rounded-lg border p-3',
        field.archived
          ? 'border-dashed border-slate-300 bg-slate-50 dark:border-slate-600 dark:bg-slate-800/40'
          : 'border-slate-200 bg-white dark:border-slate-700 dark:bg-slate-900',
      )}
    >
      <div className="flex flex-wrap items-start gap-x-4 gap-y-3">
        <div className="min-w-0 flex-[1_1_14rem] space-y-1">
          <div className="flex flex-wrap items-center gap-2">
            <h3
              className={cn(
                'min-w-0 break-words font-medium',
                field.archived ? 'text-slate-600 dark:text-slate-300' : 'text-slate-900 dark:text-slate-100',
              )}
            >
              {field.name}
            </h3>
            {field.archived && <Badge>{FIELD_MSG.archived}</Badge>}
            {!canManage && field.showOnCard && <Badge tone="info">Shown on cards</Badge>}
          </div>
          <p className="text-sm text-slate-600 dark:text-slate-300">
            {typeSummary(field)} · {projectsSummary(field.projectIds, projectNames)}
          </p>
          {field.options.length > 0 && (
            <ul aria-label={`Options of ${field.name}`} className="flex flex-wrap gap-1 pt-1">
              {field.options.slice(0, OPTIONS_SHOWN).map((o) => (
                <li
                  key={o.id}
                  className="inline-flex items-center gap-1 rounded-full border border-slate-200 px-2 py-0.5 text-xs text-slate-700 dark:border-slate-700 dark:text-slate-200"
                >
                  <OptionSwatch color={o.color} className="h-2 w-2" />
                  {o.name}
                </li>
              ))}
              {field.options.length > OPTIONS_SHOWN && (
                <li className="px-1 py-0.5 text-xs text-slate-600 dark:text-slate-300">
                  +{field.options.length - OPTIONS_SHOWN} more
                </li>
              )}
            </ul>
          )}
        </div>
        {canManage && (
          <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
            <Switch
              label={FIELD_MSG.showOnCard}
              checked={showOnCard}
              className="gap-2"
              onCheckedChange={(on) =>
                void save(
                  { showOnCard: on },
                  on ? `“${field.name}” is shown on cards` : `“${field.name}” is no longer shown on cards`,
                )
              }
            />
            <div className="flex flex-wrap gap-2">
              <Button variant="secondary" size="sm" onClick={onEdit}>
                <Pencil className="h-3.5 w-3.5" aria-hidden />
                {FIELD_MSG.edit}
                <span className="sr-only"> {field.name}</span>
              </Button>
              <Button
                variant="secondary"
                size="sm"
                aria-busy={sending?.archived !== undefined || undefined}
                onClick={() =>
                  !update.isPending &&
                  void save({ archived: !field.archived }, field.archived ? FIELD_MSG.unarchivedToast : FIELD_MSG.archivedToast)
                }
              >
                {field.archived ? (
                  <ArchiveRestore className="h-3.5 w-3.5" aria-hidden />
                ) : (
                  <Archive className="h-3.5 w-3.5" aria-hidden />
                )}
                {field.archived ? FIELD_MSG.unarchive : FIELD_MSG.archive}
                <span className="sr-only"> {field.name}</span>
              </Button>
              <Button variant="secondary" size="sm" onClick={onDelete} className="text-red-700 dark:text-red-300">
                <Trash2 className="h-3.5 w-3.5" aria-hidden />
                {FIELD_MSG.delete}
                <span className="sr-only"> {field.name}</span>
              </Button>
            </div>
          </div>
        )}
      </div>
    </li>
  );
}
