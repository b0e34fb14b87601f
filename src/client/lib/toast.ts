import { errorText, logError } from './failure';

/**
 * Toasts for the code in the start-up script (the sign-in page, the session check, what the app shell shows first).
 * Sonner is not in that script (the sign-in page's budget): it loads in the 'toasts' chunk (vite.config.ts), which
 * Providers starts fetching at the first render with the Toaster, so it is there by the time anyone acts. A toast
 * shows once sonner has loaded; should it fail to load, there is no toast (nor a Toaster to show one). Code that is
 * loaded lazily imports `toast` from sonner and `toastError` from lib/errors as usual.
 */
function show(kind: 'success' | 'error' | 'info', message: string): void {
  import('sonner').then(
    ({ toast }) => toast[kind](message),
    () => {},
  );
}

export const toast = {
  success: (message: string) => show('success', message),
  error: (message: string) => show('error', message),
  info: (message: string) => show('info', message),
};

/** lib/errors.ts `toastError` for the start-up script: logs the failure and toasts its text. */
export function toastError(error: unknown, fallback: string): void {
  logError(fallback, error);
  toast.error(errorText(error, fallback));
}
