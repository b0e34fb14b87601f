import { detailChanged, type PersonActor } from '../../../domain/changes';
import { ERROR_MESSAGES } from '../../../domain/errors';
import { canDeleteComment, canEditComment } from '../../../domain/permissions';
import {
  type CommentDto,
  type CommentInput,
  type CommentListDto,
  type MentionCandidatesDto,
  mentionedIds,
  type PersonDto,
  type WatchStateDto,
} from '../../../domain/schemas/task-detail';
import type { Db, DbOrTx, Tx } from '../../db/client';
import { requireCommentableTask, requireVisibleTask, TASK_WRITE_LOCK } from '../../db/task-access';
import { AppError } from '../../lib/errors';
import type { ChangeRecorder, RecordChange } from '../../lib/changes';
import * as repo from './task-comments.repo';

const toPerson = (p: repo.PersonRow): PersonDto => ({ id: p.id, fullName: p.fullName, avatar: p.avatarUrl });

type People = Map<string, repo.PersonRow>;
const byId = (rows: repo.PersonRow[]): People => new Map(rows.map((p) => [p.id, p]));

function toCommentDto(comment: repo.CommentRow, people: People): CommentDto {
  const author = comment.authorId ? people.get(comment.authorId) : undefined;
  return {
    id: comment.id,
    taskId: comment.taskId,
    author: author ? toPerson(author) : null,
    body: comment.body,
    // Current names; a departed account is left out.
    mentions: comment.mentions.flatMap((id) => {
      const p = people.get(id);
      return p ? [toPerson(p)] : [];
    }),
    createdAt: comment.createdAt.toISOString(),
    editedAt: comment.editedAt?.toISOString() ?? null,
  };
}

/**
 * Comments on a task, their @mentions, and who watches the task (issue 22). Any active member of the task's team
 * comments and watches; a task the caller may not see is 404 for all of it. The mails a comment causes are queued in
 * its transaction; its notifications are written after commit from the event (notifications.service.ts).
 */
export class TaskCommentsService {
  constructor(
    private readonly db: Db,
    private readonly changes: ChangeRecorder,
  ) {}

  async list(userId: string, taskId: string): Promise<CommentListDto> {
    await requireVisibleTask(this.db, taskId, userId);
    const rows = await repo.listByTaskId(this.db, taskId);
    const mentioned = new Set(rows.flatMap((r) => r.comment.mentions));
    const people = byId(await repo.listPeople(this.db, [...mentioned]));
    for (const r of rows) {
      const { authorId } = r.comment;
      if (authorId && r.authorName !== null)
        people.set(authorId, { id: authorId, fullName: r.authorName, avatarUrl: r.authorAvatar });
    }
    return { comments: rows.map((r) => toCommentDto(r.comment, people)) };
  }

  async create(actor: PersonActor, taskId: string, input: CommentInput): Promise<CommentDto> {
    return this.changes.run(this.db, actor, (tx, record) => this.createIn(tx, record, actor.userId, taskId, input));
  }

  /**
   * `create` in a transaction the caller opened (issue 40: a reply to a notification mail): `userId`'s comment, who
   * must see the task; the change goes with the run's actor.
   */
  async createIn(tx: Tx, record: RecordChange, userId: string, taskId: string, input: CommentInput): Promise<CommentDto> {
    const mentions = mentionedIds(input.body);
    // A viewer comments when the team allows it, a guest on the tasks assigned to them (issue 41).
    const task = await requireCommentableTask(tx, taskId, userId, TASK_WRITE_LOCK);
    await this.requireMentionable(tx, task.teamId, mentions);
    const comment = await repo.createOne(tx, { taskId, authorId: userId, body: input.body, mentions });
    // The author watches (again, even after an unwatch); the mentioned watch unless they chose not to.
    await repo.watchMany(tx, taskId, [userId], { override: true });
    await repo.watchMany(
      tx,
      taskId,
      mentions.filter((id) => id !== userId),
      { override: false },
    );
    const [people, watcherIds] = await Promise.all([
      repo.listPeople(tx, [userId, ...mentions]).then(byId),
      repo.listWatcherIds(tx, taskId),
    ]);
    const dto = toCommentDto(comment, people);
    await record({
      kind: 'comment.created',
      teamId: task.teamId,
      task: { id: task.id, projectId: task.projectId, title: task.title },
      comment: dto,
      mentionedIds: mentions,
      watcherIds,
    });
    return dto;
  }

  async update(actor: PersonActor, taskId: string, commentId: string, input: CommentInput): Promise<CommentDto> {
    const { userId } = actor;
    const mentions = mentionedIds(input.body);
    return this.changes.run(this.db, actor, async (tx, record) => {
      const task = await requireCommentableTask(tx, taskId, userId, TASK_WRITE_LOCK);
      const before = await this.requireComment(tx, taskId, commentId);
      if (!canEditComment(userId, before)) throw new AppError('comment_edit_denied');
      // Only a new mention is checked: a teammate mentioned before who has since left stays as written.
      const added = mentions.filter((id) => !before.mentions.includes(id));
      await this.requireMentionable(tx, task.teamId, added);
      const comment = await repo.updateOne(tx, commentId, { body: input.body, mentions });
      await repo.watchMany(
        tx,
        taskId,
        added.filter((id) => id !== userId),
        { override: false },
      );
      const people = byId(await repo.listPeople(tx, [userId, ...mentions]));
      await record(detailChanged(task, 'comments'));
      return toCommentDto(comment, people);
    });
  }

  async remove(actor: PersonActor, taskId: string, commentId: string): Promise<void> {
    const { userId } = actor;
    await this.changes.run(this.db, actor, async (tx, record) => {
      const task = await requireVisibleTask(tx, taskId, userId, TASK_WRITE_LOCK);
      const comment = await this.requireComment(tx, taskId, commentId);
      if (!canDeleteComment(task.callerRole, userId, comment)) throw new AppError('comment_delete_denied');
      await repo.deleteOne(tx, commentId);
      await record(detailChanged(task, 'comments'));
    });
  }

  async mentionable(userId: string, taskId: string): Promise<MentionCandidatesDto> {
    const task = await requireVisibleTask(this.db, taskId, userId);
    return { people: (await repo.listMembers(this.db, task.teamId, userId)).map(toPerson) };
  }

  async watchState(userId: string, taskId: string): Promise<WatchStateDto> {
    await requireVisibleTask(this.db, taskId, userId);
    return this.readWatchState(this.db, userId, taskId);
  }

  async setWatching(actor: PersonActor, taskId: string, watching: boolean): Promise<WatchStateDto> {
    const { userId } = actor;
    return this.changes.run(this.db, actor, async (tx, record) => {
      const task = await requireVisibleTask(tx, taskId, userId, TASK_WRITE_LOCK);
      await repo.setWatching(tx, taskId, userId, watching);
      await record(detailChanged(task, 'watchers'));
      return this.readWatchState(tx, userId, taskId);
    });
  }

  private async readWatchState(db: DbOrTx, userId: string, taskId: string): Promise<WatchStateDto> {
    const watchers = await repo.listWatchers(db, taskId, userId);
    return { watching: watchers.some((w) => w.id === userId), watchers: watchers.map(toPerson) };
  }

  private async requireComment(db: DbOrTx, taskId: string, commentId: string): Promise<repo.CommentRow> {
    const comment = await repo.getOneById(db, taskId, commentId);
    if (!comment) throw new AppError('comment_not_found');
    return comment;
  }

  /** Everyone mentioned must be an active member of the task's team (else 400 on `body`). */
  private async requireMentionable(db: DbOrTx, teamId: string, ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    const members = await repo.listActiveMemberIds(db, teamId, ids);
    if (ids.some((id) => !members.has(id))) {
      throw new AppError('mention_not_member', { fields: { body: ERROR_MESSAGES.mention_not_member } });
    }
  }
}
