import { ChevronDown, Download } from 'lucide-react';
import { type ReactNode, useId, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { cn } from '../../../lib/cn';
import { saveBlob } from '../../../lib/download';
import { type DataTable, tableCsv } from '../analytics-data';
import { TEXT } from '../analytics-text';
import { DataTableView } from './data-table';

export interface ChartSectionProps {
  title: string;
  explanation: string;
  /** The chart's data as a table: shown by 'Show data' (or always, with `tableOnly`), and the CSV's content. */
  table: DataTable;
  fileName: string;
  /** Controls of this chart alone (the burn-up's project). */
  controls?: ReactNode;
  /** The chart, with its legend. */
  children?: ReactNode;
  /** A section that is a table (Ageing): no chart, no toggle. */
  tableOnly?: boolean;
  /** What the table shows instead of rows when there are none. */
  emptyTable?: string;
  className?: string;
}

/** Starts a download of a text file made here (no request: the data is on the page already). */
function downloadCsv(fileName: string, csv: string) {
  // The byte-order mark tells Excel the file is UTF-8 (accented names would come out garbled without it).
  saveBlob(new Blob(['\uFEFF', csv], { type: 'text/csv;charset=utf-8' }), fileName);
}

/**
 * One chart of the page: a heading, a line saying what it shows, the chart, a 'Show data' disclosure with the
 * table (the chart's full text alternative), and 'Download CSV' of the same rows and columns.
 */
export function ChartSection({
  title,
  explanation,
  table,
  fileName,
  controls,
  children,
  tableOnly,
  emptyTable,
  className,
}: ChartSectionProps) {
  const id = useId();
  const headingId = `${id}-title`;
  const tableId = `${id}-data`;
  const [isOpen, setOpen] = useState(false);

  return (
    <Card className={cn('min-w-0 p-4 sm:p-5', className)}>
      <section aria-labelledby={headingId} className="flex min-w-0 flex-col gap-3">
        <div>
          <h2 id={headingId} className="text-base font-semibold">
            {title}
          </h2>
          <p className="mt-0.5 text-sm text-slate-600 dark:text-slate-300">{explanation}</p>
        </div>
        {controls}
        {tableOnly ? <DataTableView table={table} empty={emptyTable} /> : children}
        <div className="flex flex-wrap gap-2">
          {!tableOnly && (
            <Button
              variant="secondary"
              size="sm"
              aria-expanded={isOpen}
              aria-controls={tableId}
              onClick={() => setOpen((open) => !open)}
            >
              <ChevronDown className={cn('h-4 w-4 transition-transform', isOpen && 'rotate-180')} aria-hidden />
              {TEXT.showData}
              <span className="sr-only"> of {title}</span>
            </Button>
          )}
          <Button variant="secondary" size="sm" onClick={() => downloadCsv(fileName, tableCsv(table))}>
            <Download className="h-4 w-4" aria-hidden />
            {TEXT.downloadCsv}
            <span className="sr-only"> of {title}</span>
          </Button>
        </div>
        {!tableOnly && (
          <div id={tableId} hidden={!isOpen} className="min-w-0">
            {isOpen && <DataTableView table={table} empty={emptyTable} />}
          </div>
        )}
      </section>
    </Card>
  );
}
