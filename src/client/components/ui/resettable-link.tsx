import { RefreshCw } from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from './button';
import { ConfirmDialog } from './confirm-dialog';
import { CopyField } from './copy-field';

export interface ResettableLinkLabels {
  /** The field's label. */
  field: string;
  /** What the link gives whom, under the field (the field's description). */
  hint: string;
  /** Said instead of the field when the value cannot be shown any more. */
  unavailable: string;
  copy: string;
  copied: string;
  copyFailed: string;
  /** The button's text, and the confirmation's. */
  reset: string;
  confirmTitle: string;
  confirmMessage: string;
}

export interface ResettableLinkProps {
  /** The link or address; null when it cannot be shown any more (a reset makes a new one). */
  value: string | null;
  labels: ResettableLinkLabels;
  /** A change under way: Reset waits for it. */
  busy: boolean;
  /** The reset under way (the confirmation's button spins). */
  resetting: boolean;
  /** Makes a new one and says how it went; the confirmation closes when it settles. */
  onReset: () => Promise<void>;
}

/**
 * A capability shown to those who manage it (a project's public board link, its intake address): read-only, with
 * Copy, a hint saying what it gives to whom, and Reset behind a confirmation (the old one stops at once).
 */
export function ResettableLink({ value, labels, busy, resetting, onReset }: ResettableLinkProps) {
  const [confirming, setConfirming] = useState(false);
  const fieldId = useId();
  const hintId = useId();
  const reset = async () => {
    try {
      await onReset();
    } finally {
      setConfirming(false);
    }
  };
  return (
    <div className="space-y-2">
      {value ? (
        <>
          <label htmlFor={fieldId} className="text-sm font-medium text-slate-800 dark:text-slate-100">
            {labels.field}
          </label>
          <CopyField
            id={fieldId}
            value={value}
            describedBy={hintId}
            labels={{ copy: labels.copy, copied: labels.copied, copyFailed: labels.copyFailed }}
          />
        </>
      ) : (
        <p className="text-sm text-slate-700 dark:text-slate-200">{labels.unavailable}</p>
      )}
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p id={hintId} className="text-sm text-slate-600 dark:text-slate-300">
          {labels.hint}
        </p>
        <Button variant="secondary" size="sm" disabled={busy} onClick={() => setConfirming(true)}>
          <RefreshCw className="h-4 w-4" aria-hidden />
          {labels.reset}
        </Button>
      </div>
      <ConfirmDialog
        open={confirming}
        title={labels.confirmTitle}
        message={labels.confirmMessage}
        confirmLabel={labels.reset}
        isLoading={resetting}
        onConfirm={() => void reset()}
        onCancel={() => setConfirming(false)}
      />
    </div>
  );
}
