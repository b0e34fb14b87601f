/**
 * From validation issues to the messages beside a form's fields. Type-only use of zod, so a page
 * can import this without zod itself (the sign-in page loads its schemas when first submitted).
 */
import type { z } from 'zod';

interface IssueLike {
  readonly path: readonly PropertyKey[];
  readonly message?: string;
}

/**
 * Issues (zod's, or the validator's on the server) → field path → its first message: the one
 * shape every form shows beside its fields and every 400 answer carries in `fields`. A path is
 * dotted ('tags.0'), or only its first part for a form whose fields are the body's top level;
 * an issue about the whole body is under '_'.
 */
export function fieldErrors(issues: readonly IssueLike[], topLevel = false): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of issues) {
    const path = topLevel ? issue.path.slice(0, 1) : issue.path;
    fields[path.map(String).join('.') || '_'] ??= issue.message ?? 'Invalid value';
  }
  return fields;
}

/** A form's values checked by its schema: the parsed body, or each field's first message. */
export function parseForm<S extends z.ZodType>(
  schema: S,
  values: unknown,
): { ok: true; data: z.output<S> } | { ok: false; errors: Record<string, string> } {
  const parsed = schema.safeParse(values);
  return parsed.success ? { ok: true, data: parsed.data } : { ok: false, errors: fieldErrors(parsed.error.issues, true) };
}
