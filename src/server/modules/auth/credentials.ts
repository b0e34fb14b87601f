import type { CredentialsRevoked } from '../../../domain/changes';
import type { DbOrTx } from '../../db/client';
import type { RecordChange } from '../../lib/changes';
import * as apiTokensRepo from '../api-tokens';
import * as calendarRepo from '../calendar';
import { revokeOtherSessionsOfUser } from './auth.repo';

/** Why an account's standing credentials were revoked (each token's `api_token.revoked` audit row says it). */
export type CredentialsRevokedBecause = 'password_reset' | 'password_changed' | 'other_sessions_signed_out' | 'deprovisioned';

/**
 * Revokes every personal API token and the calendar feed of `userId`, in the caller's transaction (issue 35, item 1):
 * credentials that outlive a session would otherwise outlive taking the account back (a password reset) too. Each
 * token's revocation is recorded as when it is revoked by hand, with the reason (its audit row; its event streams
 * close). Returns what it took, for the audit row of the change that caused it.
 */
export async function revokeCredentialsOfUser(
  tx: DbOrTx,
  record: RecordChange,
  userId: string,
  reason: CredentialsRevokedBecause,
): Promise<CredentialsRevoked> {
  const tokens = await apiTokensRepo.revokeAllOfUser(tx, userId);
  for (const token of tokens) {
    await record({ kind: 'api_token.revoked', userId, tokenId: token.id, name: token.name, reason });
  }
  const calendarFeedRevoked = await calendarRepo.deleteOne(tx, userId);
  return { apiTokensRevoked: tokens.length, calendarFeedRevoked };
}

/** Nothing revoked (the caller kept its tokens). */
export const NOTHING_REVOKED: CredentialsRevoked = { apiTokensRevoked: 0, calendarFeedRevoked: false };

/**
 * Signs out every session of `userId` but `currentSessionId` (their event streams close), and with `revokeTokens` (a
 * reason) revokes its API tokens and calendar feed too: how many sessions, and what else it took.
 */
export async function signOutOtherSessions(
  tx: DbOrTx,
  record: RecordChange,
  userId: string,
  currentSessionId: string,
  revokeTokens: CredentialsRevokedBecause | null,
): Promise<{ sessions: number; revoked: CredentialsRevoked }> {
  const sessionIds = await revokeOtherSessionsOfUser(tx, userId, currentSessionId);
  if (sessionIds.length > 0) await record({ kind: 'account.sessions_revoked', userId, sessionIds });
  const revoked = revokeTokens ? await revokeCredentialsOfUser(tx, record, userId, revokeTokens) : NOTHING_REVOKED;
  return { sessions: sessionIds.length, revoked };
}
