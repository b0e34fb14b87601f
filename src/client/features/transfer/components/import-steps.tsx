import type { UseMutationResult } from '@tanstack/react-query';
import { useState } from 'react';
import type { ImportResultDto } from '../../../../domain/schemas/transfer';
import { Button } from '../../../components/ui/button';
import { toastError } from '../../../lib/errors';
import { isPreview } from '../api/transfer';
import { TEXT } from './transfer-text';

/**
 * The two steps of an import dialog: 'Preview' (a dry run of exactly the current choices; `stale()` after any change
 * drops it) and 'Import' (the same body for real).
 */
export function useImportSteps<TPreview extends { dryRun: true }, TInput extends { dryRun?: boolean }>(
  mutation: UseMutationResult<TPreview | ImportResultDto, Error, TInput>,
  body: TInput,
  onDone: (result: ImportResultDto) => void,
) {
  const [preview, setPreview] = useState<TPreview | null>(null);
  const runPreview = async () => {
    try {
      const result = await mutation.mutateAsync({ ...body, dryRun: true });
      if (isPreview(result)) setPreview(result);
    } catch (error) {
      toastError(error, TEXT.previewFailed);
    }
  };
  const runImport = async () => {
    try {
      const result = await mutation.mutateAsync(body);
      if (!isPreview(result)) onDone(result);
    } catch (error) {
      toastError(error, TEXT.importFailed);
    }
  };
  return { preview, stale: () => setPreview(null), runPreview, runImport };
}

export interface ImportFooterProps {
  onClose: () => void;
  onPreview: () => Promise<void>;
  onImport: () => Promise<void>;
  pending: boolean;
  previewed: boolean;
  canImport: boolean;
}

/** Cancel, 'Preview' and 'Import' (enabled once a preview allows it). */
export function ImportFooter({ onClose, onPreview, onImport, pending, previewed, canImport }: ImportFooterProps) {
  return (
    <>
      <Button variant="ghost" onClick={onClose}>
        {TEXT.cancel}
      </Button>
      <Button variant="secondary" onClick={() => void onPreview()} isLoading={pending && !previewed}>
        {TEXT.preview}
      </Button>
      <Button onClick={() => void onImport()} disabled={!canImport} isLoading={pending && previewed}>
        {TEXT.import}
      </Button>
    </>
  );
}
