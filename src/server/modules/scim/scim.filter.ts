import { ScimError } from './scim.errors';

/**
 * The one filter form Crewboard answers (decision 0031): `<attribute> eq "<value>"`, for the attributes a provider
 * looks a resource up by (userName for Users, displayName for Groups). Attribute names and the operator are
 * case-insensitive (RFC 7644 §3.4.2.2); the value is a JSON string. Anything else is 400 invalidFilter.
 */
const EQ = /^\s*([A-Za-z][\w.:-]*)\s+eq\s+("(?:[^"\\]|\\.)*")\s*$/i;

export function parseEqFilter(filter: string | undefined, attribute: string): string | undefined {
  if (filter === undefined || filter.trim() === '') return undefined;
  const match = EQ.exec(filter);
  const name = match?.[1]?.replace(/^urn:ietf:params:scim:schemas:core:2\.0:(User|Group):/i, '');
  if (!match || name?.toLowerCase() !== attribute.toLowerCase()) {
    throw new ScimError(400, `Only the filter ${attribute} eq "…" is supported`, 'invalidFilter');
  }
  try {
    const value = JSON.parse(match[2]!) as unknown;
    if (typeof value === 'string') return value;
  } catch {
    // falls through to the refusal below
  }
  throw new ScimError(400, 'The filter value is not a valid string', 'invalidFilter');
}

/** RFC 7644 §3.4.2.4: startIndex below 1 counts as 1; count below 0 as 0, capped at `max`. */
export function page(
  startIndex: number | undefined,
  count: number | undefined,
  defaults: { defaultCount: number; maxCount: number },
) {
  // Past any real list; keeps the offset a safe integer.
  const start = Math.min(1_000_000_000, Math.max(1, startIndex ?? 1));
  const size = Math.min(defaults.maxCount, Math.max(0, count ?? defaults.defaultCount));
  return { start, size, offset: start - 1 };
}
