import { type ChangeActor, type ChangeOf, userActor } from '../../../domain/changes';
import * as Y from 'yjs';
import { NOTE_LIMITS } from '../../../domain/schemas/note';
import { NOTIFICATION_TEXT } from '../../../domain/schemas/notification';
import type { Config } from '../../config';
import type { Db, DbOrTx } from '../../db/client';
import type { ChangeRecorder } from '../../lib/changes';
import { mayMailUnprompted, type OutgoingMail, renderMail } from '../mail';
import { createMany, listInAppMuted } from '../notifications';
import { listMailRecipients } from '../task-comments';
import { docFrom, noteMentions, noteText } from './note-document';
import * as repo from './notes.repo';

/** An automatic version is taken when the newest one (or the note's creation) is older than this, at a compaction. */
export const AUTO_VERSION_EVERY_MS = 5 * 60_000;

/** The compaction itself, when nobody is known to have made the edits. */
const SYSTEM: ChangeActor = { kind: 'system', via: 'compaction' };

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
    private readonly changes: ChangeRecorder,
    private readonly now: () => number = Date.now,
  ) {}

  /** Compacts the note; nothing to do when no update came since the last time (or it was deleted). */
  async compact(noteId: string): Promise<void> {
    await this.changes.run(this.db, SYSTEM, async (tx, record) => {
      await repo.lockDocument(tx, noteId);
      const note = await repo.getOneById(tx, noteId);
      if (!note) return;
      const stored = await repo.readDocument(tx, noteId);
      if (stored.updates.length === 0) return;
      const base = stored.state ? [stored.state] : [];
      const before = docFrom(base);
      const after = docFrom([...base, ...stored.updates.map((u) => u.update)]);
      const state = Y.encodeStateAsUpdate(after);
      const through = stored.updates[stored.updates.length - 1]!.id;
      await repo.saveCompacted(tx, noteId, state, through);
      const lastEditor = [...stored.updates].reverse().find((u) => u.userId)?.userId ?? null;
      await repo.saveText(tx, noteId, noteText(after), lastEditor);
      // The edits are the last editor's (the author's when nobody is known: an account since deleted).
      const editor = lastEditor ?? note.authorId;
      await record({ kind: 'note.updated', teamId: note.teamId, noteId }, editor ? userActor(editor) : SYSTEM);

      const added = [...noteMentions(after)].filter((id) => !noteMentions(before).has(id));
      const mentions = added.length > 0 ? await this.notifyMentions(tx, note, base, stored.updates, added) : [];
      if (mentions.length > 0) {
        await record({ kind: 'note.mentioned', teamId: note.teamId, note: { id: note.id, title: note.title }, mentions });
      }

      const newest = (await repo.latestVersionAt(tx, noteId)) ?? note.createdAt;
      if (this.now() - newest.getTime() >= AUTO_VERSION_EVERY_MS) {
        await repo.createVersion(tx, { noteId, kind: 'auto', state, title: note.title, createdById: lastEditor });
        await repo.pruneVersions(tx, noteId, NOTE_LIMITS.versionsMax);
      }
      before.destroy();
      after.destroy();
    });
  }

  /**
   * The team members newly mentioned, each with who first carried the mention (never themselves), and the in-app
   * 'mentioned' notification written for them unless they muted it. Their mails are the mail subscriber's.
   */
  private async notifyMentions(
    tx: DbOrTx,
    note: repo.NoteRow,
    base: Uint8Array[],
    updates: repo.StoredDocument['updates'],
    added: string[],
  ): Promise<ChangeOf<'note.mentioned'>['mentions']> {
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
    const notified = new Map(rows.map((row) => [row.userId, row.id]));
    return recipients.map((userId) => ({
      userId,
      byId: byWhom.get(userId) ?? null,
      byName: nameOf(byWhom.get(userId)),
      notificationId: notified.get(userId) ?? null,
    }));
  }
}

/**
 * The 'mentioned' mails of a note's new mentions: to each person mentioned who wants them, is active and (EMAIL_VERIFICATION
 * required) has proven their address.
 */
export async function noteMentionMails(
  db: DbOrTx,
  settings: NoteMailSettings,
  change: ChangeOf<'note.mentioned'>,
): Promise<OutgoingMail[]> {
  const text = NOTIFICATION_TEXT.mentioned;
  const { note } = change;
  const url = `${settings.publicUrl}/notes/${encodeURIComponent(note.id)}`;
  const byName = new Map(change.mentions.map((m) => [m.userId, m.byName]));
  const mails: OutgoingMail[] = [];
  for (const r of await listMailRecipients(db, [...byName.keys()], 'mentioned')) {
    if (!r.isActive || !r.wantsEmail || !mayMailUnprompted(r, settings.emailVerification)) continue;
    const actor = byName.get(r.id) ?? 'Someone';
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
  return mails;
}
