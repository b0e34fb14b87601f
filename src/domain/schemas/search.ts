import { z } from 'zod';
import { TASK_PRIORITIES } from '../constants';
import { statusCategory, statusKey } from './workflow';
import { uuid } from './common';

/**
 * Global search (issue 23): GET /api/search?q=…&limit=…. Everything the caller may see (tasks, projects, teams,
 * people in their teams, comments, notes), scoped by membership inside the query; ranked and grouped by kind.
 */
export const SEARCH_KINDS = ['task', 'project', 'team', 'person', 'comment', 'note'] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];

export const SEARCH_LIMITS = { queryMax: 200, perKindDefault: 5, perKindMax: 20, snippetMax: 160 } as const;

/**
 * Highlights travel inside the text as control characters (never HTML): `HIGHLIGHT_START` opens a match and
 * `HIGHLIGHT_END` closes it; the client splits on them and renders text nodes. The server strips both from the
 * source text before it marks the matches, so stored text cannot fake one.
 */
export const HIGHLIGHT_START = '\u0002';
export const HIGHLIGHT_END = '\u0003';

export const searchQuery = z.object({
  q: z.string().max(SEARCH_LIMITS.queryMax),
  /** Results per kind. */
  limit: z.coerce.number().int().min(1).max(SEARCH_LIMITS.perKindMax).optional(),
  /** Only these kinds (comma-separated), all by default. */
  kinds: z
    .string()
    .max(100)
    .transform((s) => s.split(',').filter(Boolean))
    .pipe(z.array(z.enum(SEARCH_KINDS)))
    .optional(),
});
export type SearchQuery = z.infer<typeof searchQuery>;

export const searchHit = z.object({
  kind: z.enum(SEARCH_KINDS),
  /** The task's, project's, team's, person's or comment's id. */
  id: uuid,
  /** What to show, with highlight markers: a task's or project's title, a team's or person's name, a comment's task title. */
  title: z.string(),
  /** A line of context with highlight markers (a description's or comment's matching words, a person's email), or null. */
  snippet: z.string().nullable(),
  /** Where the hit lives, for opening it: a task (task and comment hits), a project, a team. */
  taskId: uuid.nullable(),
  projectId: uuid.nullable(),
  teamId: uuid.nullable(),
  /** A task's status and priority (task hits), for the palette's icons. */
  status: statusKey.nullable(),
  /** A task's status's name in its project's workflow (task hits), what the palette shows. */
  statusName: z.string().nullable(),
  statusCategory: statusCategory.nullable(),
  priority: z.enum(TASK_PRIORITIES).nullable(),
  /** The context line under the title: a task's project, a project's team, a person's team(s). */
  context: z.string().nullable(),
  /** Higher is better, comparable within a kind only. */
  rank: z.number(),
});
export type SearchHit = z.infer<typeof searchHit>;

export const searchResultDto = z.object({
  q: z.string(),
  /** Each kind asked for, in this order, best first; empty arrays for kinds without matches. */
  groups: z.object({
    task: z.array(searchHit),
    project: z.array(searchHit),
    team: z.array(searchHit),
    person: z.array(searchHit),
    comment: z.array(searchHit),
    /** Notes (issue 25): title and plain text; `context` is the note's project, else its team. */
    note: z.array(searchHit),
  }),
});
export type SearchResultDto = z.infer<typeof searchResultDto>;
