import { eq, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { samlAssertionIds, samlRequestIds, ssoSettings } from '../../db/schema';

export type SsoSettingsRow = typeof ssoSettings.$inferSelect;

/** The one row of the admin panel's settings ('saml'), if it was ever saved. */
export async function getSettings(db: DbOrTx): Promise<SsoSettingsRow | undefined> {
  const [row] = await db.select().from(ssoSettings).where(eq(ssoSettings.id, 'saml'));
  return row;
}

export async function upsertSettings(
  db: DbOrTx,
  values: Omit<typeof ssoSettings.$inferInsert, 'id' | 'updatedAt'>,
): Promise<SsoSettingsRow> {
  const [row] = await db
    .insert(ssoSettings)
    .values({ id: 'saml', ...values })
    .onConflictDoUpdate({ target: ssoSettings.id, set: { ...values, updatedAt: sql`now()` } })
    .returning();
  return row!;
}

// ---- the IDs of AuthnRequests sent and not yet answered (node-saml's InResponseTo cache) ----

export async function saveRequestId(db: DbOrTx, id: string, value: string): Promise<{ createdAt: Date } | undefined> {
  const [row] = await db
    .insert(samlRequestIds)
    .values({ id, value })
    .onConflictDoNothing()
    .returning({ createdAt: samlRequestIds.createdAt });
  return row;
}

export async function getRequestId(db: DbOrTx, id: string) {
  const [row] = await db.select().from(samlRequestIds).where(eq(samlRequestIds.id, id));
  return row;
}

export async function deleteRequestId(db: DbOrTx, id: string): Promise<string | undefined> {
  const [row] = await db.delete(samlRequestIds).where(eq(samlRequestIds.id, id)).returning({ value: samlRequestIds.value });
  return row?.value;
}

export async function pruneRequestIds(db: DbOrTx, olderThan: Date): Promise<void> {
  await db.delete(samlRequestIds).where(lt(samlRequestIds.createdAt, olderThan));
}

// ---- the IDs of assertions accepted (replay) ----

/** Records an assertion's ID until it expires; false when it was recorded already (a replay). */
export async function recordAssertionId(db: DbOrTx, id: string, expiresAt: Date): Promise<boolean> {
  await db.delete(samlAssertionIds).where(lt(samlAssertionIds.expiresAt, sql`now()`));
  const rows = await db
    .insert(samlAssertionIds)
    .values({ id, expiresAt })
    .onConflictDoNothing()
    .returning({ id: samlAssertionIds.id });
  return rows.length === 1;
}
