import { randomUUID } from 'node:crypto';
import { type Readable, Readable as ReadableStream } from 'node:stream';
import { fileTypeFromBuffer } from 'file-type';
import type { UserDto } from '../../../domain/schemas/auth';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/errors';
import type { ObjectStorage } from '../../lib/storage';
import { toUserDto } from '../users/users.mapper';
import * as repo from './attachments.repo';
import { type ReceiveFile, storeUpload } from './attachments.service';
import { isRasterImage } from './file-content';

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

const notAnImage = () => new AppError('validation_failed', { fields: { file: 'Choose a PNG, JPEG, GIF or WebP image' } });

/** Settings → Profile: the caller's avatar image, kept in the file store. */
export class AvatarsService {
  constructor(
    private readonly db: Db,
    private readonly storage: ObjectStorage,
    private readonly log: { warn(object: unknown, message: string): void },
  ) {}

  async upload(userId: string, receive: ReceiveFile): Promise<UserDto> {
    const file = await receive(AVATAR_MAX_BYTES);
    const id = randomUUID();
    const stored = await storeUpload(this.storage, avatarKey(userId, id), file, AVATAR_MAX_BYTES);
    if (!isRasterImage(stored.contentType)) {
      await this.deleteObject(stored.key);
      throw notAnImage();
    }
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
      if (newKey) await this.deleteObject(newKey);
      throw error;
    }
    if (result.oldKey && result.oldKey !== newKey) await this.deleteObject(result.oldKey);
    return toUserDto(result.row);
  }

  /** The image behind an avatar URL, while it is someone's avatar. */
  async read(userId: string, file: string): Promise<{ body: Readable; size: number; contentType: string }> {
    if (!UUID.test(userId) || !UUID.test(file) || !(await repo.isCurrentAvatar(this.db, userId, avatarUrl(userId, file)))) {
      throw new AppError('not_found');
    }
    const object = await this.storage.get(avatarKey(userId, file));
    if (!object) throw new AppError('not_found');
    // The type from the bytes again (it was checked on upload; nothing else is stored beside the file).
    const { head, body } = await peek(object.body);
    const found = await fileTypeFromBuffer(head).catch(() => undefined);
    if (!found || !isRasterImage(found.mime)) {
      body.destroy();
      throw new AppError('not_found');
    }
    return { body, size: object.size, contentType: found.mime };
  }

  private async deleteObject(key: string): Promise<void> {
    await this.storage.delete(key).catch((error) => this.log.warn({ err: error, key }, 'could not delete a stored file'));
  }
}

/** The stream's first chunk, and a stream of all of it (that chunk included). */
async function peek(source: Readable): Promise<{ head: Buffer; body: Readable }> {
  const iterator = source[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const first = await iterator.next();
  const head = first.done ? Buffer.alloc(0) : Buffer.from(first.value);
  async function* all() {
    try {
      if (!first.done) yield first.value;
      for (;;) {
        const next = await iterator.next();
        if (next.done) return;
        yield next.value;
      }
    } finally {
      await iterator.return?.();
    }
  }
  return { head, body: ReadableStream.from(all(), { objectMode: false }) };
}
