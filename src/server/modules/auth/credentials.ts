import type { DbOrTx } from '../../db/client';
import * as apiTokensRepo from '../api-tokens';
import { type AuditBy, recordAudit } from '../audit';
import * as calendarRepo from '../calendar';

/** Why an account's standing credentials were revoked (each token's `api_token.revoked` audit row says it). */
export type CredentialsRevokedBecause = 'password_reset' | 'password_changed' | 'other_sessions_signed_out';

/** What revokeCredentialsOfUser revoked. */
export interface RevokedCredentials {
  /** The API tokens revoked: their event streams close when these ids are published as revoked sessions. */
  apiTokenIds: string[];
  /** Whether there was a calendar feed (its secret link now answers 404). */
  calendarFeed: boolean;
}

/**
 * Revokes every personal API token and the calendar feed of `userId`, in the caller's transaction (issue 35, item 1):
 * credentials that outlive a session would otherwise outlive taking the account back (a password reset) too. Each
 * token gets its `api_token.revoked` audit row, as when it is revoked by hand, with the reason.
 */
export async function revokeCredentialsOfUser(
  tx: DbOrTx,
  userId: string,
  by: AuditBy,
  reason: CredentialsRevokedBecause,
): Promise<RevokedCredentials> {
  const tokens = await apiTokensRepo.revokeAllOfUser(tx, userId);
  for (const token of tokens) {
    await recordAudit(tx, {
      action: 'api_token.revoked',
      ...by,
      targetType: 'api_token',
      targetId: token.id,
      targetLabel: token.name,
      details: { reason },
    });
  }
  const calendarFeed = await calendarRepo.deleteOne(tx, userId);
  return { apiTokenIds: tokens.map((t) => t.id), calendarFeed };
}

/** The audit details of a revocation (on the row of the action that caused it). */
export const revokedDetails = (revoked: RevokedCredentials) => ({
  apiTokensRevoked: revoked.apiTokenIds.length,
  calendarFeedRevoked: revoked.calendarFeed,
});
