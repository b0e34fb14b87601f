import { toast } from 'sonner';
import { PageSection } from '../../../components/ui/page-section';
import { type ResettableLinkLabels, ResettableLink } from '../../../components/ui/resettable-link';
import { Spinner } from '../../../components/ui/spinner';
import { Switch } from '../../../components/ui/switch';
import { toastError } from '../../../lib/errors';
import { useIntake, useResetIntake, useSetIntake } from '../api/intake';
import { INTAKE_TEXT as T } from './intake-texts';

const LINK_LABELS: ResettableLinkLabels = {
  field: T.addressLabel,
  hint: T.addressHint,
  unavailable: T.addressUnavailable,
  copy: T.copy,
  copied: T.copied,
  copyFailed: T.copyFailed,
  reset: T.reset,
  confirmTitle: T.resetConfirmTitle,
  confirmMessage: T.resetConfirmMessage,
};

/**
 * Project settings → 'Email to this project' (issue 40, tasks by email), for those who may edit the project: a note
 * when the server receives no mail (no INBOUND_MAIL_DOMAIN); else the switch, and when on the address with 'Copy' and
 * 'Reset' (confirmed: the old address is refused at once). The server checks each request again.
 */
export function IntakeSection({ projectId, canEdit }: { projectId: string; canEdit: boolean }) {
  const intake = useIntake(projectId, canEdit);
  const save = useSetIntake(projectId);
  const reset = useResetIntake(projectId);
  if (!canEdit) return null;
  const busy = save.isPending || reset.isPending;

  // The switch is never disabled while a change is saved (a disabled button drops the keyboard focus to the page): a
  // flip meanwhile is ignored instead.
  const change = async (enabled: boolean) => {
    if (busy) return;
    try {
      await save.mutateAsync({ enabled });
      toast.success(enabled ? T.turnedOn : T.turnedOff);
    } catch (error) {
      toastError(error, T.saveFailed);
    }
  };
  const doReset = async () => {
    try {
      await reset.mutateAsync(undefined);
      toast.success(T.resetDone);
    } catch (error) {
      toastError(error, T.saveFailed);
    }
  };

  const data = intake.data;
  return (
    <PageSection headingId="intake-heading" title={T.intakeSection} description={T.sectionDescription}>
      {intake.isPending ? (
        <Spinner />
      ) : intake.isError || !data ? (
        <p className="text-sm text-red-700 dark:text-red-400">{T.loadFailed}</p>
      ) : !data.configured ? (
        <p className="rounded-lg border border-slate-200 bg-slate-50 p-3 text-sm text-slate-700 dark:border-slate-700 dark:bg-slate-800/60 dark:text-slate-200">
          {T.notConfigured}
        </p>
      ) : (
        <div className="max-w-2xl space-y-4">
          <Switch
            label={T.switchLabel}
            description={T.switchDescription}
            checked={data.enabled}
            onCheckedChange={(enabled) => void change(enabled)}
          />
          {data.enabled && (
            <ResettableLink value={data.address} labels={LINK_LABELS} busy={busy} resetting={reset.isPending} onReset={doReset} />
          )}
        </div>
      )}
    </PageSection>
  );
}
