import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { oauthIdentities, users } from '../../db/schema';

export async function getUserByIdentity(db: DbOrTx, issuer: string, subject: string) {
  const [row] = await db
    .select({ user: users })
    .from(oauthIdentities)
    .innerJoin(users, eq(users.id, oauthIdentities.userId))
    .where(and(eq(oauthIdentities.issuer, issuer), eq(oauthIdentities.subject, subject)));
  return row?.user;
}

export async function createIdentity(
  db: DbOrTx,
  values: { issuer: string; subject: string; userId: string; email: string | null },
): Promise<void> {
  await db.insert(oauthIdentities).values(values).onConflictDoNothing();
}
