import { ChevronDown, ChevronRight, Pause, Pencil, Play, Plus, Send, Trash2 } from 'lucide-react';
import { useId, useState } from 'react';
import { toast } from 'sonner';
import type { BadgeTone } from '../../../../domain/constants';
import { relativeTime } from '../../../../domain/dates';
import type { TeamDto } from '../../../../domain/schemas/team';
import type { WebhookDto, WebhookStatus } from '../../../../domain/schemas/webhook';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { PageSection } from '../../../components/ui/page-section';
import { Spinner } from '../../../components/ui/spinner';
import { toastError } from '../../../lib/errors';
import { useWebhooks } from '../api/get-webhooks';
import { useDeleteWebhook, useUpdateWebhook } from '../api/save-webhook';
import { useSendTestEvent } from '../api/webhook-deliveries';
import { WebhookDeliveries } from './webhook-deliveries';
import { WebhookFormDialog } from './webhook-form-dialog';
import { WEBHOOK_EVENT_LABELS, WEBHOOK_STATUS_LABELS, WEBHOOK_TEXT as T } from './webhook-texts';

const STATUS_TONES: Record<WebhookStatus, BadgeTone> = { active: 'success', paused: 'secondary', failing: 'danger' };

/** Team settings → Webhooks (issue 26), for the team's owners and admins (the server checks every request). */
export function WebhooksSection({ team }: { team: TeamDto }) {
  const hooks = useWebhooks(team.id);
  const [adding, setAdding] = useState(false);
  return (
    <PageSection
      headingId="webhooks-heading"
      title={T.section}
      description={T.sectionDescription}
      action={
        <Button onClick={() => setAdding(true)}>
          <Plus className="h-4 w-4" aria-hidden />
          {T.add}
        </Button>
      }
    >
      {hooks.isPending ? (
        <Spinner />
      ) : hooks.isError ? (
        <p className="text-sm text-red-700 dark:text-red-400">{T.loadFailed}</p>
      ) : hooks.data.webhooks.length === 0 ? (
        <p className="rounded-xl border border-dashed border-slate-300 p-5 text-sm text-slate-600 dark:border-slate-600 dark:text-slate-300">
          {T.empty}
        </p>
      ) : (
        <ul className="space-y-3">
          {hooks.data.webhooks.map((hook) => (
            <WebhookItem key={hook.id} teamId={team.id} hook={hook} />
          ))}
        </ul>
      )}
      <WebhookFormDialog teamId={team.id} open={adding} onClose={() => setAdding(false)} />
    </PageSection>
  );
}

function WebhookItem({ teamId, hook }: { teamId: string; hook: WebhookDto }) {
  const [editing, setEditing] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [showLog, setShowLog] = useState(false);
  const update = useUpdateWebhook(teamId);
  const remove = useDeleteWebhook(teamId);
  const test = useSendTestEvent(teamId);
  const logId = useId();
  const logHeadingId = useId();

  const togglePaused = async () => {
    try {
      await update.mutateAsync({ webhookId: hook.id, input: { active: !hook.active } });
      toast.success(hook.active ? T.paused : T.resumed);
    } catch (error) {
      toastError(error, T.saveFailed);
    }
  };

  const sendTest = async () => {
    try {
      await test.mutateAsync(hook.id);
      toast.success(T.testSent);
      setShowLog(true);
    } catch (error) {
      toastError(error, T.testFailed);
    }
  };

  const confirmRemove = async () => {
    try {
      await remove.mutateAsync(hook.id);
      setConfirmDelete(false);
      toast.success(T.deleted);
    } catch (error) {
      toastError(error, T.deleteFailed);
    }
  };

  return (
    <li className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-700 dark:bg-slate-900">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-2">
            <h3 className="min-w-0 break-all font-mono text-sm font-semibold">{hook.url}</h3>
            <Badge tone={STATUS_TONES[hook.status]}>{WEBHOOK_STATUS_LABELS[hook.status]}</Badge>
          </div>
          {hook.description && <p className="mt-1 text-sm text-slate-700 dark:text-slate-200">{hook.description}</p>}
          {hook.failingSince && (
            <p className="mt-1 text-sm text-red-700 dark:text-red-400">
              {T.failingSince} <time dateTime={hook.failingSince}>{relativeTime(new Date(hook.failingSince), new Date())}</time>
            </p>
          )}
          <ul className="mt-2 flex flex-wrap gap-1" aria-label={`Events sent to ${hook.url}`}>
            {hook.events.map((event) => (
              <li key={event}>
                <Badge tone="info">{WEBHOOK_EVENT_LABELS[event]}</Badge>
              </li>
            ))}
          </ul>
        </div>
      </div>
      <div className="mt-3 flex flex-wrap gap-2">
        <Button variant="secondary" size="sm" onClick={() => void sendTest()} isLoading={test.isPending}>
          <Send className="h-3.5 w-3.5" aria-hidden />
          {T.sendTest}
        </Button>
        <Button variant="secondary" size="sm" onClick={() => setEditing(true)}>
          <Pencil className="h-3.5 w-3.5" aria-hidden />
          {T.edit}
        </Button>
        <Button variant="secondary" size="sm" onClick={() => void togglePaused()} isLoading={update.isPending}>
          {hook.active ? <Pause className="h-3.5 w-3.5" aria-hidden /> : <Play className="h-3.5 w-3.5" aria-hidden />}
          {hook.active ? T.pause : T.resume}
        </Button>
        <Button variant="secondary" size="sm" onClick={() => setConfirmDelete(true)} className="text-red-700 dark:text-red-300">
          <Trash2 className="h-3.5 w-3.5" aria-hidden />
          {T.delete}
        </Button>
        <Button variant="ghost" size="sm" aria-expanded={showLog} aria-controls={logId} onClick={() => setShowLog((v) => !v)}>
          {showLog ? <ChevronDown className="h-4 w-4" aria-hidden /> : <ChevronRight className="h-4 w-4" aria-hidden />}
          {T.showLog}
        </Button>
      </div>
      {showLog && (
        <div id={logId} className="mt-4 space-y-2">
          <h4 id={logHeadingId} className="text-sm font-semibold">
            {T.log}
          </h4>
          <WebhookDeliveries teamId={teamId} webhookId={hook.id} headingId={logHeadingId} />
        </div>
      )}
      <WebhookFormDialog teamId={teamId} webhook={hook} open={editing} onClose={() => setEditing(false)} />
      <ConfirmDialog
        open={confirmDelete}
        title={T.deleteTitle}
        message={T.deleteMessage}
        confirmLabel={T.delete}
        isLoading={remove.isPending}
        onConfirm={() => void confirmRemove()}
        onCancel={() => setConfirmDelete(false)}
      />
    </li>
  );
}
