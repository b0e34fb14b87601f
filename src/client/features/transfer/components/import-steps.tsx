import type { UseMutationResult } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import type { ImportResultDto } from '../../../../domain/schemas/transfer';
import { Button } from '../../../components/ui/button';
import { Modal, type ModalSize } from '../../../components/ui/modal';
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

export interface ImportDialogProps {
  title: string;
  description: string;
  size: ModalSize;
  /** What useImportSteps answered. */
  steps: { preview: unknown; runPreview: () => Promise<void>; runImport: () => Promise<void> };
  pending: boolean;
  /** The preview found what keeps the import from running (rows in error). */
  blocked?: boolean;
  onClose: () => void;
  /** The choices (mapping, target project) and the preview. */
  children: ReactNode;
}

/** An import dialog: its choices, then Cancel, 'Preview' and 'Import' (enabled once a preview allows it). */
export function ImportDialog({
  title,
  description,
  size,
  steps,
  pending,
  blocked = false,
  onClose,
  children,
}: ImportDialogProps) {
  const previewed = Boolean(steps.preview);
  return (
    <Modal
      open
      onClose={onClose}
      size={size}
      title={title}
      description={description}
      footer={
        <>
          <Button variant="ghost" onClick={onClose}>
            {TEXT.cancel}
          </Button>
          <Button variant="secondary" onClick={() => void steps.runPreview()} isLoading={pending && !previewed}>
            {TEXT.preview}
          </Button>
          <Button
            onClick={() => void steps.runImport()}
            disabled={!previewed || pending || blocked}
            isLoading={pending && previewed}
          >
            {TEXT.import}
          </Button>
        </>
      }
    >
      <div className="space-y-5">{children}</div>
    </Modal>
  );
}
