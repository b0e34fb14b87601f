/** The column helpers the tables share (not tables: schema/index.ts does not export them). */
import { sql } from 'drizzle-orm';
import { type AnyPgColumn, customType, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Binary data (Yjs updates and snapshots), as Buffers in and out. */
export const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

export const id = () => uuid('id').primaryKey().defaultRandom();
export const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();
export const updatedAt = () => timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();

/**
 * `column in ('a', 'b', …)` from one of the domain's constant lists, so the check and the type
 * (`$type<…>()`) come from the same list. Literals, not parameters: a check constraint has none.
 */
export const oneOf = (column: AnyPgColumn, values: readonly string[]) =>
  sql`${column} in (${sql.raw(values.map((v) => `'${v.replace(/'/g, "''")}'`).join(', '))})`;
