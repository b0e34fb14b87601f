import type { ReactNode } from 'react';
import { inputClass } from '../../../components/ui/field';
import { ColumnHeaders } from '../../../components/ui/column-headers';

export interface MappingRow<T extends string> {
  id: string;
  /** What the row maps (a CSV column, a Trello list), its row header. */
  name: string;
  /** Shown after the name (e.g. 'Archived'); when given, even as `false`, a space separates them. */
  badge?: ReactNode;
  /** Counts shown between the name and the choice, one per `countColumns`. */
  counts?: readonly number[];
  /** The accessible name of the row's select ('Field for "Title"'). */
  choiceLabel: string;
  value: T;
}

export interface MappingTableProps<T extends string> {
  nameColumn: string;
  countColumns?: readonly string[];
  choiceColumn: string;
  rows: readonly MappingRow<T>[];
  choices: readonly T[];
  choiceText: (choice: T) => string;
  onChoose: (id: string, choice: T) => void;
}

/** The mapping step of an import: one row per thing read from the file, a select of what it becomes. */
export function MappingTable<T extends string>({
  nameColumn,
  countColumns = [],
  choiceColumn,
  rows,
  choices,
  choiceText,
  onChoose,
}: MappingTableProps<T>) {
  return (
    <table className="w-full text-left text-sm">
      <thead className="text-xs uppercase tracking-wide text-slate-600 dark:text-slate-300">
        <tr>
          <th scope="col" className="py-2 pr-3 font-semibold">
            {nameColumn}
          </th>
          <ColumnHeaders labels={countColumns} className="py-2 pr-3 text-right font-semibold" />
          <th scope="col" className="py-2 font-semibold">
            {choiceColumn}
          </th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-200 dark:divide-slate-700">
        {rows.map((row) => (
          <tr key={row.id}>
            <th scope="row" className="py-2 pr-3 font-medium">
              <span className="break-words">{row.name}</span>
              {row.badge !== undefined && <> {row.badge}</>}
            </th>
            {(row.counts ?? []).map((count, i) => (
              <td key={countColumns[i]} className="py-2 pr-3 text-right tabular-nums">
                {count}
              </td>
            ))}
            <td className="py-2">
              <select
                aria-label={row.choiceLabel}
                className={inputClass}
                value={row.value}
                onChange={(e) => onChoose(row.id, e.target.value as T)}
              >
                {choices.map((c) => (
                  <option key={c} value={c}>
                    {choiceText(c)}
                  </option>
                ))}
              </select>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
