import type { QueryKey } from '@tanstack/react-query';
import { format } from 'date-fns';
import { Download, ScrollText } from 'lucide-react';
import { useId, useState } from 'react';
import type { AuditAction } from '../../../../domain/constants';
import { AUDIT_ACTION_LABELS } from '../../../../domain/audit';
import type { AuditEntryDto } from '../../../../domain/schemas/audit';
import { errorText, toastError } from '../../../lib/errors';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { EmptyState } from '../../../components/ui/empty-state';
import { TextField } from '../../../components/ui/field';
import { labelled, OptionsSelect } from '../../../components/ui/options-select';
import { ColumnHeaders } from '../../../components/ui/column-headers';
import { type AuditFilters, downloadAuditCsv, emptyAuditFilters, useAuditLog } from '../api/audit-api';

export interface AuditLogProps {
  title: string;
  description: string;
  /** The log's API path: /api/admin/audit or /api/teams/:id/audit (its CSV is `<path>.csv`). */
  path: string;
  /** The feature's query key for these filters. */
  queryKey: (filters: AuditFilters) => QueryKey;
  /** What the action filter offers. */
  actions: readonly AuditAction[];
}

const COLUMNS = ['Time', 'Actor', 'Action', 'Target', 'IP'] as const;

function actorOf(entry: AuditEntryDto): string {
  if (entry.actorEmail) return entry.actorEmail;
  if (entry.details.via === 'cli' || entry.details.via === 'cli_socket') return 'Command line';
  return entry.actorId ?? 'Unknown';
}

function ActionCell({ entry }: { entry: AuditEntryDto }) {
  const failed = entry.action === 'auth.sign_in_failed';
  return (
    <span className={failed ? 'font-medium text-red-700 dark:text-red-300' : 'font-medium text-slate-900 dark:text-slate-100'}>
      {AUDIT_ACTION_LABELS[entry.action]}
    </span>
  );
}

function TargetCell({ entry }: { entry: AuditEntryDto }) {
  const label = entry.targetLabel ?? entry.targetId;
  if (!label) return <span className="text-slate-600 dark:text-slate-400">—</span>;
  return (
    <span className="block min-w-0">
      <span className="block truncate text-slate-900 dark:text-slate-100" title={label}>
        {label}
      </span>
      {entry.targetType && <span className="block text-xs text-slate-600 dark:text-slate-400">{entry.targetType}</span>}
    </span>
  );
}

function SkeletonRows() {
  return (
    <div className="space-y-2 p-4" aria-hidden>
      {[0, 1, 2, 3, 4].map((i) => (
        <div key={i} className="h-9 animate-pulse rounded-md bg-slate-100 dark:bg-slate-800" />
      ))}
    </div>
  );
}

/**
 * An audit log (issue 26): filters (actor, action, from/to), a table (time, actor, action, target, IP), newest first,
 * 'Load more' for older rows and 'Download CSV' for every row the filters match. Used by the admin panel (everything)
 * and the team settings page (the team's rows).
 */
export function AuditLog({ title, description, path, queryKey, actions }: AuditLogProps) {
  const headingId = useId();
  const [form, setForm] = useState<AuditFilters>(emptyAuditFilters);
  const actor = useDebouncedValue(form.actor);
  const filters: AuditFilters = { ...form, actor };
  const log = useAuditLog(path, filters, queryKey(filters));
  const [downloading, setDownloading] = useState(false);
  const entries = log.data?.pages.flatMap((p) => p.entries) ?? [];
  const filtered = Boolean(filters.actor.trim() || filters.action || filters.from || filters.to);
  const set = (key: keyof AuditFilters) => (e: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [key]: e.target.value }));

  const download = async () => {
    setDownloading(true);
    try {
      await downloadAuditCsv(path, filters);
    } catch (error) {
      toastError(error, 'Failed to download the audit log');
    } finally {
      setDownloading(false);
    }
  };

  return (
    <section aria-labelledby={headingId} data-audit-log="">
      <Card className="min-w-0 p-4">
        <div className="mb-4 flex flex-wrap items-start justify-between gap-3">
          <div>
            <h2 id={headingId} className="flex items-center gap-2 text-lg font-semibold">
              <ScrollText className="h-5 w-5 text-brand-700 dark:text-indigo-300" aria-hidden />
              {title}
            </h2>
            <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{description}</p>
          </div>
          <Button variant="secondary" onClick={() => void download()} isLoading={downloading}>
            <Download className="h-4 w-4" aria-hidden />
            Download CSV
          </Button>
        </div>

        <div className="mb-4 grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
          <TextField
            label="Actor"
            type="search"
            placeholder="Email contains…"
            value={form.actor}
            onChange={set('actor')}
            autoComplete="off"
          />
          <OptionsSelect
            label="Action"
            value={form.action}
            onChange={set('action')}
            emptyOption="All actions"
            options={labelled(actions, AUDIT_ACTION_LABELS)}
          />
          <TextField label="From" type="date" value={form.from} max={form.to || undefined} onChange={set('from')} />
          <TextField label="To" type="date" value={form.to} min={form.from || undefined} onChange={set('to')} />
        </div>

        {log.isPending ? (
          <SkeletonRows />
        ) : log.isError ? (
          <EmptyState
            title="The audit log could not be loaded"
            message={errorText(log.error, '')}
            action={
              <Button variant="secondary" onClick={() => void log.refetch()}>
                Try again
              </Button>
            }
          />
        ) : entries.length === 0 ? (
          <EmptyState
            icon={<ScrollText className="h-8 w-8" aria-hidden />}
            title={filtered ? 'No entries match these filters' : 'No audit entries yet'}
            message={filtered ? 'Change or clear the filters to see more.' : 'Security-relevant actions will be listed here.'}
          />
        ) : (
          <>
            {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard */}
            <div className="overflow-x-auto" tabIndex={0} role="region" aria-label={`${title} entries`}>
              <table className="w-full min-w-[44rem] text-left text-sm">
                <caption className="sr-only">{`${title}, newest first`}</caption>
                <thead className="border-b border-slate-200 text-xs uppercase tracking-wide text-slate-600 dark:border-slate-700 dark:text-slate-400">
                  <tr>
                    <ColumnHeaders labels={COLUMNS} className="px-3 py-2 font-medium" />
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
                  {entries.map((entry) => (
                    <tr key={entry.id} className="align-top">
                      <td className="whitespace-nowrap px-3 py-2 text-slate-700 dark:text-slate-300">
                        <time dateTime={entry.createdAt}>{format(new Date(entry.createdAt), 'MMM dd, yyyy HH:mm:ss')}</time>
                      </td>
                      <td className="max-w-[14rem] truncate px-3 py-2 text-slate-700 dark:text-slate-300" title={actorOf(entry)}>
                        {actorOf(entry)}
                      </td>
                      <td className="px-3 py-2">
                        <ActionCell entry={entry} />
                      </td>
                      <td className="max-w-[16rem] px-3 py-2">
                        <TargetCell entry={entry} />
                      </td>
                      <td className="whitespace-nowrap px-3 py-2 font-mono text-xs text-slate-700 dark:text-slate-300">
                        {entry.ip ?? '—'}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <div className="mt-3 flex items-center justify-between gap-3">
              <p className="text-xs text-slate-600 dark:text-slate-400" aria-live="polite">
                {`${entries.length} ${entries.length === 1 ? 'entry' : 'entries'} shown`}
              </p>
              {log.hasNextPage && (
                <Button variant="secondary" onClick={() => void log.fetchNextPage()} isLoading={log.isFetchingNextPage}>
                  Load more
                </Button>
              )}
            </div>
          </>
        )}
      </Card>
    </section>
  );
}
