import { toast } from 'sonner';
import { ApiError } from './api-client';
import { logError, toastError } from './errors';

/** A save's spec texts: the success toast and the failure's fallback text. */
export interface SaveTexts {
  saved: string;
  failed: string;
}

export interface SaveFormOptions {
  /** Only log a failure, without a toast (the team form). */
  logOnly?: boolean;
  /** After a failure has been reported (a stale edit, for one). */
  onFailed?: (error: unknown) => void;
}

/**
 * Runs a form's create or update request and reports it: the success toast, or the server's field
 * messages on the form's fields and the failure logged (and toasted unless `logOnly`). True when saved:
 * the caller closes its modal only then, so a failed save keeps it open (spec §8).
 */
export async function saveForm(
  form: { showFieldErrors: (fields: Record<string, string>) => void },
  request: () => Promise<unknown>,
  texts: SaveTexts,
  { logOnly, onFailed }: SaveFormOptions = {},
): Promise<boolean> {
  try {
    await request();
  } catch (error) {
    if (error instanceof ApiError) form.showFieldErrors(error.fields);
    if (logOnly) logError(texts.failed, error);
    else toastError(error, texts.failed);
    onFailed?.(error);
    return false;
  }
  toast.success(texts.saved);
  return true;
}
