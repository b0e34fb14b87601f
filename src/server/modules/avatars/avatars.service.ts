import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { UserDto } from '../../../domain/schemas/auth';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/errors';
import type { ObjectStorage } from '../../lib/storage';
import { type SweepOptions, sweepUnreferenced } from '../../lib/storage/sweep';
import { deleteStoredFile, type ReceiveFile, readStoredImage, storeImage } from '../attachments';
import { toUserDto } from '../users';
import * as repo from './avatars.repo';

/** An avatar is one raster image of at most 5 MB (the client crops it square first). */
export const AVATAR_MAX_BYTES = 5 * 1024 * 1024;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The public URL of an avatar: a capability (two random ids), served without a bearer token. */
export const avatarUrl = (userId: string, file: string): string => `/api/avatars/${userId}/${file}`;
const avatarKey = (userId: string, file: string): string => `avatars/${userId}/${file}`;

/** `avatars/<userId>/<file>` → its parts, or null for anything else. */
export function avatarKeyParts(key: string): { userId: string; file: string } | null {
  const [root, userId, file, ...rest] = key.split('/');
  return root === 'avatars' && userId && file && rest.length === 0 && UUID.test(userId) && UUID.test(file)
    ? { userId, file }
    : null;
}

/** The storage key of an avatar URL this app made for `userId` (not a Google picture, say), else null. */
function ownAvatarKey(userId: string, url: string | null): string | null {
  const match = url ? /^\/api\/avatars\/([0-9a-f-]{36})\/([0-9a-f-]{36})$/.exec(url) : null;
  return match && match[1] === userId && UUID.test(match[2]!) ? avatarKey(userId, match[2]!) : null;
}

/** Settings → Profile: the caller's avatar image, kept in the file store under `avatars/<userId>/<file>`. */
export class AvatarsService {
  constructor(
    private readonly db: Db,
    private readonly storage: ObjectStorage,
    private readonly log: { warn(object: unknown, message: string): void },
  ) {}

  async upload(userId: string, receive: ReceiveFile): Promise<UserDto> {
    const file = await receive(AVATAR_MAX_BYTES);
    const id = randomUUID();
    const stored = await storeImage(this.storage, avatarKey(userId, id), file, AVATAR_MAX_BYTES, this.log);
    return this.replace(userId, avatarUrl(userId, id), stored.key);
  }

  async remove(userId: string): Promise<UserDto> {
    return this.replace(userId, null, null);
  }

  /** Sets the avatar, then deletes the one it replaces (after commit: a rollback keeps the old one whole). */
  private async replace(userId: string, url: string | null, newKey: string | null): Promise<UserDto> {
    let result: { row: NonNullable<Awaited<ReturnType<typeof repo.setAvatarUrl>>>; oldKey: string | null };
    try {
      result = await this.db.transaction(async (tx) => {
        const before = await repo.lockUser(tx, userId);
        if (!before) throw new AppError('user_not_found');
        const row = await repo.setAvatarUrl(tx, userId, url);
        return { row: row!, oldKey: ownAvatarKey(userId, before.avatarUrl) };
      });
    } catch (error) {
      if (newKey) await deleteStoredFile(this.storage, newKey, this.log);
      throw error;
    }
    if (result.oldKey && result.oldKey !== newKey) await deleteStoredFile(this.storage, result.oldKey, this.log);
    return toUserDto(result.row);
  }

  /** The image behind an avatar URL, while it is someone's avatar. */
  async read(userId: string, file: string): Promise<{ body: Readable; size: number; contentType: string }> {
    if (!UUID.test(userId) || !UUID.test(file) || !(await repo.isCurrentAvatar(this.db, userId, avatarUrl(userId, file)))) {
      throw new AppError('not_found');
    }
    return readStoredImage(this.storage, avatarKey(userId, file));
  }

  /**
   * Deletes the stored avatars no user shows any more, older than an hour: those of deleted accounts, and any whose
   * delete failed half-way. Answers how many went.
   */
  async sweepOrphans(options: SweepOptions = {}): Promise<number> {
    return sweepUnreferenced(
      this.storage,
      'avatars/',
      async (keys) => {
        const parts = keys.map(avatarKeyParts);
        const userIds = [...new Set(parts.flatMap((p) => (p ? [p.userId] : [])))];
        const urls = await repo.avatarUrlsOf(this.db, userIds);
        return new Set(
          keys.filter((_key, i) => parts[i] && urls.get(parts[i].userId) === avatarUrl(parts[i].userId, parts[i].file)),
        );
      },
      options,
    );
  }
}
