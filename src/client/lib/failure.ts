import { isRefusedStatus, isRetryableStatus, type RefreshFailure } from '../../domain/auth-refresh';
import { ERROR_MESSAGES, type ErrorReason, isGenericError } from '../../domain/errors';
import { ApiError } from './api-client';

// Failures as the start-up script needs them: no toasts here (sonner is not in that script; lib/toast.ts shows them
// from there). lib/errors.ts re-exports all of this beside its `toastError`.

/**
 * The text a person reads for a failure: the table's text for a specific reason (a
 * permission, a conflict, a rule), else the caller's own "Failed to …" text. Never the
 * body's English, never "Internal server error".
 */
export function errorText(error: unknown, fallback: string): string {
  if (!(error instanceof ApiError) || error.reason === 'network_error') return fallback;
  return isGenericError(error.reason) ? fallback : ERROR_MESSAGES[error.reason];
}

/** The one place the client writes a failure to the console. */
export function logError(context: string, error?: unknown): void {
  console.error(context, error);
}

/** True when the failure is this reason or has this code (`stale_edit`, `conflict`…). */
export function isError(error: unknown, codeOrReason: ErrorReason): boolean {
  return error instanceof ApiError && (error.reason === codeOrReason || error.code === codeOrReason);
}

/** Network failures (no ApiError) and 502/503/504 are retried; 400/401 mean the session is over. */
export function classifyRefreshError(error: unknown): RefreshFailure {
  if (!(error instanceof ApiError)) return 'retryable';
  if (isRefusedStatus(error.status)) return 'refused';
  return isRetryableStatus(error.status) ? 'retryable' : 'other';
}
