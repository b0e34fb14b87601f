import * as Y from 'yjs';
import { NOTE_LIMITS } from '../../../domain/schemas/note';
import { NOTIFICATION_TEXT } from '../../../domain/schemas/notification';
import type { Config } from '../../config';
import type { Db, DbOrTx } from '../../db/client';
import type { EventBus } from '../../lib/events';
import { enqueueMails, mayMailUnprompted, type OutgoingMail, renderMail } from '../mail';
import { createMany, listInAppMuted, type NotificationRow } from '../notifications';
import { listMailRecipients } from '../task-comments';
import { docFrom, noteMentions, noteText } from './note-document';
import * as repo from './notes.repo';

/** An automatic version is taken when the newest one (or the note's creation) is older than this, at a compaction. */
export const AUTO_VERSION_EVERY_MS = 5 * 60_000;

/** Who caused a compaction's changes when nobody is known (an account since deleted). */
const NOBODY = '00000000-0000-0000-0000-000000000000';

export type NoteMailSettings = Pick<Config, 'publicUrl' | 'emailVerification'>;

/**
 * Merges a note's appended updates into its compacted state (note_documents), deletes them, and keeps what depends on
 * the text: `notes.plain_text` (search, excerpts), `updated_at`, `last_edited_by_id`, an automatic version every few
 * minutes of editing, and the notifications of people newly mentioned. One transaction under an advisory lock per
 * note, with the updates read inside it: two instances compacting the same note take turns, and each deletes only
 * the rows it merged.
 */
export class NoteCompactor {
  constructor(
    private readonly db: Db,
    private readonly events: EventBus,
    private readonly mail: NoteMailSettings,
    private readonly now: () => number = Date.now,
  ) {}

  /** Compacts the note; nothing to do when no update came since the last time (or it was deleted). */
  async compact(noteId: string): Promise<void> {
    const result = await this.db.transaction(async (tx) => {
      await repo.lockDocument(tx, noteId);
      const note = await repo.getOneById(tx, noteId);
      if (!note) return null;
      const stored = await repo.readDocument(tx, noteId);
      if (stored.updates.length === 0) return null;
      const base = stored.state ? [stored.state] : [];
      const before = docFrom(base);
      const after = docFrom([...base, ...stored.updates.map((u) => u.update)]);
      const state = Y.encodeStateAsUpdate(after);
      const through = stored.updates[stored.updates.length - 1]!.id;
      await repo.saveCompacted(tx, noteId, state, through);
      const lastEditor = [...stored.updates].reverse().find((u) => u.userId)?.userId ?? null;
      await repo.saveText(tx, noteId, noteText(after), lastEditor);

      const added = [...noteMentions(after)].filter((id) => !noteMentions(before).has(id));
      const notified = added.length > 0 ? await this.notifyMentions(tx, note, base, stored.updates, added) : [];

      const newest = (await repo.latestVersionAt(tx, noteId)) ?? note.createdAt;
      if (this.now() - newest.getTime() >= AUTO_VERSION_EVERY_MS) {
        await repo.createVersion(tx, { noteId, kind: 'auto', state, title: note.title, createdById: lastEditor });
        await repo.pruneVersions(tx, noteId, NOTE_LIMITS.versionsMax);
      }
      before.destroy();
      after.destroy();
      return { teamId: note.teamId, actorId: lastEditor ?? note.authorId ?? NOBODY, notified };
    });
    if (!result) return;
    this.events.publish({ type: 'note.updated', actorId: result.actorId, teamId: result.teamId, noteId });
    for (const n of result.notified) {
      this.events.publish({
        type: 'notification.created',
        actorId: n.actorId,
        teamId: result.teamId,
        userId: n.row.userId,
        notificationId: n.row.id,
      });
    }
  }

  /**
   * 'mentioned' notifications and mails for the team members newly mentioned; each from whoever's update first
   * carried the mention (never to themselves).
   */
  private async notifyMentions(
    tx: DbOrTx,
    note: repo.NoteRow,
    base: Uint8Array[],
    updates: repo.StoredDocument['updates'],
    added: string[],
  ): Promise<{ row: NotificationRow; actorId: string }[]> {
    const members = await repo.activeMemberIds(tx, note.teamId, added);
    const candidates = added.filter((id) => members.has(id));
    if (candidates.length === 0) return [];
    // Who added each mention: replay the updates one by one (only when there is a new mention, which is rare).
    const byWhom = new Map<string, string | null>();
    const doc = docFrom(base);
    for (const u of updates) {
      Y.applyUpdate(doc, u.update);
      const now = noteMentions(doc);
      for (const id of candidates) if (!byWhom.has(id) && now.has(id)) byWhom.set(id, u.userId);
      if (byWhom.size === candidates.length) break;
    }
    doc.destroy();
    const recipients = candidates.filter((id) => byWhom.get(id) !== id);
    if (recipients.length === 0) return [];
    const actors = [...new Set([...byWhom.values()].filter((id): id is string => !!id))];
    const names = await repo.userNames(tx, actors);
    const nameOf = (id: string | null | undefined) => (id ? names.get(id) : undefined) ?? 'Someone';
    const text = NOTIFICATION_TEXT.mentioned;

    const muted = await listInAppMuted(tx, recipients);
    const rows = await createMany(
      tx,
      recipients
        .filter((id) => !muted.has(`${id}|mentioned`))
        .map((userId) => ({
          userId,
          type: 'mentioned' as const,
          title: text.title,
          message: text.message(nameOf(byWhom.get(userId)), note.title),
          data: { noteId: note.id, teamId: note.teamId },
        })),
    );

    const url = `${this.mail.publicUrl}/notes/${encodeURIComponent(note.id)}`;
    const mails: OutgoingMail[] = [];
    for (const r of await listMailRecipients(tx, recipients, 'mentioned')) {
      if (!r.isActive || !r.wantsEmail || !mayMailUnprompted(r, this.mail.emailVerification)) continue;
      const actor = nameOf(byWhom.get(r.id));
      mails.push({
        kind: 'mentioned',
        to: r.email,
        ...renderMail({
          subject: text.message(actor, note.title),
          heading: text.title,
          paragraphs: [`${actor} mentioned you in the note “${note.title}”.`],
          action: { label: 'Open the note', url },
          footer: 'You can turn these emails off in Settings → Notifications.',
        }),
      });
    }
    await enqueueMails(tx, mails);
    return rows.map((row) => ({ row, actorId: byWhom.get(row.userId) ?? note.authorId ?? NOBODY }));
  }
}
