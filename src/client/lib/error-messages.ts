import type { ErrorCode } from '../../domain/errors';
import { ApiError } from './api-client';

/** User text for each error code; a new code without a message fails the typecheck. */
export const ERROR_MESSAGES = {
  validation_failed: 'Please check the highlighted fields.',
  invalid_credentials: 'Invalid credentials. Please try again.',
  invalid_grant: 'Your session has expired. Please sign in again.',
  unauthenticated: 'Your session has expired. Please sign in again.',
  permission_denied: 'You do not have permission to do this.',
  not_found: 'This item no longer exists.',
  conflict: 'This item was changed by someone else.',
  payload_too_large: 'That is too much text to save at once.',
  unsupported_media_type: 'The request could not be understood.',
  rate_limited: 'Too many attempts. Please wait a moment and try again.',
  internal: 'Something went wrong on our side. Please try again.',
  unavailable: 'The service is temporarily unavailable. Please try again shortly.',
} satisfies Record<ErrorCode, string>;

/** The server's message when it sent one meant for people, else the table's text. */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError) {
    if (error.code === 'network_error') return fallback;
    return error.message || ERROR_MESSAGES[error.code] || fallback;
  }
  return fallback;
}
