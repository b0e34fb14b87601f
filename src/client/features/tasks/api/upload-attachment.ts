import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';
import { ERROR_MESSAGES } from '../../../../domain/errors';
import type { AttachmentDto, AttachmentListDto } from '../../../../domain/schemas/task-detail';
import { ApiError, networkError, parseError, withFreshToken } from '../../../lib/api-client';
import { errorText, logError } from '../../../lib/errors';
import { taskPartKeys } from './get-attachments';
import { invalidateTasks } from './prefetch-board';

interface RawAnswer {
  status: number;
  statusText: string;
  body: string;
}

/**
 * POST one file as multipart (field `file`) with XMLHttpRequest: fetch reports no upload progress. Settles with the
 * answer whatever its status; rejects only when no answer came (network) or on abort.
 */
function postFile(
  url: string,
  file: File,
  token: string | undefined,
  onProgress: (loaded: number, total: number) => void,
  signal?: AbortSignal,
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.setRequestHeader('accept', 'application/json');
    if (token) xhr.setRequestHeader('authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (e) => onProgress(e.loaded, e.lengthComputable ? e.total : file.size);
    xhr.onload = () => resolve({ status: xhr.status, statusText: xhr.statusText, body: xhr.responseText });
    xhr.onerror = () => reject(networkError());
    xhr.onabort = () => reject(new DOMException('The upload was cancelled', 'AbortError'));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    const form = new FormData();
    form.append('file', file, file.name);
    xhr.send(form);
  });
}

export interface UploadOptions {
  onProgress?: (loaded: number, total: number) => void;
  signal?: AbortSignal;
}

/**
 * POST /api/tasks/:id/attachments with the session's bearer token; an expired token is refreshed once (the same
 * shared refresh as every other call) and the file sent again. Failures are ApiErrors, as from `api`.
 */
export async function uploadAttachment(taskId: string, file: File, options: UploadOptions = {}): Promise<AttachmentDto> {
  const url = `/api/tasks/${taskId}/attachments`;
  const progress = options.onProgress ?? (() => {});
  const answer = await withFreshToken((token) => postFile(url, file, token, progress, options.signal));
  if (answer.status >= 200 && answer.status < 300) return JSON.parse(answer.body) as AttachmentDto;
  throw await parseError(
    new Response(answer.body || null, {
      status: answer.status,
      statusText: answer.statusText,
      headers: { 'content-type': 'application/json' },
    }),
  );
}

/** What a person reads when one file failed; a bare 413 (a proxy's) is the file being too large too. */
export function uploadErrorText(error: unknown): string {
  if (error instanceof ApiError && error.code === 'payload_too_large') return ERROR_MESSAGES.file_too_large;
  return errorText(error, 'Failed to upload the file');
}

export interface UploadState {
  key: string;
  fileName: string;
  loaded: number;
  total: number;
  /** Set when it failed; the row stays until dismissed. */
  error?: string;
}

let nextKey = 0;

/**
 * Several files at once, one request each, each with its own progress. A finished file joins the cached list (and the
 * board's counts are refreshed); a failed one keeps its row with the reason, without touching the others.
 */
export function useAttachmentUploads(taskId: string) {
  const qc = useQueryClient();
  const [uploads, setUploads] = useState<UploadState[]>([]);
  const controllers = useRef(new Map<string, AbortController>());

  const patch = useCallback((key: string, change: Partial<UploadState>) => {
    setUploads((all) => all.map((u) => (u.key === key ? { ...u, ...change } : u)));
  }, []);

  const upload = useCallback(
    async (file: File) => {
      const key = `upload-${++nextKey}`;
      const controller = new AbortController();
      controllers.current.set(key, controller);
      setUploads((all) => [...all, { key, fileName: file.name || 'pasted-image', loaded: 0, total: file.size }]);
      try {
        const saved = await uploadAttachment(taskId, file, {
          signal: controller.signal,
          onProgress: (loaded, total) => patch(key, { loaded, total }),
        });
        const listKey = taskPartKeys.attachments(taskId);
        // A list read that began before this file was saved would answer without it (CI caught the panel showing 'No
        // files yet' after an upload that had gone through): then read it again.
        const stale = !qc.getQueryData(listKey) || qc.isFetching({ queryKey: listKey }) > 0;
        qc.setQueryData<AttachmentListDto>(listKey, (list) =>
          list && !list.attachments.some((a) => a.id === saved.id) ? { attachments: [...list.attachments, saved] } : list,
        );
        if (stale) void qc.invalidateQueries({ queryKey: listKey });
        setUploads((all) => all.filter((u) => u.key !== key));
        void invalidateTasks(qc);
      } catch (error) {
        if ((error as Error).name === 'AbortError') {
          setUploads((all) => all.filter((u) => u.key !== key));
          return;
        }
        logError('Failed to upload a file', error);
        patch(key, { error: uploadErrorText(error) });
      } finally {
        controllers.current.delete(key);
      }
    },
    [patch, qc, taskId],
  );

  const start = useCallback(
    (files: Iterable<File>) => {
      for (const file of files) void upload(file);
    },
    [upload],
  );

  /** Drops a failed row, or cancels one still running. */
  const dismiss = useCallback((key: string) => {
    controllers.current.get(key)?.abort();
    setUploads((all) => all.filter((u) => u.key !== key));
  }, []);

  return { uploads, start, dismiss };
}
