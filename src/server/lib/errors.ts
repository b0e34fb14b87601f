import { ERROR_STATUS, type ErrorCode } from '../../domain/errors';

/** A typed, expected failure. The error handler maps `code` to its HTTP status. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly fields?: Record<string, string>;
  readonly headers?: Record<string, string>;

  constructor(code: ErrorCode, message: string, options?: { fields?: Record<string, string>; headers?: Record<string, string> }) {
    super(message);
    this.code = code;
    this.fields = options?.fields;
    this.headers = options?.headers;
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

export const notFound = (what = 'Not found') => new AppError('not_found', what);
export const forbidden = (message = 'You do not have permission to do this') =>
  new AppError('permission_denied', message);
export const conflict = (message: string) => new AppError('conflict', message);
export const badRequest = (message: string, fields?: Record<string, string>) =>
  new AppError('validation_failed', message, { fields });

/** PostgreSQL error code of a driver error, if any (also looks through drizzle's wrapping `cause`). */
export function pgCode(error: unknown): string | undefined {
  let e: unknown = error;
  for (let i = 0; i < 3 && e && typeof e === 'object'; i++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

export function pgConstraint(error: unknown): string | undefined {
  let e: unknown = error;
  for (let i = 0; i < 3 && e && typeof e === 'object'; i++) {
    const c = (e as { constraint?: unknown }).constraint;
    if (typeof c === 'string') return c;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

export const isUniqueViolation = (error: unknown, constraint?: string) =>
  pgCode(error) === '23505' && (!constraint || pgConstraint(error) === constraint);
