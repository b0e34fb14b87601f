import { RotateCcw } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import type { BadgeTone } from '../../../../domain/constants';
import { relativeTime } from '../../../../domain/dates';
import type { WebhookDeliveryDto, WebhookDeliveryStatus } from '../../../../domain/schemas/webhook';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { ColumnHeaders } from '../../../components/ui/column-headers';
import { toastError } from '../../../lib/errors';
import { useRedeliver, useWebhookDeliveries } from '../api/webhook-deliveries';
import { DELIVERY_STATUS_LABELS, WEBHOOK_TEXT as T } from './webhook-texts';

const PAGE = 20;

const STATUS_TONES: Record<WebhookDeliveryStatus, BadgeTone> = { pending: 'warning', delivered: 'success', failed: 'danger' };

export interface WebhookDeliveriesProps {
  teamId: string;
  webhookId: string;
  /** The heading's id, for the table's name. */
  headingId: string;
}

/** One hook's delivery log, newest first: event, time, status, response code, duration, and 'Redeliver'. */
export function WebhookDeliveries({ teamId, webhookId, headingId }: WebhookDeliveriesProps) {
  const [limit, setLimit] = useState(PAGE);
  const log = useWebhookDeliveries(teamId, webhookId, limit);
  const redeliver = useRedeliver(teamId, webhookId);

  const again = async (delivery: WebhookDeliveryDto) => {
    try {
      await redeliver.mutateAsync(delivery.id);
      toast.success(T.redelivered);
    } catch (error) {
      toastError(error, T.redeliverFailed);
    }
  };

  if (log.isPending) return <Spinner />;
  if (log.isError) return <p className="text-sm text-red-700 dark:text-red-400">{T.logFailed}</p>;
  const { deliveries, total } = log.data;
  if (deliveries.length === 0) return <p className="text-sm text-slate-600 dark:text-slate-300">{T.logEmpty}</p>;
  const now = new Date();
  const cell = 'px-3 py-2 align-middle';
  return (
    <div className="space-y-2">
      <div className="overflow-x-auto rounded-lg border border-slate-200 dark:border-slate-700">
        <table className="w-full min-w-[36rem] text-left text-sm" aria-labelledby={headingId}>
          <thead className="bg-slate-50 text-xs uppercase tracking-wide text-slate-600 dark:bg-slate-800 dark:text-slate-300">
            <tr>
              <ColumnHeaders
                labels={[T.columns.event, T.columns.time, T.columns.status, T.columns.code, T.columns.duration]}
                className={cell}
              />
              <th scope="col" className={cell}>
                <span className="sr-only">{T.columns.actions}</span>
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-200 dark:divide-slate-700">
            {deliveries.map((d) => (
              <tr key={d.id}>
                <td className={`${cell} font-mono text-xs`}>{d.eventType}</td>
                <td className={cell}>
                  <time dateTime={d.createdAt} title={new Date(d.createdAt).toLocaleString()}>
                    {relativeTime(new Date(d.createdAt), now)}
                  </time>
                </td>
                <td className={cell}>
                  <Badge tone={STATUS_TONES[d.status]}>{DELIVERY_STATUS_LABELS[d.status]}</Badge>
                  <span className="ml-2 text-xs text-slate-600 dark:text-slate-300">
                    {d.attempts === 1 ? '1 attempt' : `${d.attempts} attempts`}
                  </span>
                  {d.lastError && d.status !== 'delivered' && (
                    <span className="mt-1 block max-w-xs truncate text-xs text-slate-600 dark:text-slate-300" title={d.lastError}>
                      {d.lastError}
                    </span>
                  )}
                </td>
                <td className={`${cell} tabular-nums`}>{d.lastStatusCode ?? '—'}</td>
                <td className={`${cell} tabular-nums`}>{d.lastDurationMs === null ? '—' : `${d.lastDurationMs} ms`}</td>
                <td className={`${cell} text-right`}>
                  <Button
                    variant="secondary"
                    size="sm"
                    onClick={() => void again(d)}
                    disabled={redeliver.isPending}
                    aria-label={`${T.redeliver} ${d.eventType} (${DELIVERY_STATUS_LABELS[d.status].toLowerCase()})`}
                  >
                    <RotateCcw className="h-3.5 w-3.5" aria-hidden />
                    {T.redeliver}
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {total > deliveries.length && (
        <Button variant="ghost" size="sm" onClick={() => setLimit((n) => Math.min(n + PAGE, 100))} disabled={limit >= 100}>
          {T.showMore}
        </Button>
      )}
    </div>
  );
}
