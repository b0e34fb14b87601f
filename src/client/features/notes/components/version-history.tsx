import { History, RotateCcw, Save } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import type { NoteVersionDto } from '../../../../domain/schemas/note';
import { relativeTime } from '../../../../domain/dates';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { EmptyState } from '../../../components/ui/empty-state';
import { Modal } from '../../../components/ui/modal';
import { Spinner } from '../../../components/ui/spinner';
import { cn } from '../../../lib/cn';
import { toastError } from '../../../lib/errors';
import { useRestoreVersion, useSaveVersion, useVersion, useVersions } from '../api/notes';
import { VersionPreview } from '../editor/version-preview';

export const VERSION_KIND_LABELS: Record<NoteVersionDto['kind'], string> = {
  auto: 'Automatic snapshot',
  manual: 'Saved version',
  restore: 'Restored version',
};

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/**
 * 'Version history': the note's versions, newest first (snapshots every few minutes of editing, saved ones, restores);
 * one previewed read-only; 'Restore this version' (confirmed) makes it the live content for everyone, as a new version.
 */
export function VersionHistory({ noteId, onClose, canEdit }: { noteId: string; onClose: () => void; canEdit: boolean }) {
  const versions = useVersions(noteId, true);
  const [selected, setSelected] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const save = useSaveVersion(noteId);
  const restore = useRestoreVersion(noteId);
  const list = versions.data ?? [];
  const current = selected ?? list[0]?.id ?? null;
  const detail = useVersion(noteId, current);
  const now = new Date();

  const onSave = async () => {
    try {
      await save.mutateAsync();
      setSelected(null);
      toast.success('Version saved');
    } catch (error) {
      toastError(error, 'Failed to save a version');
    }
  };
  const onRestore = async () => {
    if (!current) return;
    try {
      await restore.mutateAsync(current);
      toast.success('Version restored');
      setConfirming(false);
      onClose();
    } catch (error) {
      setConfirming(false);
      toastError(error, 'Failed to restore the version');
    }
  };

  const chosen = list.find((v) => v.id === current);
  return (
    <>
      <Modal open={!confirming} onClose={onClose} title="Version history" size="xl">
        <div className="flex flex-col gap-4 md:flex-row">
          <div className="md:w-64 md:shrink-0">
            {canEdit && (
              <Button variant="secondary" className="mb-3 w-full justify-center" onClick={onSave} isLoading={save.isPending}>
                <Save className="h-4 w-4" aria-hidden />
                Save version
              </Button>
            )}
            {versions.isPending ? (
              <Spinner label="Loading versions..." />
            ) : versions.isError ? (
              <EmptyState
                title="Failed to load the versions"
                action={
                  <Button variant="secondary" onClick={() => void versions.refetch()}>
                    Try again
                  </Button>
                }
              />
            ) : list.length === 0 ? (
              <EmptyState
                icon={<History className="h-8 w-8" />}
                title="No versions yet"
                message="Save one, or keep editing: a snapshot is taken every few minutes."
              />
            ) : (
              <ul aria-label="Versions" className="max-h-[50vh] space-y-1 overflow-y-auto md:max-h-[60vh]">
                {list.map((v) => (
                  <li key={v.id}>
                    <button
                      type="button"
                      aria-current={v.id === current ? 'true' : undefined}
                      onClick={() => setSelected(v.id)}
                      className={cn(
                        'w-full rounded-lg border px-3 py-2 text-left text-sm',
                        v.id === current
                          ? 'border-brand-600 bg-brand-50 dark:border-brand-500 dark:bg-indigo-950'
                          : 'border-slate-200 hover:bg-slate-50 dark:border-slate-700 dark:hover:bg-slate-800',
                      )}
                    >
                      <span className="block font-medium">{VERSION_KIND_LABELS[v.kind]}</span>
                      <span className="block text-xs text-slate-600 dark:text-slate-300">
                        <time dateTime={v.createdAt} title={when(v.createdAt)}>
                          {relativeTime(new Date(v.createdAt), now)}
                        </time>
                        {v.createdBy && ` · ${v.createdBy.fullName}`}
                      </span>
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </div>
          <section aria-label="Preview" className="min-w-0 flex-1">
            {chosen && (
              <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
                <p className="text-sm text-slate-700 dark:text-slate-200">
                  {VERSION_KIND_LABELS[chosen.kind]}, {when(chosen.createdAt)}
                </p>
                {canEdit && (
                  <Button size="sm" onClick={() => setConfirming(true)} disabled={!detail.data}>
                    <RotateCcw className="h-4 w-4" aria-hidden />
                    Restore this version
                  </Button>
                )}
              </div>
            )}
            <div className="max-h-[55vh] overflow-y-auto rounded-lg border border-slate-200 dark:border-slate-700">
              {!current ? null : detail.isPending ? (
                <Spinner label="Loading the version..." />
              ) : detail.isError ? (
                <p className="p-4 text-sm text-red-700 dark:text-red-400">Failed to load this version</p>
              ) : (
                <VersionPreview state={detail.data.state} label="Version content" />
              )}
            </div>
          </section>
        </div>
      </Modal>
      <ConfirmDialog
        open={confirming}
        title="Restore this version?"
        message="The note will show this version's content for everyone editing it. What it shows now stays in the history."
        confirmLabel="Restore"
        destructive={false}
        isLoading={restore.isPending}
        onConfirm={onRestore}
        onCancel={() => setConfirming(false)}
      />
    </>
  );
}
