import type { PersonActor } from '../../../domain/changes';
import { createHmac, randomBytes } from 'node:crypto';
import { API_TOKEN_PREFIX, type ApiTokenScope } from '../../../domain/constants';
import {
  API_TOKEN_LIMITS,
  type ApiTokenCreatedDto,
  type ApiTokenDto,
  type ApiTokenListDto,
  type CreateApiTokenInput,
} from '../../../domain/schemas/api-token';
import type { Db } from '../../db/client';
import type { UserRow } from '../../db/schema';
import { AppError } from '../../lib/errors';
import type { ChangeRecorder } from '../../lib/changes';
import type { SignInGuard } from '../../lib/rate-limit';
import { Throttle } from '../../lib/throttle';
import * as repo from './api-tokens.repo';

/** `cb_` and 32 random bytes in base64url: anything else is unknown without asking the database. */
const TOKEN_SHAPE = /^cb_[A-Za-z0-9_-]{43}$/;
/** What the list shows of a token to recognise it by ('cb_' and 7 characters of the secret's 43). */
const PREFIX_LENGTH = 10;
/** last_used_at is written at most this often per token. */
const TOUCH_EVERY_SECONDS = 60;

/** A request authenticated by a token: the same shape as a session's, with the token's id and scope. */
export interface TokenAuthentication {
  user: UserRow;
  /** Tokens have no session. */
  sessionId: '';
  apiToken: { id: string; scope: ApiTokenScope };
}

function toDto({ id, name, prefix, scope, createdAt, expiresAt, lastUsedAt }: repo.ApiTokenRow): ApiTokenDto {
  return {
    id,
    name,
    prefix,
    scope,
    createdAt: createdAt.toISOString(),
    expiresAt: expiresAt?.toISOString() ?? null,
    lastUsedAt: lastUsedAt?.toISOString() ?? null,
  };
}

/**
 * Personal API tokens (issue 26). Only a keyed hash of each token is stored: HMAC-SHA256 under a key derived from the
 * server's secret. A token is 256 random bits, so a fast hash is enough (a slow one would cost every API call; the
 * key means a copy of the table alone cannot even confirm a guess), and the lookup is one equality on a unique index.
 */
export class ApiTokenService {
  private readonly key: Buffer;
  private readonly touched = new Throttle(TOUCH_EVERY_SECONDS * 1000);

  constructor(
    private readonly db: Db,
    private readonly changes: ChangeRecorder,
    secret: string,
  ) {
    this.key = createHmac('sha256', secret).update('api-token').digest();
  }

  hash(token: string): string {
    return createHmac('sha256', this.key).update(token).digest('hex');
  }

  async list(userId: string): Promise<Omit<ApiTokenListDto, 'verifyEmailFirst'>> {
    return { tokens: (await repo.listByUserId(this.db, userId)).map(toDto) };
  }

  async create(actor: PersonActor, input: CreateApiTokenInput): Promise<ApiTokenCreatedDto> {
    const { userId } = actor;
    const token = API_TOKEN_PREFIX + randomBytes(32).toString('base64url');
    const row = await this.changes.run(this.db, actor, async (tx, record) => {
      if ((await repo.countLiveLocked(tx, userId)) >= API_TOKEN_LIMITS.perUserMax) {
        throw new AppError('too_many_api_tokens');
      }
      const created = await repo.createOne(tx, {
        userId,
        name: input.name,
        tokenHash: this.hash(token),
        prefix: token.slice(0, PREFIX_LENGTH),
        scope: input.scope,
        expiresInDays: input.expiresInDays,
      });
      await record({
        kind: 'api_token.created',
        userId,
        tokenId: created.id,
        name: created.name,
        scope: created.scope,
        expiresAt: created.expiresAt?.toISOString() ?? null,
      });
      return created;
    });
    return { ...toDto(row), token };
  }

  /** Revokes one of the caller's tokens: refused from its next request on; someone else's answers 404. */
  async revoke(actor: PersonActor, id: string): Promise<void> {
    const { userId } = actor;
    await this.changes.run(this.db, actor, async (tx, record) => {
      const revoked = await repo.revokeOneOfUser(tx, userId, id);
      if (!revoked) throw new AppError('api_token_not_found');
      await record({ kind: 'api_token.revoked', userId, tokenId: revoked.id, name: revoked.name, reason: null });
    });
  }

  /**
   * The live token's owner (active) and the token, or null: malformed, unknown, revoked, expired, owner deactivated.
   * `guard` (RateLimiter.apiToken, the client's IP) may make the caller wait first (429); a token that does not match
   * counts against it.
   */
  async authenticate(token: string, guard?: SignInGuard): Promise<TokenAuthentication | null> {
    await guard?.begin();
    const found = TOKEN_SHAPE.test(token) ? await repo.getLiveByHash(this.db, this.hash(token)) : undefined;
    if (!found) {
      await guard?.failed();
      return null;
    }
    if (this.touched.due(found.id)) void repo.touchLastUsed(this.db, found.id, TOUCH_EVERY_SECONDS).catch(() => {});
    return { user: found.user, sessionId: '', apiToken: { id: found.id, scope: found.scope } };
  }
}
