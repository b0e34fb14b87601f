import { useId } from 'react';
import { Link } from 'react-router';
import { cn } from '../../../lib/cn';
import type { Cell, DataColumn, DataTable } from '../analytics-data';

const th = 'whitespace-nowrap px-3 py-2 text-xs font-semibold uppercase tracking-wide text-slate-600 dark:text-slate-300';
const td = 'px-3 py-2 text-slate-800 dark:text-slate-200';
const cellClass = (column: DataColumn | undefined) =>
  cn(td, column?.wrap ? 'min-w-[10rem]' : 'whitespace-nowrap', column?.numeric && 'text-right tabular-nums');

function CellContent({ cell }: { cell: Cell }) {
  if (cell === null) {
    return (
      <>
        <span aria-hidden>–</span>
        <span className="sr-only">none</span>
      </>
    );
  }
  if (typeof cell === 'object') {
    return (
      <Link to={cell.href} className="font-medium text-brand-700 underline-offset-2 hover:underline dark:text-indigo-300">
        {cell.text}
      </Link>
    );
  }
  return <>{cell}</>;
}

/**
 * A chart's data as a real table: a caption, column headers and row headers with their scope. It scrolls
 * sideways inside its own box (focusable, so keyboard users can scroll it too) rather than widening the page.
 */
export function DataTableView({ table, empty }: { table: DataTable; empty?: string }) {
  const captionId = useId();
  return (
    <div
      role="region"
      aria-labelledby={captionId}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling box must be reachable by keyboard (WCAG 2.1.1, axe scrollable-region-focusable)
      tabIndex={0}
      className="overflow-x-auto rounded-lg border border-slate-200 dark:border-slate-700"
    >
      <table className="w-full text-left text-sm">
        <caption id={captionId} className="px-3 py-2 text-left text-xs text-slate-600 dark:text-slate-300">
          {table.caption}
        </caption>
        <thead className="bg-slate-50 dark:bg-slate-800">
          <tr>
            {table.columns.map((column) => (
              <th key={column.label} scope="col" className={cn(th, column.numeric && 'text-right')}>
                {column.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
          {table.rows.length === 0 ? (
            <tr>
              <td colSpan={table.columns.length} className={cn(td, 'text-center text-slate-600 dark:text-slate-300')}>
                {empty ?? 'No data.'}
              </td>
            </tr>
          ) : (
            table.rows.map((row, r) => (
              // Rows are positions in a fixed series (weeks, statuses): their index is their identity.
              // biome-ignore lint/suspicious/noArrayIndexKey: see above.
              <tr key={r}>
                {row.map((cell, c) =>
                  c === 0 ? (
                    <th key={table.columns[c]?.label} scope="row" className={cn(cellClass(table.columns[c]), 'font-medium')}>
                      <CellContent cell={cell} />
                    </th>
                  ) : (
                    <td key={table.columns[c]?.label} className={cellClass(table.columns[c])}>
                      <CellContent cell={cell} />
                    </td>
                  ),
                )}
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}
