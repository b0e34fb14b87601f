/** The column helpers the tables share (not tables: schema/index.ts does not export them). */
import { sql } from 'drizzle-orm';
import { type AnyPgColumn, customType, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Binary data (Yjs updates and snapshots), as Buffers in and out. */
export const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/** Every timestamp of the schema: with time zone, read as a Date. */
export const timestamptz = <TName extends string>(name: TName) => timestamp(name, { withTimezone: true, mode: 'date' });

export const id = () => uuid('id').primaryKey().defaultRandom();
export const createdAt = () => timestamptz('created_at').notNull().defaultNow();
export const updatedAt = () => timestamptz('updated_at').notNull().defaultNow();

/** A reference that every row has: `name uuid not null references <target> on delete <onDelete>`. */
export const requiredRef = <TName extends string>(
  name: TName,
  target: () => AnyPgColumn,
  onDelete: 'cascade' | 'restrict' | 'set null',
) => uuid(name).notNull().references(target, { onDelete });

/** A text column that holds one of a domain list's values, typed by that list (its check: oneOf with the same list). */
export const textOf = <const T extends readonly string[]>(name: string, _values: T) => text(name).$type<T[number]>();

/**
 * `column in ('a', 'b', …)` from one of the domain's constant lists, so the check and the type
 * (`$type<…>()`) come from the same list. Literals, not parameters: a check constraint has none.
 */
export const oneOf = (column: AnyPgColumn, values: readonly string[]) =>
  sql`${column} in (${sql.raw(values.map((v) => `'${v.replace(/'/g, "''")}'`).join(', '))})`;
