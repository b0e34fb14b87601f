import { z } from 'zod';
import {
  LIMITS,
  PROJECT_STATUSES,
  TASK_ACTIVITY_FIELDS,
  TASK_DETAIL_LIMITS,
  TASK_PRIORITIES,
  TASK_STATUSES,
  TEAM_ROLES,
} from '../constants';
import { STATUS_LIMITS } from '../workflow';
import { CUSTOM_FIELD_LIMITS, CUSTOM_FIELD_TYPES } from '../custom-fields';
import { isoDate, uuid } from './common';
import { statusCategory, statusKey } from './workflow';

/** A moment as toISOString() writes it (an offset is accepted on import). */
const isoDateTime = z.iso.datetime({ offset: true });
/** Text with something in it besides spaces. */
const filled = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .refine((s) => s.trim().length > 0, 'Required');

/** Import limits (issue 26): what one request may create, and the request body the import routes accept. */
export const TRANSFER_LIMITS = {
  /** Request body of the import routes (a Trello board with its actions is large). */
  bodyBytes: 20 * 1024 * 1024,
  /** Tasks one import creates at most. */
  tasksMax: 10_000,
  /** Rows of a CSV shown by a dry run. */
  previewRows: 5,
  /** Row errors and warnings a dry run lists at most (then "and N more"). */
  messagesMax: 100,
  titleMax: 200,
} as const;

/** The export file's identity: an import refuses anything else. */
export const EXPORT_FORMAT = 'crewboard-export';
export const EXPORT_VERSION = 1;

// ---------------------------------------------------------------------------------------------------------------
// The Crewboard export file. People are named by email (matched again on import); projects by the file's own key
// ('p1', 'p2'…, in the order of the file), so an import rebuilds the references without the old ids.
// ---------------------------------------------------------------------------------------------------------------

const email = z.string().max(LIMITS.emailMax);
const personRef = email.nullable();
const projectKey = z.string().regex(/^p\d{1,6}$/);

export const exportMember = z.object({ email, fullName: z.string().max(LIMITS.fullNameMax), role: z.enum(TEAM_ROLES) });

/**
 * A status of a project's workflow (issue 36), as the API lists it without its id. The import checks the workflow as
 * a whole (names unique, a status to start in and a completed one: domain/transfer/import-plan.ts planProblems).
 */
export const exportStatus = z.object({
  key: statusKey,
  name: z.string().max(STATUS_LIMITS.nameMax * 4),
  category: statusCategory,
  color: z.string().regex(/^#[0-9a-fA-F]{6}$/),
  position: z.number().int().min(0).max(10_000),
  wipLimit: z.number().int().min(1).max(STATUS_LIMITS.wipLimitMax).nullable(),
});
export type ExportStatus = z.infer<typeof exportStatus>;

export const exportProject = z.object({
  key: projectKey,
  name: filled(LIMITS.nameMax),
  description: z.string().max(LIMITS.descriptionMax).nullable(),
  status: z.enum(PROJECT_STATUSES),
  startDate: isoDate.nullable(),
  endDate: isoDate.nullable(),
  createdAt: isoDateTime,
  /** Its workflow, in order (decision 0024). Left out by an export from before workflows: the default four. */
  statuses: z.array(exportStatus).min(1).max(STATUS_LIMITS.perProjectMax).optional(),
});

const fieldKey = z.string().regex(/^f\d{1,6}$/);
const optionKey = z.string().regex(/^o\d{1,6}$/);

/**
 * A custom field of the team (issue 38), named by the file's own key ('f1'…) as tasks' values name it; its options by
 * keys too ('o1'…), its projects by their keys (null: all).
 */
export const exportField = z.object({
  key: fieldKey,
  name: filled(CUSTOM_FIELD_LIMITS.nameMax),
  type: z.enum(CUSTOM_FIELD_TYPES),
  options: z
    .array(
      z.object({
        key: optionKey,
        name: filled(CUSTOM_FIELD_LIMITS.optionNameMax),
        color: z.string().regex(/^#[0-9a-fA-F]{6}$/),
      }),
    )
    .max(CUSTOM_FIELD_LIMITS.optionsMax),
  projects: z.array(projectKey).max(10_000).nullable(),
  showOnCard: z.boolean(),
  archived: z.boolean(),
  unit: z.string().max(CUSTOM_FIELD_LIMITS.unitMax).nullable(),
  decimals: z.number().int().min(0).max(CUSTOM_FIELD_LIMITS.decimalsMax).nullable(),
});
export type ExportField = z.infer<typeof exportField>;

/**
 * A task's custom field values by field key, in the stored form (domain custom-fields.ts) except that a select names
 * its option by key, a multi-select its options' keys, and a person is their email.
 */
export const exportFieldValues = z
  .record(fieldKey, z.union([z.string().max(CUSTOM_FIELD_LIMITS.urlMax), z.number(), z.boolean(), z.array(optionKey).max(100)]))
  .refine((m) => Object.keys(m).length <= CUSTOM_FIELD_LIMITS.perTeamMax, 'Too many fields');

export const exportComment = z.object({
  /** The author's email, null when the account is gone. */
  author: personRef,
  authorName: z.string().max(LIMITS.fullNameMax).nullable(),
  /** Markdown; mentions as `<@mailto:email>` (the stored `<@user-id>` tokens, translated). */
  body: filled(TASK_DETAIL_LIMITS.commentMax),
  createdAt: isoDateTime,
  editedAt: isoDateTime.nullable(),
});

export const exportChecklistItem = z.object({
  title: filled(TASK_DETAIL_LIMITS.checklistItemMax),
  done: z.boolean(),
});

export const exportHistoryEntry = z.object({
  actor: personRef,
  field: z.enum(TASK_ACTIVITY_FIELDS),
  /** Stored values, with people as emails and projects as the file's keys. */
  oldValue: z.string().max(20_000).nullable(),
  newValue: z.string().max(20_000).nullable(),
  oldLabel: z.string().max(20_000).nullable(),
  newLabel: z.string().max(20_000).nullable(),
  createdAt: isoDateTime,
  /**
   * A status entry's categories at the time (decision 0024): the history keeps its meaning after its statuses change.
   * Left out by older files (the import reads them from the new project's statuses), and for other fields. Last: the
   * serializer writes optional fields after the others.
   */
  oldCategory: statusCategory.nullable().optional(),
  newCategory: statusCategory.nullable().optional(),
});

export const exportTask = z.object({
  project: projectKey,
  title: filled(TRANSFER_LIMITS.titleMax),
  description: z.string().max(LIMITS.descriptionMax).nullable(),
  /** The key of one of its project's statuses (of the default four when the project carries none). */
  status: statusKey,
  priority: z.enum(TASK_PRIORITIES),
  assignee: personRef,
  creator: personRef,
  dueDate: isoDate.nullable(),
  tags: z.array(filled(LIMITS.tagMax)).max(LIMITS.tagsMax),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
  comments: z.array(exportComment).max(10_000),
  checklist: z.array(exportChecklistItem).max(TASK_DETAIL_LIMITS.checklistItemsMax),
  history: z.array(exportHistoryEntry).max(10_000),
  /** Issue 37; left out by older files. Last: the serializer writes optional fields after the others. */
  startDate: isoDate.nullable().optional(),
  /** Issue 38: its custom field values by the file's field keys; left out by older files. */
  fields: exportFieldValues.optional(),
});

export const exportNote = z.object({
  title: z.string().max(500),
  project: projectKey.nullable(),
  pinned: z.boolean(),
  author: personRef,
  plainText: z.string().max(2_000_000),
  /** The Yjs document (its compacted state with the pending updates merged), base64; null when never edited. */
  state: z
    .string()
    .max(15_000_000)
    .regex(/^[A-Za-z0-9+/]*={0,2}$/)
    .nullable(),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});

export const crewboardExport = z.object({
  format: z.literal(EXPORT_FORMAT),
  version: z.literal(EXPORT_VERSION),
  exportedAt: isoDateTime,
  team: z.object({
    name: filled(LIMITS.nameMax).refine((s) => s.trim().length >= LIMITS.teamNameMin, 'Too short'),
    description: z.string().max(LIMITS.descriptionMax).nullable(),
  }),
  members: z.array(exportMember).max(10_000),
  projects: z.array(exportProject).max(10_000),
  tasks: z.array(exportTask).max(TRANSFER_LIMITS.tasksMax),
  notes: z.array(exportNote).max(10_000),
  /** Issue 38: the team's custom fields, in order; left out by older files (and then no task has values). */
  fields: z.array(exportField).max(CUSTOM_FIELD_LIMITS.perTeamMax).optional(),
});
export type CrewboardExport = z.infer<typeof crewboardExport>;
export type ExportTask = z.infer<typeof exportTask>;
export type ExportNote = z.infer<typeof exportNote>;

export const exportCsvQuery = z.object({ projectId: uuid.optional() });
export type ExportCsvQuery = z.infer<typeof exportCsvQuery>;

// ---------------------------------------------------------------------------------------------------------------
// Imports
// ---------------------------------------------------------------------------------------------------------------

/**
 * Where a Trello list's cards go: one of the four default statuses, a status of their own made from the list ('own':
 * its name, a category from its name or its place on the board), or nowhere.
 */
export const TRELLO_LIST_TARGETS = [...TASK_STATUSES, 'own', 'skip'] as const;
export type TrelloListTarget = (typeof TRELLO_LIST_TARGETS)[number];

const projectName = z.string().trim().min(1).max(LIMITS.nameMax);

/** The board is checked by the import itself (domain/transfer/trello.ts): garbage answers `import_invalid`. */
export const trelloImportInput = z
  .object({
    board: z.unknown(),
    mapping: z.record(z.string().max(100), z.enum(TRELLO_LIST_TARGETS)).optional(),
    projectName: projectName.optional(),
    dryRun: z.boolean().optional(),
  })
  .strict();
export type TrelloImportInput = z.infer<typeof trelloImportInput>;

const counts = z.object({ tasks: z.number().int(), comments: z.number().int(), checklistItems: z.number().int() });
export type ImportCounts = z.infer<typeof counts>;

export const trelloPreviewDto = z.object({
  dryRun: z.literal(true),
  boardName: z.string(),
  projectName: z.string(),
  lists: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      archived: z.boolean(),
      /** Cards of the list that would be imported (archived cards are not). */
      cards: z.number().int(),
      suggestedStatus: z.enum(TRELLO_LIST_TARGETS),
      /** What the request's mapping says, else the suggestion. */
      status: z.enum(TRELLO_LIST_TARGETS),
    }),
  ),
  /** Each label and the tag it becomes. */
  labels: z.array(z.object({ id: z.string(), name: z.string(), tag: z.string().nullable() })),
  /** The new project's workflow, in order: the default four, or made from the lists (those mapped to 'own'). */
  statuses: z.array(z.object({ key: z.string(), name: z.string(), category: statusCategory })),
  /** The board's custom fields the cards' values go into (issue 38): `existing`, a team field of that name reused. */
  fields: z.array(z.object({ name: z.string(), type: z.enum(CUSTOM_FIELD_TYPES), existing: z.boolean() })),
  counts,
  warnings: z.array(z.string()),
});
export type TrelloPreviewDto = z.infer<typeof trelloPreviewDto>;

export const importResultDto = z.object({
  projectId: uuid,
  projectName: z.string(),
  teamId: uuid,
  counts,
  warnings: z.array(z.string()),
});
export type ImportResultDto = z.infer<typeof importResultDto>;

/** The fields a CSV column can fill. */
export const CSV_IMPORT_FIELDS = [
  'title',
  'description',
  'status',
  'priority',
  'startDate',
  'dueDate',
  'tags',
  'assignee',
  'ignore',
] as const;
export type CsvImportField = (typeof CSV_IMPORT_FIELDS)[number];

export const CSV_IMPORT_FIELD_LABELS: Record<CsvImportField, string> = {
  title: 'Title',
  description: 'Description',
  status: 'Status',
  priority: 'Priority',
  startDate: 'Start date',
  dueDate: 'Due date',
  tags: 'Tags',
  assignee: 'Assignee',
  ignore: 'Ignore',
};

/** A column mapped to a new custom field named after its header (issue 38): Number when every value is a number, else Text. */
export const CSV_NEW_FIELD = 'new_field';

/**
 * Where a column goes: a task field, one of the team's custom fields (`field:<id>`, issue 38), or a new custom field
 * (`new_field`).
 */
export const csvMappingTarget = z.union([
  z.enum(CSV_IMPORT_FIELDS),
  z.literal(CSV_NEW_FIELD),
  z.templateLiteral(['field:', z.uuid()]),
]);
export type CsvMappingTarget = z.infer<typeof csvMappingTarget>;

export const csvImportInput = z
  .object({
    csv: z.string().max(TRANSFER_LIMITS.bodyBytes),
    /** Column header → field. Left out on a first dry run: the answer suggests one. */
    mapping: z.record(z.string().max(500), csvMappingTarget).optional(),
    /** Into this project of the team… */
    projectId: uuid.optional(),
    /** …or into a new one of this name ('Imported tasks' when neither is given). */
    projectName: projectName.optional(),
    dryRun: z.boolean().optional(),
  })
  .strict()
  .refine((v) => !(v.projectId && v.projectName), {
    message: 'Give a project or a new project name, not both',
    path: ['projectName'],
  });
export type CsvImportInput = z.infer<typeof csvImportInput>;

export const csvPreviewTask = z.object({
  line: z.number().int(),
  title: z.string(),
  description: z.string().nullable(),
  /** A status key: one of the four read from the file, or what it becomes in the project the tasks go into. */
  status: statusKey,
  priority: z.enum(TASK_PRIORITIES),
  startDate: isoDate.nullable(),
  dueDate: isoDate.nullable(),
  tags: z.array(z.string()),
  /** The member it will be assigned to (their name), null for nobody. */
  assignee: z.string().nullable(),
  /** Its custom field values as a person reads them, by field name (issue 38); left out when it has none. */
  fields: z.record(z.string(), z.string()).optional(),
});
export type CsvPreviewTask = z.infer<typeof csvPreviewTask>;

export const csvRowError = z.object({ line: z.number().int(), message: z.string() });
export type CsvRowError = z.infer<typeof csvRowError>;

export const csvPreviewDto = z.object({
  dryRun: z.literal(true),
  headers: z.array(z.string()),
  /** The mapping used: the request's, else the suggested one. */
  mapping: z.record(z.string(), csvMappingTarget),
  /** The team's custom fields a column can be mapped to (not archived), in order (issue 38). */
  fields: z.array(z.object({ id: uuid, name: z.string(), type: z.enum(CUSTOM_FIELD_TYPES) })),
  rows: z.array(csvPreviewTask),
  errors: z.array(csvRowError),
  counts,
  warnings: z.array(z.string()),
});
export type CsvPreviewDto = z.infer<typeof csvPreviewDto>;

/** Everything an import created, counted (a team import's answer, the `import.completed` webhook's). */
export const importCountsAll = z.object({
  projects: z.number().int(),
  tasks: z.number().int(),
  comments: z.number().int(),
  checklistItems: z.number().int(),
  history: z.number().int(),
  notes: z.number().int(),
});

export const teamImportResultDto = z.object({
  teamId: uuid,
  teamName: z.string(),
  counts: importCountsAll,
  warnings: z.array(z.string()),
});
export type TeamImportResultDto = z.infer<typeof teamImportResultDto>;
