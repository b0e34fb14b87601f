import { ERRORS, type ErrorCode, type ErrorReason, errorStatus } from '../../domain/errors';

/**
 * A typed, expected failure, named by its reason (domain/errors.ts): the error handler takes
 * the HTTP status, the code and the message from the table. `fields` maps a body path to its message.
 */
export class AppError extends Error {
  readonly reason: ErrorReason;
  readonly fields?: Record<string, string>;
  readonly headers?: Record<string, string>;

  constructor(reason: ErrorReason, options?: { fields?: Record<string, string>; headers?: Record<string, string> }) {
    super(ERRORS[reason].message);
    this.reason = reason;
    this.fields = options?.fields;
    this.headers = options?.headers;
  }

  get code(): ErrorCode {
    return ERRORS[this.reason].code;
  }

  get status(): number {
    return errorStatus(this.reason);
  }
}

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

function pgConstraint(error: unknown): string | undefined {
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
