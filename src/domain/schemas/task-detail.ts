import { z } from 'zod';
import { TASK_ACTIVITY_FIELDS, TASK_DETAIL_LIMITS } from '../constants';
import { isoDateTime, uuid } from './common';

/**
 * The task page (issue 22): comments with @mentions, attachments, checklist, activity history, watchers.
 * Every route is under /api/tasks/:id/… (or names a comment, file or item that belongs to a task) and answers 404
 * for a task the caller may not see, exactly like GET /api/tasks/:id.
 */

/** Who wrote, uploaded or changed something; null once that account is gone. */
export const personDto = z.object({ id: uuid, fullName: z.string(), avatar: z.string().nullable() });
export type PersonDto = z.infer<typeof personDto>;

export const taskItemParams = z.object({ id: uuid, itemId: uuid });
export type TaskItemParams = z.infer<typeof taskItemParams>;

// ---------------------------------------------------------------------------------------------------------------
// Comments and @mentions

/**
 * A mention in a comment's stored body: `<@user-id>`. The client shows `@Full Name` while typing and sends tokens;
 * it renders each token with the person's current name.
 */
export const MENTION_TOKEN = /<@([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})>/gi;

/** The distinct user ids mentioned in a body, in order of first mention. */
export function mentionedIds(body: string): string[] {
  return [...new Set([...body.matchAll(MENTION_TOKEN)].map((m) => m[1]!.toLowerCase()))];
}

const commentBody = z
  .string({ error: 'Comment cannot be empty' })
  .trim()
  .min(1, 'Comment cannot be empty')
  .max(TASK_DETAIL_LIMITS.commentMax, `Comments are at most ${TASK_DETAIL_LIMITS.commentMax} characters`);

export const commentInput = z.object({ body: commentBody }).strict();
export type CommentInput = z.infer<typeof commentInput>;

export const commentDto = z.object({
  id: uuid,
  taskId: uuid,
  author: personDto.nullable(),
  /** Markdown with `<@user-id>` mention tokens. */
  body: z.string(),
  /** The people mentioned, with their current names (ids of departed accounts are left out). */
  mentions: z.array(personDto),
  createdAt: isoDateTime,
  /** Set when the body was edited. */
  editedAt: isoDateTime.nullable(),
});
export type CommentDto = z.infer<typeof commentDto>;

export const commentListDto = z.object({ comments: z.array(commentDto) });
export type CommentListDto = z.infer<typeof commentListDto>;

/** The people who can be @mentioned on a task: the active members of its team. */
export const mentionCandidatesDto = z.object({ people: z.array(personDto) });
export type MentionCandidatesDto = z.infer<typeof mentionCandidatesDto>;

// ---------------------------------------------------------------------------------------------------------------
// Watchers

export const watchStateDto = z.object({
  watching: z.boolean(),
  watchers: z.array(personDto),
});
export type WatchStateDto = z.infer<typeof watchStateDto>;

export const watchInput = z.object({ watching: z.boolean() }).strict();
export type WatchInput = z.infer<typeof watchInput>;

// ---------------------------------------------------------------------------------------------------------------
// Attachments

export const attachmentDto = z.object({
  id: uuid,
  taskId: uuid,
  fileName: z.string(),
  /** Taken from the bytes (application/octet-stream when unknown). */
  contentType: z.string(),
  size: z.number().int(),
  isImage: z.boolean(),
  uploader: personDto.nullable(),
  createdAt: isoDateTime,
  /**
   * A signed, expiring URL of the bytes (GET, no bearer needed, so that <img> and a download link work):
   * `Content-Disposition: attachment` except for images.
   */
  url: z.string(),
});
export type AttachmentDto = z.infer<typeof attachmentDto>;

export const attachmentListDto = z.object({ attachments: z.array(attachmentDto) });
export type AttachmentListDto = z.infer<typeof attachmentListDto>;

// ---------------------------------------------------------------------------------------------------------------
// Checklist

const checklistTitle = z
  .string({ error: 'Item cannot be empty' })
  .trim()
  .min(1, 'Item cannot be empty')
  .max(TASK_DETAIL_LIMITS.checklistItemMax);

export const checklistItemInput = z.object({ title: checklistTitle }).strict();
export type ChecklistItemInput = z.infer<typeof checklistItemInput>;

export const checklistItemUpdate = z
  .object({ title: checklistTitle.optional(), done: z.boolean().optional() })
  .strict()
  .refine((v) => v.title !== undefined || v.done !== undefined, 'Nothing to change');
export type ChecklistItemUpdate = z.infer<typeof checklistItemUpdate>;

/** The whole checklist's new order: every item id of the task, once each. */
export const checklistOrderInput = z.object({ ids: z.array(uuid).max(TASK_DETAIL_LIMITS.checklistItemsMax) }).strict();
export type ChecklistOrderInput = z.infer<typeof checklistOrderInput>;

export const checklistItemDto = z.object({
  id: uuid,
  taskId: uuid,
  title: z.string(),
  done: z.boolean(),
  position: z.number(),
  createdAt: isoDateTime,
});
export type ChecklistItemDto = z.infer<typeof checklistItemDto>;

export const checklistDto = z.object({ items: z.array(checklistItemDto) });
export type ChecklistDto = z.infer<typeof checklistDto>;

// ---------------------------------------------------------------------------------------------------------------
// Activity history

export const activityDto = z.object({
  id: z.number().int(),
  taskId: uuid,
  actor: personDto.nullable(),
  field: z.enum(TASK_ACTIVITY_FIELDS),
  /** Stored values: a status or priority key, a user or project id, an ISO date, tags comma-joined. */
  oldValue: z.string().nullable(),
  newValue: z.string().nullable(),
  /** What a person read at the time (a name, a project name); null where the value speaks for itself. */
  oldLabel: z.string().nullable(),
  newLabel: z.string().nullable(),
  /** 'custom_field' entries: the field's name when the change was made (issue 38); null for every other field. */
  fieldName: z.string().nullable(),
  createdAt: isoDateTime,
});
export type ActivityDto = z.infer<typeof activityDto>;

export const activityListDto = z.object({
  /** The task's creation (not a row of its own: the task's creator and createdAt). */
  created: z.object({ by: personDto.nullable(), at: isoDateTime }),
  /** Oldest first. */
  activity: z.array(activityDto),
});
export type ActivityListDto = z.infer<typeof activityListDto>;
