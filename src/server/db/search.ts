import { ilike, or, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';

/** `%` and `_` in a search are literal characters, not wildcards: a search for '50%' means the text '50%'. */
const containsPattern = (q: string): string => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Any of `columns` contains `q`, case-insensitively (a null column matches nothing). */
export function containsText(q: string, ...columns: AnyPgColumn[]): SQL {
  const pattern = containsPattern(q);
  return or(...columns.map((column) => ilike(column, pattern)))!;
}
