import { FileText, Paperclip, Trash2, X } from 'lucide-react';
import { type RefObject, useEffect, useId, useRef, useState } from 'react';
import type { AttachmentDto } from '../../../../../domain/schemas/task-detail';
import { Button } from '../../../../components/ui/button';
import { ConfirmDialog } from '../../../../components/ui/confirm-dialog';
import { Modal } from '../../../../components/ui/modal';
import { ProgressBar } from '../../../../components/ui/progress-bar';
import { useDeleteAttachment } from '../../api/delete-attachment';
import { useCanDeleteAttachment } from '../../api/get-attachment-permission';
import { useAttachments } from '../../api/get-attachments';
import { type UploadState, useAttachmentUploads } from '../../api/upload-attachment';
import { formatFileSize, imageFiles, percentDone } from './attachment-format';
import { TimeAgo } from './time-ago';

export interface AttachmentsSectionProps {
  taskId: string;
}

/**
 * The task panel's files: 'Attach files' (a real file input), a drop anywhere on the panel, or a pasted image; each
 * file uploads on its own with its own progress bar and its own error. Images show a thumbnail and open a preview.
 */
export function AttachmentsSection({ taskId }: AttachmentsSectionProps) {
  const headingId = useId();
  const sectionRef = useRef<HTMLElement>(null);
  const { data: files, isPending, isError, refetch } = useAttachments(taskId);
  const { uploads, start, dismiss } = useAttachmentUploads(taskId);
  const isDragOver = usePanelDrop(sectionRef, start);
  const canDelete = useCanDeleteAttachment(taskId);
  const [preview, setPreview] = useState<AttachmentDto | null>(null);
  const [deleting, setDeleting] = useState<AttachmentDto | null>(null);
  const remove = useDeleteAttachment(taskId);
  const attachRef = useRef<HTMLInputElement>(null);
  // A deleted file's row (and its focused trash button) goes away: focus moves to 'Attach files' instead of the page.
  const [refocusAfter, setRefocusAfter] = useState<string | null>(null);
  useEffect(() => {
    if (refocusAfter && files && !files.some((f) => f.id === refocusAfter)) {
      attachRef.current?.focus();
      setRefocusAfter(null);
    }
  }, [files, refocusAfter]);

  return (
    <section ref={sectionRef} aria-labelledby={headingId} className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id={headingId} className="text-base font-semibold text-slate-900 dark:text-slate-100">
          Attachments
          {files && files.length > 0 && (
            <span className="ml-2 text-sm font-normal text-slate-600 dark:text-slate-300">({files.length})</span>
          )}
        </h3>
        <AttachButton inputRef={attachRef} onFiles={start} />
      </div>

      {isDragOver && (
        <div className="flex items-center justify-center rounded-lg border-2 border-dashed border-brand-600 bg-brand-50 px-4 py-6 text-sm font-medium text-brand-700 dark:border-brand-500 dark:bg-slate-800 dark:text-brand-100">
          Drop files to attach them
        </div>
      )}

      {uploads.length > 0 && (
        <ul className="space-y-2" aria-label="Uploads">
          {uploads.map((u) => (
            <UploadRow key={u.key} upload={u} onDismiss={() => dismiss(u.key)} />
          ))}
        </ul>
      )}

      {isPending ? (
        <div className="space-y-2" role="status">
          <span className="sr-only">Loading files…</span>
          {[0, 1].map((i) => (
            <div
              key={i}
              aria-hidden
              className="flex animate-pulse items-center gap-3 rounded-lg border border-slate-200 p-2 dark:border-slate-700"
            >
              <div className="h-12 w-12 rounded bg-slate-200 dark:bg-slate-700" />
              <div className="flex-1 space-y-2">
                <div className="h-3 w-1/2 rounded bg-slate-200 dark:bg-slate-700" />
                <div className="h-3 w-1/3 rounded bg-slate-200 dark:bg-slate-700" />
              </div>
            </div>
          ))}
        </div>
      ) : isError ? (
        <div className="flex items-center gap-3 text-sm text-slate-700 dark:text-slate-200">
          <p>Could not load the files.</p>
          <Button variant="secondary" size="sm" onClick={() => void refetch()}>
            Retry
          </Button>
        </div>
      ) : files.length === 0 ? (
        !isDragOver && (
          <p className="rounded-lg border border-dashed border-slate-300 px-4 py-5 text-center text-sm text-slate-600 dark:border-slate-600 dark:text-slate-300">
            No files yet. Attach files, drop them on this panel, or paste an image.
          </p>
        )
      ) : (
        <ul className="space-y-2">
          {files.map((file) => (
            <AttachmentRow
              key={file.id}
              file={file}
              canDelete={canDelete(file)}
              onPreview={() => setPreview(file)}
              onDelete={() => setDeleting(file)}
            />
          ))}
        </ul>
      )}

      {preview && <PreviewDialog file={preview} onClose={() => setPreview(null)} />}
      <ConfirmDialog
        open={deleting !== null}
        title="Delete file"
        message={deleting ? `Delete "${deleting.fileName}"? This cannot be undone.` : ''}
        confirmLabel="Delete"
        onCancel={() => setDeleting(null)}
        onConfirm={() => {
          if (deleting) {
            remove.mutate(deleting);
            setRefocusAfter(deleting.id);
          }
          setDeleting(null);
        }}
      />
    </section>
  );
}

/** A real `<input type="file" multiple>` (keyboard: Tab, then Enter or Space), drawn as a button by its label. */
function AttachButton({ inputRef, onFiles }: { inputRef: RefObject<HTMLInputElement | null>; onFiles: (files: File[]) => void }) {
  return (
    <label className="inline-flex h-8 cursor-pointer items-center gap-2 rounded-lg border border-slate-300 bg-white px-3 text-sm font-medium text-slate-800 hover:bg-slate-100 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-brand-600 dark:border-slate-600 dark:bg-slate-800 dark:text-slate-100 dark:hover:bg-slate-700 dark:has-[:focus-visible]:outline-brand-500">
      <Paperclip className="h-4 w-4" aria-hidden />
      Attach files
      <input
        ref={inputRef}
        type="file"
        multiple
        className="sr-only"
        onChange={(e) => {
          const chosen = e.currentTarget.files ? [...e.currentTarget.files] : [];
          // Choosing the same file again must fire a change again.
          e.currentTarget.value = '';
          if (chosen.length > 0) onFiles(chosen);
        }}
      />
    </label>
  );
}

function UploadRow({ upload, onDismiss }: { upload: UploadState; onDismiss: () => void }) {
  const pct = percentDone(upload.loaded, upload.total);
  return (
    <li className="rounded-lg border border-slate-200 p-2 dark:border-slate-700">
      <div className="flex items-center gap-2">
        <span className="min-w-0 flex-1 truncate text-sm font-medium text-slate-900 dark:text-slate-100" title={upload.fileName}>
          {upload.fileName}
        </span>
        {!upload.error && <span className="text-xs tabular-nums text-slate-600 dark:text-slate-300">{pct}%</span>}
        <Button
          variant="ghost"
          size="icon"
          className="h-7 w-7"
          aria-label={upload.error ? `Dismiss ${upload.fileName}` : `Cancel upload of ${upload.fileName}`}
          onClick={onDismiss}
        >
          <X className="h-4 w-4" aria-hidden />
        </Button>
      </div>
      {upload.error ? (
        <p role="alert" className="mt-1 text-sm text-red-700 dark:text-red-400">
          <span className="sr-only">{upload.fileName}: </span>
          {upload.error}
        </p>
      ) : (
        <div className="mt-1">
          <ProgressBar value={pct} label={`Uploading ${upload.fileName}`} />
        </div>
      )}
    </li>
  );
}

interface AttachmentRowProps {
  file: AttachmentDto;
  canDelete: boolean;
  onPreview: () => void;
  onDelete: () => void;
}

function AttachmentRow({ file, canDelete, onPreview, onDelete }: AttachmentRowProps) {
  return (
    <li className="flex items-center gap-3 rounded-lg border border-slate-200 p-2 dark:border-slate-700" data-testid="attachment">
      {file.isImage ? (
        <button
          type="button"
          onClick={onPreview}
          aria-label={`Preview ${file.fileName}`}
          className="h-12 w-12 shrink-0 overflow-hidden rounded bg-slate-100 dark:bg-slate-800"
        >
          <img src={file.url} alt="" loading="lazy" className="h-full w-full object-cover" />
        </button>
      ) : (
        <span className="flex h-12 w-12 shrink-0 items-center justify-center rounded bg-slate-100 text-slate-600 dark:bg-slate-800 dark:text-slate-300">
          <FileText className="h-6 w-6" aria-hidden />
        </span>
      )}
      <div className="min-w-0 flex-1">
        <a
          href={file.url}
          download={file.fileName}
          className="block truncate text-sm font-medium text-brand-700 underline-offset-2 hover:underline dark:text-brand-100"
          title={`Download ${file.fileName}`}
        >
          <span className="sr-only">Download </span>
          {file.fileName}
        </a>
        <p className="break-words text-xs text-slate-600 dark:text-slate-300">
          {formatFileSize(file.size)}
          {' · '}
          {file.uploader?.fullName ?? 'Former member'}
          {' · '}
          <TimeAgo at={file.createdAt} />
        </p>
      </div>
      {canDelete && (
        <Button
          variant="ghost"
          size="icon"
          className="h-8 w-8 shrink-0"
          aria-label={`Delete ${file.fileName}`}
          onClick={onDelete}
        >
          <Trash2 className="h-4 w-4" aria-hidden />
        </Button>
      )}
    </li>
  );
}

function PreviewDialog({ file, onClose }: { file: AttachmentDto; onClose: () => void }) {
  return (
    <Modal
      open
      onClose={onClose}
      title={file.fileName}
      size="xl"
      footer={
        <a
          href={file.url}
          download={file.fileName}
          className="inline-flex h-10 items-center rounded-lg border border-slate-300 bg-white px-4 text-sm font-medium text-slate-800 hover:bg-slate-100 dark:border-slate-600 dark:bg-slate-800 dark:text-slate-100 dark:hover:bg-slate-700"
        >
          Download
        </a>
      }
    >
      <img src={file.url} alt={file.fileName} className="mx-auto max-h-[70vh] w-auto max-w-full object-contain" />
    </Modal>
  );
}

const hasFiles = (e: DragEvent) => Boolean(e.dataTransfer?.types.includes('Files'));
const isEditable = (target: EventTarget | null) =>
  target instanceof HTMLElement && (target.isContentEditable || target.matches('input, textarea'));
const DROP_CLASSES = ['outline-dashed', 'outline-2', '-outline-offset-8', 'outline-brand-600'];

/**
 * Files dropped anywhere on the panel (the dialog around this section, or the section alone outside one) and images
 * pasted while focus is in it are uploaded. Returns whether files are being dragged over the panel.
 */
function usePanelDrop(ref: RefObject<HTMLElement | null>, onFiles: (files: File[]) => void): boolean {
  const [isOver, setOver] = useState(false);
  const onFilesRef = useRef(onFiles);
  onFilesRef.current = onFiles;
  useEffect(() => {
    const panel = ref.current?.closest<HTMLElement>('[role="dialog"]') ?? ref.current;
    if (!panel) return;
    // dragenter/dragleave fire for every child crossed: count them.
    let depth = 0;
    const show = (on: boolean) => {
      setOver(on);
      for (const c of DROP_CLASSES) panel.classList.toggle(c, on);
    };
    const onEnter = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      depth++;
      show(true);
    };
    const onDragOver = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      if (e.dataTransfer) e.dataTransfer.dropEffect = 'copy';
    };
    const onLeave = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      depth = Math.max(0, depth - 1);
      if (depth === 0) show(false);
    };
    const onDrop = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      depth = 0;
      show(false);
      const files = e.dataTransfer ? [...e.dataTransfer.files] : [];
      if (files.length > 0) onFilesRef.current(files);
    };
    const onPaste = (e: ClipboardEvent) => {
      const images = imageFiles(e.clipboardData?.files ?? []);
      if (images.length === 0) return;
      // Text pasted into a field stays text (an office app puts both on the clipboard).
      if (isEditable(e.target) && e.clipboardData?.types.includes('text/plain')) return;
      e.preventDefault();
      onFilesRef.current(images);
    };
    panel.addEventListener('dragenter', onEnter);
    panel.addEventListener('dragover', onDragOver);
    panel.addEventListener('dragleave', onLeave);
    panel.addEventListener('drop', onDrop);
    panel.addEventListener('paste', onPaste);
    return () => {
      panel.removeEventListener('dragenter', onEnter);
      panel.removeEventListener('dragover', onDragOver);
      panel.removeEventListener('dragleave', onLeave);
      panel.removeEventListener('drop', onDrop);
      panel.removeEventListener('paste', onPaste);
      show(false);
    };
  }, [ref]);
  return isOver;
}
