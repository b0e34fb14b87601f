import { type FormEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import {
  type CustomFieldDef,
  FIELD_FILTER_OP_LABELS,
  FIELD_FILTER_OPS,
  type FieldFilter,
  type FieldFilterOp,
} from '../../../../domain/custom-fields';
import type { TeamDto } from '../../../../domain/schemas/team';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/field';
import { OptionsSelect } from '../../../components/ui/options-select';

interface FieldFilterMenuProps {
  id: string;
  /** The fields of the page's scope (not archived). */
  fields: CustomFieldDef[];
  /** The caller's teams with their members: a person field's choices. */
  teams: TeamDto[];
  onApply: (filter: FieldFilter) => void;
  onCancel: () => void;
}

/** What the value inputs hold: one or two texts (from, to), or the options ticked. */
interface Draft {
  fieldId: string;
  op: FieldFilterOp;
  a: string;
  b: string;
  options: string[];
}

const firstOp = (field: CustomFieldDef | undefined): FieldFilterOp => (field ? FIELD_FILTER_OPS[field.type][0] : 'contains');

/**
 * The draft as a filter, or null while something is missing. The inputs only offer values of the field's kind (options,
 * members, Yes/No, date inputs); numbers are checked here. (Not domain `checkFieldFilter`: it would put the rest of the
 * domain's filter rules into the board's start-up script, where that module lives; the server checks them.)
 */
function filterOf(field: CustomFieldDef | undefined, d: Draft): FieldFilter | null {
  if (!field) return null;
  let values: string[];
  if (d.op === 'any' || d.op === 'none') values = field.options.filter((o) => d.options.includes(o.id)).map((o) => o.id);
  else if (d.op === 'between') values = [d.a.trim(), d.b.trim()];
  else values = [d.op === 'contains' ? d.a : d.a.trim()];
  if (values.length === 0 || values.some((v) => v.trim() === '')) return null;
  const filter = { fieldId: field.id, op: d.op, values };
  return field.type === 'number' && values.some((v) => !Number.isFinite(Number(v))) ? null : filter;
}

/**
 * 'Add filter' on the Tasks page (issue 38): a field, then an operator its type offers, then the value — applied as a
 * `cf` parameter. Loaded when first opened. Escape or 'Cancel' closes it (focus back on 'Add filter').
 */
export function FieldFilterMenu({ id, fields, teams, onApply, onCancel }: FieldFilterMenuProps) {
  const titleId = useId();
  const [draft, setDraft] = useState<Draft>(() => ({
    fieldId: fields[0]?.id ?? '',
    op: firstOp(fields[0]),
    a: '',
    b: '',
    options: [],
  }));
  const field = fields.find((f) => f.id === draft.fieldId);
  const filter = filterOf(field, draft);
  const first = useRef<HTMLDivElement>(null);
  useEffect(() => first.current?.querySelector('select')?.focus(), []);

  const set = (changes: Partial<Draft>) => setDraft((d) => ({ ...d, ...changes }));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (filter) onApply(filter);
  };

  const inputType = field?.type === 'number' ? 'number' : field?.type === 'date' ? 'date' : 'text';
  // A person or a checkbox: one choice from a list (the field's team's members; Yes or No).
  const choices =
    field?.type === 'person'
      ? {
          label: 'Person',
          empty: 'Choose a person',
          options: (teams.find((t) => t.id === field.teamId)?.members ?? []).map((m) => ({
            value: m.userId,
            label: m.user.fullName,
          })),
        }
      : field?.type === 'checkbox'
        ? {
            label: 'Value',
            empty: 'Choose',
            options: [
              { value: 'true', label: 'Yes' },
              { value: 'false', label: 'No' },
            ],
          }
        : null;
  let value: ReactNode = null;
  if (choices)
    value = (
      <OptionsSelect
        label={choices.label}
        value={draft.a}
        onChange={(e) => set({ a: e.target.value })}
        emptyOption={choices.empty}
        options={choices.options}
      />
    );
  else if (draft.op === 'any' || draft.op === 'none')
    value = (
      <fieldset className="min-w-0">
        <legend className="text-sm font-medium text-slate-700 dark:text-slate-200">Options</legend>
        <div className="mt-1 flex max-h-40 flex-wrap gap-x-4 gap-y-1 overflow-y-auto">
          {field?.options.map((o) => (
            <label key={o.id} className="inline-flex items-center gap-2 text-sm text-slate-800 dark:text-slate-100">
              <input
                type="checkbox"
                className="h-4 w-4 rounded border-slate-400 accent-brand-600"
                checked={draft.options.includes(o.id)}
                onChange={(e) =>
                  set({ options: e.target.checked ? [...draft.options, o.id] : draft.options.filter((x) => x !== o.id) })
                }
              />
              <span className="inline-block h-2.5 w-2.5 rounded-full" style={{ backgroundColor: o.color }} aria-hidden />
              {o.name}
            </label>
          ))}
        </div>
      </fieldset>
    );
  else if (draft.op === 'between')
    value = (
      <div className="flex flex-wrap gap-3">
        <TextField label="From" type={inputType} value={draft.a} onChange={(e) => set({ a: e.target.value })} />
        <TextField label="To" type={inputType} value={draft.b} onChange={(e) => set({ b: e.target.value })} />
      </div>
    );
  else if (field)
    value = (
      <TextField
        label="Value"
        type={inputType}
        value={draft.a}
        step={field.type === 'number' ? 'any' : undefined}
        maxLength={field.type === 'text' || field.type === 'url' ? 200 : undefined}
        onChange={(e) => set({ a: e.target.value })}
      />
    );

  return (
    <form
      id={id}
      aria-labelledby={titleId}
      onSubmit={submit}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.stopPropagation();
          onCancel();
        }
      }}
      className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-700 dark:bg-slate-900"
    >
      <h2 id={titleId} className="mb-3 text-sm font-semibold">
        Filter by a custom field
      </h2>
      <div ref={first} className="flex flex-wrap items-end gap-3">
        <OptionsSelect
          label="Field"
          className="w-full sm:w-48"
          value={draft.fieldId}
          onChange={(e) => {
            const next = fields.find((f) => f.id === e.target.value);
            setDraft({ fieldId: e.target.value, op: firstOp(next), a: '', b: '', options: [] });
          }}
          options={fields.map((f) => ({ value: f.id, label: f.name }))}
        />
        <OptionsSelect
          label="Condition"
          className="w-full sm:w-40"
          value={draft.op}
          onChange={(e) => set({ op: e.target.value as FieldFilterOp })}
          options={(field ? FIELD_FILTER_OPS[field.type] : []).map((op) => ({ value: op, label: FIELD_FILTER_OP_LABELS[op] }))}
        />
        <div className="min-w-0 basis-full sm:basis-auto">{value}</div>
        <div className="flex gap-2">
          <Button type="submit" disabled={!filter}>
            Apply filter
          </Button>
          <Button type="button" variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
        </div>
      </div>
    </form>
  );
}
