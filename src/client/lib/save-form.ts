import { ApiError } from './api-client';
import { logError } from './failure';
// Through lib/toast.ts (sonner loaded on demand), so that the sign-in page's start-up script can use the helper too.
import { toast, toastError } from './toast';

/** A save's spec texts: the success toast and the failure's fallback text. */
export interface SaveTexts {
  /** The success toast; absent when the form tells its success its own way (a page that moves on, an answer shown). */
  saved?: string;
  failed: string;
}

export interface SaveFormOptions {
  /** Only log a failure, without a toast (the team form). */
  logOnly?: boolean;
  /** A failure the server pins on one of the form's fields is told beside that field only, without a toast. */
  fieldErrorsOnly?: boolean;
  /** After a failure has been reported (a stale edit, for one). */
  onFailed?: (error: unknown) => void;
}

/**
 * Runs a form's submit request and reports it: the success toast, or the server's field messages on the
 * form's fields and the failure logged (and toasted unless `logOnly`, or `fieldErrorsOnly` and a field
 * told it). The one way a form handles a failed submit. True when saved: the caller closes its modal or
 * moves on only then, so a failed save keeps it open (spec §8). Never throws.
 */
export async function saveForm(
  form: { showFieldErrors: (fields: Record<string, string>) => unknown },
  request: () => Promise<unknown>,
  texts: SaveTexts,
  { logOnly, fieldErrorsOnly, onFailed }: SaveFormOptions = {},
): Promise<boolean> {
  try {
    await request();
  } catch (error) {
    const toldOnField = error instanceof ApiError && form.showFieldErrors(error.fields) === true;
    if (logOnly || (fieldErrorsOnly && toldOnField)) logError(texts.failed, error);
    else toastError(error, texts.failed);
    onFailed?.(error);
    return false;
  }
  if (texts.saved) toast.success(texts.saved);
  return true;
}
