import type { UserTokenPurpose } from '../../../domain/constants';
import type { DbOrTx } from '../../db/client';
import * as repo from './link-status.repo';

/**
 * Whether an emailed link would still work, read without spending it (GET /api/auth/link-status): the route asks here,
 * the query is link-status.repo.ts's.
 */
export function isLinkUsable(db: DbOrTx, purpose: UserTokenPurpose, token: string): Promise<boolean> {
  return repo.isLinkUsable(db, purpose, token);
}
