import { RefreshCw } from 'lucide-react';
import { useId, useState } from 'react';
import { toast } from 'sonner';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { CopyField } from '../../../components/ui/copy-field';
import { PageSection } from '../../../components/ui/page-section';
import { Spinner } from '../../../components/ui/spinner';
import { Switch } from '../../../components/ui/switch';
import { toastError } from '../../../lib/errors';
import { useIntake, useResetIntake, useSetIntake } from '../api/intake';
import { INTAKE_TEXT as T } from './intake-texts';

/**
 * Project settings → 'Email to this project' (issue 40, tasks by email), for those who may edit the project: a note
 * when the server receives no mail (no INBOUND_MAIL_DOMAIN); else the switch, and when on the address with 'Copy' and
 * 'Reset' (confirmed: the old address is refused at once). The server checks each request again.
 */
export function IntakeSection({ projectId, canEdit }: { projectId: string; canEdit: boolean }) {
  const intake = useIntake(projectId, canEdit);
  const save = useSetIntake(projectId);
  const reset = useResetIntake(projectId);
  const [confirmReset, setConfirmReset] = useState(false);
  const addressId = useId();
  const hintId = useId();
  if (!canEdit) return null;
  const busy = save.isPending || reset.isPending;

  const change = async (enabled: boolean) => {
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
    } finally {
      setConfirmReset(false);
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
            disabled={busy}
            onCheckedChange={(enabled) => void change(enabled)}
          />
          {data.enabled && (
            <div className="space-y-2">
              {data.address ? (
                <>
                  <label htmlFor={addressId} className="text-sm font-medium text-slate-800 dark:text-slate-100">
                    {T.addressLabel}
                  </label>
                  <CopyField
                    id={addressId}
                    value={data.address}
                    describedBy={hintId}
                    labels={{ copy: T.copy, copied: T.copied, copyFailed: T.copyFailed }}
                  />
                </>
              ) : (
                <p className="text-sm text-slate-700 dark:text-slate-200">{T.addressUnavailable}</p>
              )}
              <div className="flex flex-wrap items-center justify-between gap-2">
                <p id={hintId} className="text-sm text-slate-600 dark:text-slate-300">
                  {T.addressHint}
                </p>
                <Button variant="secondary" size="sm" disabled={busy} onClick={() => setConfirmReset(true)}>
                  <RefreshCw className="h-4 w-4" aria-hidden />
                  {T.reset}
                </Button>
              </div>
            </div>
          )}
        </div>
      )}
      <ConfirmDialog
        open={confirmReset}
        title={T.resetConfirmTitle}
        message={T.resetConfirmMessage}
        confirmLabel={T.reset}
        isLoading={reset.isPending}
        onConfirm={() => void doReset()}
        onCancel={() => setConfirmReset(false)}
      />
    </PageSection>
  );
}
