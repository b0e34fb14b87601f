import { Trash2 } from 'lucide-react';
import { type KeyboardEvent, useState } from 'react';
import type { StatusDto, UpdateStatusInput } from '../../../../domain/schemas/workflow';
import {
  STATUS_CATEGORIES,
  STATUS_CATEGORY_LABELS,
  STATUS_LIMITS,
  type StatusCategory,
  validateStatusName,
  WORKFLOW_TEXT,
} from '../../../../domain/workflow';
import { DragGrip, type MoveDirection, MoveButtons, RowIconButton, useSortableRow } from '../../../components/sortable-list';
import { TextField } from '../../../components/ui/field';
import { labelled, OptionsSelect } from '../../../components/ui/options-select';
import { cn } from '../../../lib/cn';
import { saveForm } from '../../../lib/save-form';
import { useFormState } from '../../../lib/use-form-state';
import { useUpdateStatus } from '../api/save-status';
import { parseWipLimit, refusal, taskCountText, WORKFLOW_MSG, wipLimitText } from '../workflow-edit';
import { ColorField, ColorSwatch } from './color-field';

/**
 * A row's fields: wrapped under their own labels in a narrow section (a phone, a half screen), in columns under one
 * header (WorkflowHeader) when the section is wide enough (a container query on the list's wrapper).
 */
const ROW_LAYOUT =
  'flex flex-wrap items-start gap-x-3 gap-y-2 @4xl:grid @4xl:grid-cols-[1rem_minmax(0,2fr)_minmax(0,1.2fr)_8.5rem_6.5rem_4.5rem_auto]';

/** A field's label, shown above it in the narrow layout; in columns the header shows it (and this stays for readers). */
const columnLabel = (text: string) => <span className="@4xl:sr-only">{text}</span>;

/** The columns' header of the wide layout; each field keeps its own label, so this is for the eye only. */
export function WorkflowHeader() {
  return (
    <div
      aria-hidden
      className={cn(
        ROW_LAYOUT,
        'hidden px-[13px] text-xs font-medium uppercase tracking-wide text-slate-600 @4xl:grid dark:text-slate-300',
      )}
    >
      <span />
      <span>Name</span>
      <span>Category</span>
      <span>Colour</span>
      <span>{WORKFLOW_TEXT.wipLimit}</span>
      <span>Tasks</span>
      <span />
    </div>
  );
}

const CATEGORY_OPTIONS = labelled(STATUS_CATEGORIES, STATUS_CATEGORY_LABELS);

type RowValues = { name: string; category: StatusCategory; color: string; wipLimit: string };
const valuesOf = (s: StatusDto): RowValues => ({
  name: s.name,
  category: s.category,
  color: s.color,
  wipLimit: wipLimitText(s.wipLimit),
});

export interface StatusRowProps {
  projectId: string;
  status: StatusDto;
  /** The project's statuses (a new name must differ from theirs). */
  statuses: readonly StatusDto[];
  /** Its tasks, when counted. */
  taskCount: number | undefined;
  isFirst: boolean;
  isLast: boolean;
  canMove: boolean;
  onMove: (direction: MoveDirection) => void;
  onDelete: () => void;
}

/**
 * One status of the workflow, edited in place: each field is saved when it is left (Enter for the text fields, at
 * once for the category and the colour), the server's refusal shown beside it. Reordered by its grip or the Move
 * up / Move down buttons.
 */
export function StatusRow({
  projectId,
  status,
  statuses,
  taskCount,
  isFirst,
  isLast,
  canMove,
  onMove,
  onDelete,
}: StatusRowProps) {
  const update = useUpdateStatus(projectId);
  const form = useFormState<RowValues>(valuesOf(status));
  const { values, errors, setField, setErrors } = form;
  // A new copy of the status (this save's answer, another person's change) replaces what the fields show.
  const [shownFor, setShownFor] = useState(status);
  if (shownFor !== status) {
    setShownFor(status);
    form.setValues(valuesOf(status));
    setErrors({});
  }

  const save = async (field: keyof RowValues, input: UpdateStatusInput) => {
    const saved = await saveForm(
      form,
      () => update.mutateAsync({ statusId: status.id, input }),
      { saved: WORKFLOW_MSG.statusUpdated, failed: WORKFLOW_MSG.updateFailed },
      { fieldErrorsOnly: true },
    );
    // A refused category or colour goes back to the saved one (its message stays); a text field keeps what was typed.
    if (!saved && (field === 'category' || field === 'color')) form.setValues((v) => ({ ...v, [field]: status[field] }));
  };

  const commitName = () => {
    if (values.name.trim() === status.name) return;
    const checked = validateStatusName(values.name, statuses, status.id);
    if (!checked.ok) return setErrors((e) => ({ ...e, name: refusal(checked) ?? undefined }));
    void save('name', { name: checked.value });
  };
  const commitWip = () => {
    const parsed = parseWipLimit(values.wipLimit);
    if (!parsed.ok) return setErrors((e) => ({ ...e, wipLimit: refusal(parsed) ?? undefined }));
    if (parsed.value !== status.wipLimit) void save('wipLimit', { wipLimit: parsed.value });
  };
  const onEnter = (commit: () => void) => (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      commit();
    }
  };

  const row = useSortableRow(status.id, canMove);
  const name = status.name;
  return (
    <li
      ref={row.rowRef}
      aria-label={name}
      data-sortable={status.id}
      style={row.style}
      className={cn(
        'rounded-lg border border-slate-200 bg-white p-3 dark:border-slate-700 dark:bg-slate-900',
        row.isOver && 'ring-2 ring-brand-600 dark:ring-indigo-400',
        row.isDragging && 'relative z-10 shadow-md',
      )}
    >
      <div className={ROW_LAYOUT}>
        <DragGrip row={row} className="mt-8 @4xl:mt-3.5" />
        <TextField
          label={columnLabel('Name')}
          className="min-w-40 flex-[2_1_10rem]"
          value={values.name}
          error={errors.name}
          hint={
            <>
              Key <code className="font-mono">{status.key}</code>
            </>
          }
          onChange={(e) => setField('name', e.target.value)}
          onBlur={commitName}
          onKeyDown={onEnter(commitName)}
        />
        <OptionsSelect
          label={columnLabel('Category')}
          className="min-w-36 flex-[1_1_9rem]"
          options={CATEGORY_OPTIONS}
          value={values.category}
          error={errors.category}
          onChange={(e) => {
            const category = e.target.value as StatusCategory;
            setField('category', category);
            void save('category', { category });
          }}
        />
        <ColorField
          label={columnLabel('Colour')}
          value={values.color}
          error={errors.color}
          onValueChange={(color) => setField('color', color)}
          onCommit={(color) => color !== status.color && void save('color', { color })}
        />
        <TextField
          label={columnLabel(WORKFLOW_TEXT.wipLimit)}
          className="w-28 @4xl:w-auto"
          type="number"
          inputMode="numeric"
          min={1}
          max={STATUS_LIMITS.wipLimitMax}
          step={1}
          placeholder="None"
          value={values.wipLimit}
          error={errors.wipLimit}
          onChange={(e) => setField('wipLimit', e.target.value)}
          onBlur={commitWip}
          onKeyDown={onEnter(commitWip)}
        />
        <span className="mt-8 whitespace-nowrap text-sm text-slate-600 @4xl:mt-3 dark:text-slate-300">
          {taskCount === undefined ? '' : taskCountText(taskCount)}
        </span>
        <div className="ml-auto flex items-center gap-1 self-end @4xl:mt-1 @4xl:self-start">
          <MoveButtons
            name={name}
            isFirst={isFirst}
            isLast={isLast}
            canMove={canMove}
            onMove={onMove}
            className="h-9 w-9"
            iconClassName="h-4 w-4"
          />
          <RowIconButton label={`Delete ${name}`} hint="Delete" className="h-9 w-9" onClick={onDelete}>
            <Trash2 className="h-4 w-4" aria-hidden />
          </RowIconButton>
        </div>
      </div>
    </li>
  );
}

/** A status as plain members see it: no inputs. */
export function ReadOnlyStatusRow({ status, taskCount }: { status: StatusDto; taskCount: number | undefined }) {
  return (
    <li
      aria-label={status.name}
      className="flex flex-wrap items-center gap-x-4 gap-y-1 rounded-lg border border-slate-200 bg-white px-3 py-2.5 text-sm dark:border-slate-700 dark:bg-slate-900"
    >
      <span className="flex min-w-40 flex-1 items-center gap-2 font-medium text-slate-900 dark:text-slate-100">
        <ColorSwatch color={status.color} />
        {status.name}
      </span>
      <span className="text-slate-700 dark:text-slate-200">{STATUS_CATEGORY_LABELS[status.category]}</span>
      <span className="text-slate-700 dark:text-slate-200">
        {WORKFLOW_TEXT.wipLimit}: {status.wipLimit ?? 'none'}
      </span>
      {taskCount !== undefined && <span className="text-slate-600 dark:text-slate-300">{taskCountText(taskCount)}</span>}
    </li>
  );
}
