import { ERROR_STATUS, ERRORS, type ErrorBody, type ErrorCode, type ErrorReason } from '../errors';
import { z } from 'zod';
import { LIMITS } from '../constants';

export const uuid = z.uuid();
export const idParams = z.object({ id: uuid });
export type IdParams = z.infer<typeof idParams>;

/** A calendar date as YYYY-MM-DD (no time zone). */
export const isoDate = z.iso.date();

export const emailInput = z
  .string()
  .trim()
  .min(1, 'Email is required')
  .max(LIMITS.emailMax)
  .pipe(z.email('Please enter a valid email address'))
  .transform((s) => s.toLowerCase());

export const optionalText = (max: number) =>
  z
    .string()
    .max(max)
    .transform((s) => s.trim())
    .nullish()
    .transform((s) => (s ? s : null));

/** A form's empty text field as null, else the schema's own check (dates, ids). */
export const emptyAsNull = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' ? null : v), schema.nullable());

/** An object of whole numbers (counts, percentages), one per key in this order. */
export const intFields = <const K extends string>(...keys: K[]) =>
  z.object(Object.fromEntries(keys.map((key) => [key, z.number().int()])) as Record<K, z.ZodNumber>);

/** Optimistic concurrency: the version an edit was based on (optional, checked when given). */
export const versionField = z.number().int().min(0).optional();

/** The body of every error answer (domain/errors.ts `errorBody`). */
export const errorResponse = z.object({
  error: z.object({
    code: z.enum(Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]]),
    message: z.string(),
    reason: z.enum(Object.keys(ERRORS) as [ErrorReason, ...ErrorReason[]]).optional(),
    fields: z.record(z.string(), z.string()).optional(),
  }),
}) satisfies z.ZodType<ErrorBody>;

export const userSummary = z.object({
  id: uuid,
  email: z.string(),
  fullName: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  avatar: z.string().nullable(),
});
export type UserSummary = z.infer<typeof userSummary>;

/** The full name is split on the first space into firstName and lastName (spec §3). */
export function splitFullName(fullName: string): { firstName: string; lastName: string } {
  const trimmed = fullName.trim();
  const i = trimmed.indexOf(' ');
  if (i < 0) return { firstName: trimmed, lastName: '' };
  return { firstName: trimmed.slice(0, i), lastName: trimmed.slice(i + 1).trim() };
}

/** Timestamps travel as ISO 8601 strings. */
export const isoDateTime = z.string();
