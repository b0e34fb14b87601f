import { type FormEvent, useId, useState } from 'react';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../../../../domain/constants';
import { createWebhookInput, type WebhookDto } from '../../../../domain/schemas/webhook';
import { Button } from '../../../components/ui/button';
import { CopyField } from '../../../components/ui/copy-field';
import { TextField } from '../../../components/ui/field';
import { Modal, ModalActions } from '../../../components/ui/modal';
import { saveForm } from '../../../lib/save-form';
import { useFormState } from '../../../lib/use-form-state';
import { useCreateWebhook, useUpdateWebhook } from '../api/save-webhook';
import { WEBHOOK_EVENT_LABELS, WEBHOOK_TEXT as T } from './webhook-texts';

export interface WebhookFormDialogProps {
  teamId: string;
  /** The hook to edit; absent: a new one. */
  webhook?: WebhookDto;
  open: boolean;
  onClose: () => void;
}

/** 'Add webhook' (then its secret, shown once) or 'Edit webhook': URL, description and the events to send. */
export function WebhookFormDialog({ teamId, webhook, open, onClose }: WebhookFormDialogProps) {
  const [secret, setSecret] = useState<string | null>(null);
  const close = () => {
    setSecret(null);
    onClose();
  };
  return (
    <Modal open={open} onClose={close} title={secret ? T.secretTitle : webhook ? T.editTitle : T.addTitle} size="lg">
      {secret ? (
        <SecretView secret={secret} onDone={close} />
      ) : (
        <WebhookForm
          key={webhook?.id ?? 'new'}
          teamId={teamId}
          webhook={webhook}
          onCancel={close}
          onCreated={setSecret}
          onSaved={close}
        />
      )}
    </Modal>
  );
}

interface WebhookFormProps {
  teamId: string;
  webhook?: WebhookDto;
  onCancel: () => void;
  onCreated: (secret: string) => void;
  onSaved: () => void;
}

function WebhookForm({ teamId, webhook, onCancel, onCreated, onSaved }: WebhookFormProps) {
  const formId = useId();
  const eventsHintId = useId();
  const form = useFormState<{ url: string; description: string; events: WebhookEventType[] }>({
    url: webhook?.url ?? '',
    description: webhook?.description ?? '',
    events: webhook?.events ?? [],
  });
  const create = useCreateWebhook(teamId);
  const update = useUpdateWebhook(teamId);
  const selected = new Set(form.values.events);
  const allSelected = selected.size === WEBHOOK_EVENT_TYPES.length;

  const toggle = (event: WebhookEventType, on: boolean) => {
    const next = new Set(selected);
    if (on) next.add(event);
    else next.delete(event);
    form.setField(
      'events',
      WEBHOOK_EVENT_TYPES.filter((e) => next.has(e)),
    );
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const input = form.validate(createWebhookInput, { ...form.values, description: form.values.description || null });
    if (!input) return;
    if (webhook) {
      const saved = await saveForm(form, () => update.mutateAsync({ webhookId: webhook.id, input }), {
        saved: T.saved,
        failed: T.saveFailed,
      });
      if (saved) onSaved();
      return;
    }
    let secret = '';
    const created = await saveForm(
      form,
      async () => {
        secret = (await create.mutateAsync(input)).secret;
      },
      { saved: T.created, failed: T.createFailed },
    );
    if (created) onCreated(secret);
  };

  return (
    <form id={formId} onSubmit={(e) => void submit(e)} noValidate className="space-y-4">
      <TextField
        label={T.url}
        type="url"
        inputMode="url"
        autoComplete="off"
        placeholder="https://example.com/hooks/crewboard"
        hint={T.urlHint}
        required
        autoFocus
        {...form.bind('url')}
      />
      <TextField label={T.description} hint={T.descriptionHint} autoComplete="off" {...form.bind('description')} />
      <fieldset aria-describedby={form.errors.events ? eventsHintId : undefined}>
        <legend className="text-sm font-medium text-slate-700 dark:text-slate-200">{T.events}</legend>
        <label className="mt-2 flex items-center gap-2 text-sm font-medium">
          <input
            type="checkbox"
            className="h-4 w-4 rounded border-slate-400 accent-brand-600"
            checked={allSelected}
            ref={(el) => {
              if (el) el.indeterminate = selected.size > 0 && !allSelected;
            }}
            onChange={(e) => form.setField('events', e.target.checked ? [...WEBHOOK_EVENT_TYPES] : [])}
          />
          {T.selectAll}
        </label>
        <div className="mt-2 grid grid-cols-1 gap-x-4 gap-y-2 sm:grid-cols-2">
          {WEBHOOK_EVENT_TYPES.map((event) => (
            <label key={event} className="flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                className="h-4 w-4 rounded border-slate-400 accent-brand-600"
                checked={selected.has(event)}
                onChange={(e) => toggle(event, e.target.checked)}
              />
              <span>{WEBHOOK_EVENT_LABELS[event]}</span>
              <code className="text-xs text-slate-600 dark:text-slate-300">{event}</code>
            </label>
          ))}
        </div>
        {form.errors.events && (
          <p id={eventsHintId} className="mt-2 text-sm text-red-700 dark:text-red-400">
            {form.errors.events}
          </p>
        )}
      </fieldset>
      <div className="flex flex-wrap justify-end gap-2 border-t border-slate-200 pt-4 dark:border-slate-700">
        <ModalActions onCancel={onCancel} type="submit" form={formId} isLoading={create.isPending || update.isPending}>
          {webhook ? T.save : T.add}
        </ModalActions>
      </div>
    </form>
  );
}

function SecretView({ secret, onDone }: { secret: string; onDone: () => void }) {
  const fieldId = useId();
  const helpId = useId();
  return (
    <div className="space-y-3">
      <label htmlFor={fieldId} className="block text-sm font-medium text-slate-700 dark:text-slate-200">
        {T.secretLabel}
      </label>
      <CopyField id={fieldId} value={secret} describedBy={helpId} labels={T} />
      <p id={helpId} className="text-sm text-slate-600 dark:text-slate-300">
        {T.secretHelp}
      </p>
      <div className="flex justify-end border-t border-slate-200 pt-4 dark:border-slate-700">
        <Button onClick={onDone}>{T.done}</Button>
      </div>
    </div>
  );
}
