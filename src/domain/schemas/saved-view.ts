import { z } from 'zod';
import { DUE_FILTERS, START_FILTERS, SUBTASK_FILTERS, TASK_PRIORITIES, TASK_SORTS } from '../constants';
import { isoDateTime, uuid } from './common';
import { fieldSort, savedFieldFilters } from './custom-field';
import { statusCategory, statusKey } from './workflow';

export const SAVED_VIEW_LIMITS = { nameMax: 80, perUserMax: 100 } as const;

/**
 * What a saved view restores on the Tasks page: its URL state (filters, search, sort, board or list, swimlanes). Each viewer's
 * own visibility applies when the filters run (a shared view never shows a viewer more than they may see).
 */
export const savedViewConfig = z
  .object({
    projectId: uuid.optional(),
    status: statusKey.optional(),
    category: statusCategory.optional(),
    priority: z.enum(TASK_PRIORITIES).optional(),
    assigneeId: uuid.or(z.literal('unassigned')).optional(),
    due: z.enum(DUE_FILTERS).optional(),
    /** The start-date filter ('none', 'set'). */
    start: z.enum(START_FILTERS).optional(),
    /** 'hide': the board's 'Show sub-tasks' off (top-level tasks only). */
    subtasks: z.enum(SUBTASK_FILTERS).optional(),
    q: z.string().max(200).optional(),
    /** Custom field filters (issue 38), as the query's `cf`. */
    cf: savedFieldFilters.optional(),
    sort: z.enum(TASK_SORTS).or(fieldSort).optional(),
    /** The list's hidden columns: built-in column keys and `field:<fieldId>` (issue 38). */
    hiddenColumns: z.array(z.string().max(60)).max(80).optional(),
    dir: z.enum(['asc', 'desc']).optional(),
    view: z.enum(['board', 'list']).optional(),
    /** The board's swimlanes (none when absent). */
    groupBy: z.enum(['assignee', 'priority', 'project']).optional(),
  })
  .strict();
export type SavedViewConfig = z.infer<typeof savedViewConfig>;

const viewName = z
  .string({ error: 'View name is required' })
  .trim()
  .min(1, 'View name is required')
  .max(SAVED_VIEW_LIMITS.nameMax, `View name must be at most ${SAVED_VIEW_LIMITS.nameMax} characters`);

export const createSavedViewInput = z
  .object({
    name: viewName,
    /** null: personal; a team id: shared with that team (the caller must be an active member). */
    teamId: uuid.nullable().default(null),
    config: savedViewConfig,
  })
  .strict();
export type CreateSavedViewInput = z.infer<typeof createSavedViewInput>;

export const updateSavedViewInput = z
  .object({ name: viewName.optional(), teamId: uuid.nullable().optional(), config: savedViewConfig.optional() })
  .strict();
export type UpdateSavedViewInput = z.infer<typeof updateSavedViewInput>;

export const savedViewDto = z.object({
  id: uuid,
  name: z.string(),
  ownerId: uuid,
  ownerName: z.string(),
  teamId: uuid.nullable(),
  teamName: z.string().nullable(),
  config: savedViewConfig,
  /** The caller may rename, change or delete it: its owner, or an owner/admin of the team it is shared with. */
  canEdit: z.boolean(),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});
export type SavedViewDto = z.infer<typeof savedViewDto>;

export const savedViewListDto = z.object({ views: z.array(savedViewDto) });
export type SavedViewListDto = z.infer<typeof savedViewListDto>;
