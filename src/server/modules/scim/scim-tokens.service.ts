import { createHash, randomBytes } from 'node:crypto';
import type { ChangeActor, PersonActor } from '../../../domain/changes';
import {
  SCIM_TOKEN_LIMITS,
  SCIM_TOKEN_PREFIX,
  type CreateScimTokenInput,
  type ScimTokenCreatedDto,
  type ScimTokenDto,
  type ScimTokenListDto,
} from '../../../domain/schemas/scim';
import type { Db } from '../../db/client';
import type { ChangeRecorder } from '../../lib/changes';
import { AppError } from '../../lib/errors';
import type { SignInGuard } from '../../lib/rate-limit';
import { Throttle } from '../../lib/throttle';
import * as repo from './scim-tokens.repo';

/** `scim_` and 32 random bytes in base64url: anything else is refused without asking the database. */
const TOKEN_SHAPE = /^scim_[A-Za-z0-9_-]{43}$/;
/** What the list shows of a token ('scim_' and 6 characters of the secret's 43). */
const PREFIX_LENGTH = 11;
const TOUCH_EVERY_SECONDS = 60;

/** Only the SHA-256 of a token is stored: 256 random bits need no slow hash, and the lookup is one unique-index equality. */
export const hashScimToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** True for a bearer that is shaped as a SCIM token (by its prefix). */
export const isScimToken = (bearer: string | null | undefined): bearer is string =>
  Boolean(bearer?.startsWith(SCIM_TOKEN_PREFIX));

function toDto(row: repo.ScimTokenWithCreator): ScimTokenDto {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    createdBy: row.creator,
  };
}

/** A request authenticated by a SCIM token: the identity provider, acting as the super admin who made the token. */
export type ScimCaller = Extract<ChangeActor, { kind: 'scim' }>;

/** SCIM tokens (issue 41): made and revoked by super admins, in the audit log as tokens. */
export class ScimTokenService {
  private readonly touched = new Throttle(TOUCH_EVERY_SECONDS * 1000);

  constructor(
    private readonly db: Db,
    private readonly changes: ChangeRecorder,
  ) {}

  async list(): Promise<ScimTokenListDto> {
    return { tokens: (await repo.listLive(this.db)).map(toDto) };
  }

  async create(actor: PersonActor, input: CreateScimTokenInput): Promise<ScimTokenCreatedDto> {
    const token = SCIM_TOKEN_PREFIX + randomBytes(32).toString('base64url');
    const row = await this.changes.run(this.db, actor, async (tx, record) => {
      if ((await repo.countLiveLocked(tx)) >= SCIM_TOKEN_LIMITS.perAdminMax) throw new AppError('too_many_scim_tokens');
      const created = await repo.createOne(tx, {
        name: input.name,
        tokenHash: hashScimToken(token),
        prefix: token.slice(0, PREFIX_LENGTH),
        createdBy: actor.userId,
      });
      await record({ kind: 'scim_token.created', tokenId: created.id, name: created.name, prefix: created.prefix });
      return created;
    });
    const creator = { id: actor.userId, email: actor.email ?? '', fullName: '' };
    const [listed] = (await repo.listLive(this.db)).filter((t) => t.id === row.id);
    return { ...toDto(listed ?? { ...row, creator }), token };
  }

  /** Revokes a token: refused from its next request on. Unknown or already revoked: 404. */
  async revoke(actor: PersonActor, id: string): Promise<void> {
    await this.changes.run(this.db, actor, async (tx, record) => {
      const revoked = await repo.revokeOne(tx, id);
      if (!revoked) throw new AppError('scim_token_not_found');
      await record({ kind: 'scim_token.revoked', tokenId: revoked.id, name: revoked.name });
    });
  }

  /**
   * The caller behind a live SCIM token (its creator still an active super admin), or null. `guard` (the API tokens'
   * limiter, by IP) makes a client that keeps trying wrong tokens wait.
   */
  async authenticate(token: string, ip: string, guard?: SignInGuard): Promise<ScimCaller | null> {
    await guard?.begin();
    const found = TOKEN_SHAPE.test(token) ? await repo.getLiveByHash(this.db, hashScimToken(token)) : undefined;
    if (!found) {
      await guard?.failed();
      return null;
    }
    if (this.touched.due(found.id)) void repo.touchLastUsed(this.db, found.id, TOUCH_EVERY_SECONDS).catch(() => {});
    return { kind: 'scim', userId: found.creator.id, email: found.creator.email, ip, scimTokenId: found.id };
  }
}
