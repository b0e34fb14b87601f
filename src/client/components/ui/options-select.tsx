import { SelectField, type SelectFieldProps } from './field';

export interface SelectOption {
  value: string;
  label: string;
}

/** The options of one of the domain's constant lists, each shown by its label. */
export const labelled = <T extends string>(values: readonly T[], labels: Record<T, string>): SelectOption[] =>
  values.map((value) => ({ value, label: labels[value] }));

/** The options of records with an id and a name (projects, teams). */
export const named = (items: readonly { id: string; name: string }[] = []): SelectOption[] =>
  items.map(({ id, name }) => ({ value: id, label: name }));

export interface OptionsSelectProps extends Omit<SelectFieldProps, 'children'> {
  options: SelectOption[];
  /** A first option with the empty value ('All Teams', 'Unassigned'…). */
  emptyOption?: string;
}

/** A select field built from a list of options. */
export function OptionsSelect({ options, emptyOption, ...rest }: OptionsSelectProps) {
  return (
    <SelectField {...rest}>
      {emptyOption !== undefined && <option value="">{emptyOption}</option>}
      {options.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
    </SelectField>
  );
}
