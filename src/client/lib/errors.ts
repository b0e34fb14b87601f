import { toast } from 'sonner';
import { errorText, logError } from './failure';

export { classifyRefreshError, errorText, isError, logError } from './failure';

/** Logs the failure and toasts its text (see `errorText`). Every mutation's failure goes through here. */
export function toastError(error: unknown, fallback: string): void {
  logError(fallback, error);
  toast.error(errorText(error, fallback));
}
