import { detailChanged, type PersonActor } from '../../../domain/changes';
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { TASK_DETAIL_LIMITS } from '../../../domain/constants';
import { canDeleteAttachment } from '../../../domain/permissions';
import type { AttachmentDto, AttachmentListDto } from '../../../domain/schemas/task-detail';
import type { Db } from '../../db/client';
import { requireEditableTask, requireVisibleTask } from '../../db/task-access';
import { AppError } from '../../lib/errors';
import type { ChangeRecorder } from '../../lib/changes';
import type { ObjectStorage } from '../../lib/storage';
import * as repo from './attachments.repo';
import { FileInspector, isRasterImage } from './file-content';
import type { FileLinks } from './file-links';
import { sanitizeFileName } from './file-name';

/** A file part of a multipart request, not yet read: its name as the browser sent it, and its bytes. */
export interface IncomingFile {
  fileName: string | undefined;
  stream: Readable;
}

/** Reads the request's file part when the service is ready for it (after the checks that need no bytes). */
export type ReceiveFile = (maxBytes: number) => Promise<IncomingFile>;

export interface StoredUpload {
  key: string;
  size: number;
  contentType: string;
}

/**
 * Streams an upload into the store under `key`, learning its size and its type from the bytes on the way: nothing
 * of it is held in memory but its first 64 KB. Over `maxBytes`, the store keeps nothing and this throws
 * `file_too_large`.
 */
export async function storeUpload(
  storage: ObjectStorage,
  key: string,
  file: IncomingFile,
  maxBytes: number,
): Promise<StoredUpload> {
  const inspector = new FileInspector(maxBytes);
  const source = file.stream;
  // The request's own failures (a body that is not valid multipart, a client gone): the client's fault, never a 500.
  let requestError: unknown = source.errored;
  const onRequestError = (error: unknown) => {
    requestError = error;
    inspector.destroy(error as Error);
  };
  if (requestError) throw new AppError('bad_request');
  // Its failures reach us through the store's put (and are told apart below): never as an unhandled 'error'.
  inspector.on('error', () => {});
  source.once('error', onRequestError);
  source.pipe(inspector);
  try {
    const { size } = await storage.put(key, inspector);
    return { key, size, contentType: await inspector.contentType() };
  } catch (error) {
    if (inspector.size > maxBytes) throw new AppError('file_too_large');
    if (requestError) throw new AppError('bad_request');
    throw error;
  } finally {
    // Stop reading the request if the store stopped first (nothing to do when all of it was read).
    source.off('error', onRequestError);
    if (!source.readableEnded) {
      source.unpipe(inspector);
      source.destroy();
    }
    inspector.destroy();
  }
}

export interface AttachmentsServiceDeps {
  db: Db;
  storage: ObjectStorage;
  changes: ChangeRecorder;
  links: FileLinks;
  maxUploadBytes: number;
  log: { warn(object: unknown, message: string): void };
}

export class AttachmentsService {
  constructor(private readonly deps: AttachmentsServiceDeps) {}

  toDto(row: repo.AttachmentWithUploader): AttachmentDto {
    return {
      id: row.id,
      taskId: row.taskId,
      fileName: row.fileName,
      contentType: row.contentType,
      size: row.size,
      isImage: isRasterImage(row.contentType),
      uploader:
        row.uploaderId && row.uploaderName !== null
          ? { id: row.uploaderId, fullName: row.uploaderName, avatar: row.uploaderAvatar }
          : null,
      createdAt: row.createdAt.toISOString(),
      url: this.deps.links.url(row.id),
    };
  }

  async list(userId: string, taskId: string): Promise<AttachmentListDto> {
    await requireVisibleTask(this.deps.db, taskId, userId);
    const rows = await repo.listByTaskId(this.deps.db, taskId);
    return { attachments: rows.map((row) => this.toDto(row)) };
  }

  async upload(actor: PersonActor, taskId: string, receive: ReceiveFile): Promise<AttachmentDto> {
    const { userId } = actor;
    const { db, storage, maxUploadBytes } = this.deps;
    // Refused before a byte is read: a task the caller may not see or change (issue 41), or one that is full.
    const before = await requireEditableTask(db, taskId, userId);
    if (before.attachmentCount >= TASK_DETAIL_LIMITS.attachmentsPerTaskMax) throw new AppError('too_many_attachments');
    const file = await receive(maxUploadBytes);
    const fileName = sanitizeFileName(file.fileName);
    const stored = await storeUpload(storage, `tasks/${taskId}/${randomUUID()}`, file, maxUploadBytes);
    let created: repo.AttachmentRow;
    try {
      // Checked again, the task locked: the upload took a while, and uploads to one task are counted one at a time.
      created = await this.deps.changes.run(db, actor, async (tx, record) => {
        const locked = await requireEditableTask(tx, taskId, userId, 'update');
        if (locked.attachmentCount >= TASK_DETAIL_LIMITS.attachmentsPerTaskMax) throw new AppError('too_many_attachments');
        const row = await repo.createOne(tx, {
          taskId,
          uploaderId: userId,
          fileName,
          contentType: stored.contentType,
          size: stored.size,
          storageKey: stored.key,
        });
        await record(detailChanged(locked, 'attachments'));
        return row;
      });
    } catch (error) {
      await this.deleteObject(stored.key);
      throw error;
    }
    const row = await repo.getOneById(db, created.id);
    return this.toDto(row ?? { ...created, uploaderName: null, uploaderAvatar: null });
  }

  async remove(actor: PersonActor, taskId: string, itemId: string): Promise<void> {
    const { userId } = actor;
    const deleted = await this.deps.changes.run(this.deps.db, actor, async (tx, record) => {
      // A viewer removes nothing; a guest only on a task assigned to them (issue 41).
      const found = await requireEditableTask(tx, taskId, userId);
      const row = await repo.getOneById(tx, itemId);
      if (!row || row.taskId !== taskId) throw new AppError('attachment_not_found');
      if (!canDeleteAttachment(found.callerRole, userId, row)) throw new AppError('attachment_delete_denied');
      const gone = await repo.deleteOne(tx, taskId, itemId);
      if (!gone) throw new AppError('attachment_not_found');
      await record(detailChanged(found, 'attachments'));
      return gone;
    });
    await this.deleteObject(deleted.storageKey);
  }

  /** The bytes behind a signed link (no bearer: the signature is the authorization). */
  async download(id: string, exp: string | undefined, sig: string | undefined) {
    const expiry = this.deps.links.verify(id, exp, sig);
    if (expiry === null) throw new AppError('file_link_invalid');
    const row = await repo.getOneById(this.deps.db, id);
    if (!row) throw new AppError('attachment_not_found');
    const object = await this.deps.storage.get(row.storageKey);
    if (!object) throw new AppError('attachment_not_found');
    return { fileName: row.fileName, contentType: row.contentType, size: object.size, body: object.body, expiry };
  }

  /** A deleted task's files (its rows went with it, by cascade). */
  async removeTaskFiles(taskId: string): Promise<void> {
    if (await repo.taskExists(this.deps.db, taskId)) return;
    await this.deps.storage.deletePrefix(`tasks/${taskId}/`);
  }

  /** The row is gone; the bytes follow. A failure leaves an orphan, which the sweep removes later. */
  private async deleteObject(key: string): Promise<void> {
    await this.deps.storage
      .delete(key)
      .catch((error) => this.deps.log.warn({ err: error, key }, 'could not delete a stored file'));
  }
}
