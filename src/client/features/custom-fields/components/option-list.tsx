import { Plus, X } from 'lucide-react';
import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { CUSTOM_FIELD_LIMITS, CUSTOM_FIELD_OPTION_COLORS } from '../../../../domain/custom-fields';
import { MoveButtons, RowIconButton, useSortableList } from '../../../components/sortable-list';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/field';
import { OptionsSelect } from '../../../components/ui/options-select';
import { colorName, FIELD_MSG, newOption, type OptionDraft, OPTION_COLOR_NAMES } from '../field-edit';
import { OptionSwatch } from './option-swatch';

const COLOR_OPTIONS = CUSTOM_FIELD_OPTION_COLORS.map((c) => ({ value: c, label: OPTION_COLOR_NAMES[c] }));

export interface OptionListProps {
  options: OptionDraft[];
  /** Each option's refusal, by its row key. */
  errors: Record<string, string>;
  /** The list's own refusal ('Add at least one option'). */
  error?: string;
  /** The new list; `edited` names the option whose name changed (its refusal is cleared). */
  onChange: (options: OptionDraft[], edited?: string) => void;
}

/**
 * A Select's options in the dialog: each named, given a colour of the palette, moved by Move up / Move down (focus stays
 * on the moved option's button, a screen reader told the new place) and removed. Enter in a name adds an option after it.
 */
export function OptionList({ options, errors, error, onChange }: OptionListProps) {
  const legendId = useId();
  const errorId = useId();
  const addRef = useRef<HTMLButtonElement>(null);
  const listEl = useRef<HTMLOListElement | null>(null);
  // Where focus goes once the list is drawn again: a new option's name, or (after a removal) the option now there.
  const [focusKey, setFocusKey] = useState<string | null>(null);
  const items = options.map((o) => ({ ...o, id: o.key }));
  const nameOf = (o: OptionDraft, index: number) => o.name.trim() || `option ${index + 1}`;
  const sortable = useSortableList({
    items,
    nameOf: (o) =>
      nameOf(
        o,
        options.findIndex((x) => x.key === o.key),
      ),
    onReorder: (ids) => onChange(ids.flatMap((id) => options.filter((o) => o.key === id))),
  });

  useEffect(() => {
    if (focusKey === null) return;
    if (focusKey === '') addRef.current?.focus();
    else listEl.current?.querySelector<HTMLInputElement>(`[data-option-name="${focusKey}"]`)?.focus();
    setFocusKey(null);
  }, [focusKey]);

  const edit = (key: string, change: Partial<OptionDraft>) =>
    onChange(
      options.map((o) => (o.key === key ? { ...o, ...change } : o)),
      'name' in change ? key : undefined,
    );
  const addAfter = (index: number) => {
    const option = newOption(options);
    onChange([...options.slice(0, index + 1), option, ...options.slice(index + 1)]);
    setFocusKey(option.key);
  };
  const remove = (index: number) => {
    const option = options[index];
    if (!option) return;
    const next = options.filter((o) => o.key !== option.key);
    onChange(next);
    sortable.setAnnouncement(`Removed ${nameOf(option, index)}`);
    setFocusKey((next[index] ?? next[index - 1])?.key ?? '');
  };
  const onNameKeyDown = (index: number) => (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key !== 'Enter') return;
    e.preventDefault();
    if (options.length < CUSTOM_FIELD_LIMITS.optionsMax) addAfter(index);
  };

  return (
    <fieldset aria-describedby={error ? errorId : undefined} className="space-y-2">
      <legend id={legendId} className="text-sm font-medium text-slate-700 dark:text-slate-200">
        Options
      </legend>
      {options.length > 0 && (
        <ol
          ref={(node) => {
            listEl.current = node;
            sortable.listRef(node);
          }}
          aria-labelledby={legendId}
          className="space-y-2"
        >
          {options.map((option, index) => {
            const name = nameOf(option, index);
            return (
              <li
                key={option.key}
                data-sortable={option.key}
                aria-label={name}
                className="flex flex-wrap items-start gap-x-2 gap-y-1.5 rounded-lg border border-slate-200 p-2 dark:border-slate-700"
              >
                <div className="flex min-w-0 flex-[1_1_12rem] items-start gap-2">
                  <OptionSwatch color={option.color} className="mt-3" />
                  <TextField
                    label={`Option ${index + 1}`}
                    srOnlyLabel
                    className="min-w-0 flex-1"
                    placeholder="Option name"
                    autoComplete="off"
                    data-option-name={option.key}
                    value={option.name}
                    error={errors[option.key]}
                    onChange={(e) => edit(option.key, { name: e.target.value })}
                    onKeyDown={onNameKeyDown(index)}
                  />
                </div>
                <div className="flex items-center gap-1">
                  <OptionsSelect
                    label={`Colour of ${name}`}
                    srOnlyLabel
                    className="w-28"
                    options={
                      COLOR_OPTIONS.some((c) => c.value === option.color)
                        ? COLOR_OPTIONS
                        : [...COLOR_OPTIONS, { value: option.color, label: colorName(option.color) }]
                    }
                    value={option.color}
                    onChange={(e) => edit(option.key, { color: e.target.value })}
                  />
                  <MoveButtons
                    name={name}
                    isFirst={index === 0}
                    isLast={index === options.length - 1}
                    canMove
                    onMove={(direction) => sortable.move(items[index]!, direction)}
                    className="h-9 w-9"
                    iconClassName="h-4 w-4"
                  />
                  <RowIconButton label={`Remove ${name}`} hint="Remove" className="h-9 w-9" onClick={() => remove(index)}>
                    <X className="h-4 w-4" aria-hidden />
                  </RowIconButton>
                </div>
              </li>
            );
          })}
        </ol>
      )}
      {error && (
        <p id={errorId} className="text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
      <Button
        ref={addRef}
        variant="secondary"
        size="sm"
        disabled={options.length >= CUSTOM_FIELD_LIMITS.optionsMax}
        title={options.length >= CUSTOM_FIELD_LIMITS.optionsMax ? `At most ${CUSTOM_FIELD_LIMITS.optionsMax} options` : undefined}
        onClick={() => addAfter(options.length - 1)}
      >
        <Plus className="h-4 w-4" aria-hidden />
        {FIELD_MSG.addOption}
      </Button>
      <p role="status" className="sr-only">
        {sortable.announcement}
      </p>
    </fieldset>
  );
}
