import { toast } from 'sonner';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';
import { type ResettableLinkLabels, ResettableLink } from '../../../components/ui/resettable-link';
import { Spinner } from '../../../components/ui/spinner';
import { Switch } from '../../../components/ui/switch';
import { toastError } from '../../../lib/errors';
import { useResetShare, useSaveShare, useShareSettings } from '../api/share-settings';
import { SHARE_TEXT as T } from './share-texts';

const LINK_LABELS: ResettableLinkLabels = {
  field: T.linkLabel,
  hint: T.linkHint,
  unavailable: T.linkUnavailable,
  copy: T.copyLink,
  copied: T.copied,
  copyFailed: T.copyFailed,
  reset: T.resetLink,
  confirmTitle: T.resetConfirmTitle,
  confirmMessage: T.resetConfirmMessage,
};

export interface ShareDialogProps {
  projectId: string;
  projectName: string;
  open: boolean;
  onClose: () => void;
}

/**
 * 'Share' (issue 40): the project's public link, off by default. On, it shows the link with 'Copy link' and 'Reset
 * link' (confirmed: the old link stops at once), and what the shared page shows ('Show people', 'Show descriptions').
 * Each switch applies at once (the server checks the caller may edit the project).
 */
export function ShareDialog({ projectId, projectName, open, onClose }: ShareDialogProps) {
  const settings = useShareSettings(projectId, open);
  const save = useSaveShare(projectId);
  const reset = useResetShare(projectId);
  const busy = save.isPending || reset.isPending;

  // A switch is never disabled while a change is saved (a disabled button drops the keyboard focus to the page):
  // a flip meanwhile is ignored instead.
  const change = async (input: { enabled: boolean; showPeople?: boolean; showDescriptions?: boolean }, done?: string) => {
    if (busy) return;
    try {
      await save.mutateAsync(input);
      if (done) toast.success(done);
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

  const data = settings.data;
  return (
    <Modal open={open} onClose={onClose} title={T.dialogTitle(projectName)} description={T.dialogDescription}>
      {settings.isPending ? (
        <Spinner />
      ) : settings.isError || !data ? (
        <div role="alert" className="space-y-3">
          <p className="text-sm text-red-700 dark:text-red-400">{T.loadFailed}</p>
          <Button variant="secondary" size="sm" onClick={() => void settings.refetch()}>
            {T.retry}
          </Button>
        </div>
      ) : (
        <div className="space-y-5">
          <Switch
            label={T.publicLink}
            description={T.publicLinkDescription}
            checked={data.enabled}
            onCheckedChange={(enabled) => void change({ enabled }, enabled ? T.turnedOn : T.turnedOff)}
          />
          {data.enabled && (
            <>
              <ResettableLink value={data.url} labels={LINK_LABELS} busy={busy} resetting={reset.isPending} onReset={doReset} />
              <fieldset className="space-y-4 border-t border-slate-200 pt-4 dark:border-slate-700">
                <legend className="sr-only">{T.optionsLegend}</legend>
                <Switch
                  label={T.showPeople}
                  description={T.showPeopleDescription}
                  checked={data.showPeople}
                  onCheckedChange={(showPeople) => void change({ enabled: true, showPeople })}
                />
                <Switch
                  label={T.showDescriptions}
                  description={T.showDescriptionsDescription}
                  checked={data.showDescriptions}
                  onCheckedChange={(showDescriptions) => void change({ enabled: true, showDescriptions })}
                />
              </fieldset>
            </>
          )}
        </div>
      )}
    </Modal>
  );
}
