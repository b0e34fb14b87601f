/**
 * A Trello board export (Board menu → Print, export and share → Export as JSON) read into the tasks of one new project
 * (issue 26). Pure: the server parses the request, this plans what to create, the server writes it in one transaction.
 *
 * What goes where:
 * - each list's cards → tasks, with the list's status from the mapping (or the suggestion from its name); a list
 *   mapped to 'skip' is left out. An archived list is suggested 'skip', so its cards are left out unless the mapping
 *   gives it a status. Archived cards are always left out.
 * - a list mapped to 'own' becomes a status of the new project's workflow (issue 36): the list's name, a category from
 *   words in it ('Done' completed, "Won't do" canceled, 'Icebox' backlog, 'QA' started: listCategory) or else from its
 *   place on the board (listCategories). The workflow is then the statuses the lists map to, in board order; with no
 *   list mapped to 'own' it is the default four, as before.
 * - card name → title, description → description, due → due date (its calendar day in the importing user's time
 *   zone), labels → tags (the label's name, else its colour), checklists → checklist items (prefixed with the
 *   checklist's name when a card has several), comments (`commentCard` actions) → comments, oldest first, starting
 *   "Originally by <name> on <YYYY-MM-DD>:".
 * - card members → the assignee: the first whose address or full name matches one member of the team; every other
 *   member of the card is named in its description. Attachments that are links → links in the description; files
 *   uploaded to Trello cannot be fetched without the owner's Trello sign-in, so they are left out, with a warning.
 * - texts longer than Crewboard holds are shortened, with a warning.
 * - the board's custom fields (text, number, date, checkbox, list → select with its options' names and colours) →
 *   the team's custom fields (one of the same name and type reused, its missing options added), cards'
 *   `customFieldItems` → the tasks' values (issue 38).
 */
import { z } from 'zod';
import { localDateIn } from '../analytics';
import { LIMITS, TASK_DETAIL_LIMITS } from '../constants';
import { validateStartDate } from '../dates';
import { TRANSFER_LIMITS, type TrelloListTarget } from '../schemas/transfer';
import {
  DEFAULT_STATUSES,
  isNotStarted,
  nameIdentity,
  STATUS_CATEGORY_COLORS,
  STATUS_LIMITS,
  type StatusCategory,
  statusKeyFor,
} from '../workflow';
import {
  CUSTOM_FIELD_LIMITS,
  CUSTOM_FIELD_OPTION_COLORS,
  type CustomFieldDef,
  type CustomFieldType,
  validateFieldValue,
} from '../custom-fields';
import {
  IMPORT_FIELDS_SKIPPED,
  type ImportPlan,
  oneProjectPlan,
  type PlanField,
  type PlanFieldValues,
  type PlanStatus,
} from './import-plan';

const text = z.string().max(100_000);
const id = z.string().min(1).max(100);

const trelloLabel = z.looseObject({ id, name: text.nullish(), color: z.string().max(100).nullish() });
const trelloList = z.looseObject({ id, name: text, closed: z.boolean().nullish(), pos: z.number().nullish() });
const trelloCard = z.looseObject({
  id,
  name: text,
  desc: text.nullish(),
  idList: id,
  closed: z.boolean().nullish(),
  due: z.string().max(100).nullish(),
  /** The card's start (Trello's 'Start date'), an ISO date-time like `due`. */
  start: z.string().max(100).nullish(),
  idLabels: z.array(id).nullish(),
  labels: z.array(trelloLabel).nullish(),
  pos: z.number().nullish(),
  /** Each checked on its own (attachmentOf, memberOf): one odd entry does not refuse the board. */
  idMembers: z.array(z.unknown()).nullish(),
  attachments: z.array(z.unknown()).nullish(),
  /** The card's custom field values (issue 38), each checked on its own (trelloFieldItem). */
  customFieldItems: z.array(z.unknown()).nullish(),
});
/** A board's custom field (Trello's Custom Fields power-up): text, number, date, checkbox, list (a select). */
const trelloField = z.looseObject({
  id,
  name: z.string().max(10_000),
  type: z.string().max(50),
  pos: z.number().nullish(),
  options: z
    .array(
      z.looseObject({
        id,
        value: z.looseObject({ text: z.string().max(10_000).nullish() }).nullish(),
        color: z.string().max(50).nullish(),
        pos: z.number().nullish(),
      }),
    )
    .nullish(),
  display: z.looseObject({ cardFront: z.boolean().nullish() }).nullish(),
});
const trelloFieldItem = z.looseObject({
  idCustomField: id,
  idValue: z.string().max(100).nullish(),
  value: z
    .looseObject({
      text: z.string().max(100_000).nullish(),
      number: z.string().max(100).nullish(),
      date: z.string().max(100).nullish(),
      checked: z.string().max(10).nullish(),
    })
    .nullish(),
});
const trelloAttachment = z.looseObject({
  name: z.string().max(10_000).nullish(),
  url: z.string().max(10_000).nullish(),
  isUpload: z.boolean().nullish(),
});
const trelloMember = z.looseObject({
  id,
  fullName: z.string().max(10_000).nullish(),
  username: z.string().max(10_000).nullish(),
  email: z.string().max(10_000).nullish(),
});
const trelloCheckItem = z.looseObject({ name: text, state: z.string().max(50).nullish(), pos: z.number().nullish() });
const trelloChecklist = z.looseObject({
  id,
  idCard: id,
  name: text.nullish(),
  pos: z.number().nullish(),
  checkItems: z.array(trelloCheckItem).nullish(),
});
/** Only comments matter; other actions (of any shape) are passed over. */
const trelloComment = z.looseObject({
  type: z.literal('commentCard'),
  date: z.string().max(100).nullish(),
  data: z.looseObject({ text, card: z.looseObject({ id }) }),
  memberCreator: z.looseObject({ fullName: text.nullish(), username: text.nullish() }).nullish(),
});

export const trelloBoard = z.looseObject({
  name: text,
  lists: z.array(trelloList).max(10_000),
  cards: z.array(trelloCard).max(100_000),
  labels: z.array(trelloLabel).nullish(),
  checklists: z.array(trelloChecklist).nullish(),
  actions: z.array(z.unknown()).nullish(),
  members: z.array(z.unknown()).nullish(),
  /** Each checked on its own: a field of another power-up's shape is passed over, with a warning. */
  customFields: z.array(z.unknown()).nullish(),
});
export type TrelloBoard = z.infer<typeof trelloBoard>;
type TrelloCard = z.infer<typeof trelloCard>;
type TrelloComment = z.infer<typeof trelloComment>;

/** The board, or the first few reasons it is not one. */
export function parseTrelloBoard(value: unknown): { ok: true; board: TrelloBoard } | { ok: false; issues: string[] } {
  const parsed = trelloBoard.safeParse(value);
  if (parsed.success) return { ok: true, board: parsed.data };
  return {
    ok: false,
    issues: parsed.error.issues.slice(0, 5).map((i) => `${i.path.length ? i.path.join('.') : 'board'}: ${i.message}`),
  };
}

const byPos = <T extends { pos?: number | null }>(a: T, b: T) => (a.pos ?? 0) - (b.pos ?? 0);

/** The status a list's name suggests ('Doing' → in progress, 'Done' → completed…); archived lists: skip. */
export function suggestListStatus(name: string, archived = false): TrelloListTarget {
  if (archived) return 'skip';
  const n = name.toLowerCase();
  if (/\b(done|complete[d]?|finished|closed|shipped|released|resolved)\b/.test(n)) return 'completed';
  if (/\b(review|reviewing|qa|testing|test|verify|verification|approval)\b/.test(n)) return 'review';
  if (/\b(doing|in[ -]?progress|wip|working|started|active|current|ongoing)\b/.test(n)) return 'in_progress';
  return 'todo';
}

/** Words of a list's name that say its category, tried in this order (a name may hold two: "Won't do" before 'do'). */
const CATEGORY_WORDS: readonly (readonly [StatusCategory, RegExp])[] = [
  ['canceled', /\b(won'?t do|wont do|will not do|cancell?ed|rejected|dropped|abandoned)\b/],
  ['completed', /\b(done|complete[d]?|finished|closed|shipped|released|resolved)\b/],
  ['backlog', /\b(backlog|ice ?box|someday)\b/],
  ['unstarted', /\b(to ?do|not started)\b/],
  [
    'started',
    /\b(doing|in[ -]?progress|review|reviewing|qa|testing|test|verify|verification|approval|wip|working|started|active|ongoing)\b/,
  ],
];

/** The category a list's name says ('Done' → completed, "Won't do" → canceled, 'Icebox' → backlog, 'QA' → started), or null. */
export function listCategory(name: string): StatusCategory | null {
  const n = name.toLowerCase().replace(/[\u2018\u2019]/g, "'");
  return CATEGORY_WORDS.find(([, words]) => words.test(n))?.[0] ?? null;
}

/**
 * The category of each list, in board order: its name's (listCategory), else its place. The first list, and any list
 * before the first started one, is where work waits (unstarted); the last is where it ends (completed); one between
 * is started. `known` gives a list's category when it is already fixed (a list mapped onto a default status).
 */
export function listCategories(lists: readonly { name: string; known?: StatusCategory | null }[]): StatusCategory[] {
  const named = lists.map((l) => l.known ?? listCategory(l.name));
  const firstStarted = named.indexOf('started');
  return named.map((category, i) => {
    if (category) return category;
    if (i === lists.length - 1 && i > 0) return 'completed';
    if (i === 0 || i < firstStarted) return 'unstarted';
    return 'started';
  });
}

/** A status name from a list's name: trimmed, at most STATUS_LIMITS.nameMax, ' (2)'… when the workflow has it already. */
function uniqueStatusName(listName: string, taken: Set<string>): string {
  const clip = (s: string, max: number) => [...s].slice(0, max).join('').trim();
  const base = clip(listName.trim(), STATUS_LIMITS.nameMax) || 'Untitled list';
  let name = base;
  for (let n = 2; taken.has(nameIdentity(name)); n++) {
    const suffix = ` (${n})`;
    name = `${clip(base, STATUS_LIMITS.nameMax - suffix.length)}${suffix}`;
  }
  taken.add(nameIdentity(name));
  return name;
}

/**
 * The new project's workflow when some list is mapped to 'own' (null otherwise: the default four), and the status
 * key each imported list's cards take. In board order: a list mapped to 'own' is its own status, a list mapped to a
 * default status brings that status (once). A workflow left without a status where work waits gets the default
 * 'To Do' first, one without a completed status the default 'Completed' last. Keys: the defaults' own, then each
 * list's name's (statusKeyFor).
 */
export function trelloWorkflow(lists: readonly { id: string; name: string; target: TrelloListTarget }[]): {
  statuses: PlanStatus[] | null;
  keyOf: Map<string, string>;
} {
  const imported = lists.filter((l) => l.target !== 'skip');
  const keyOf = new Map<string, string>();
  if (!imported.some((l) => l.target === 'own')) {
    for (const l of imported) keyOf.set(l.id, l.target);
    return { statuses: null, keyOf };
  }
  const defaultOf = (key: string) => DEFAULT_STATUSES.find((d) => d.key === key)!;
  const categories = listCategories(
    imported.map((l) => ({ name: l.name, known: l.target === 'own' ? null : defaultOf(l.target).category })),
  );
  type Entry = { list?: string; status: Omit<PlanStatus, 'key'> & { key: string | null } };
  const defaultEntry = (key: string): Entry => {
    const { name, category, color } = defaultOf(key);
    return { status: { key, name, category, color, wipLimit: null } };
  };
  const entries: Entry[] = [];
  const defaultsUsed = new Set<string>();
  for (const [i, l] of imported.entries()) {
    if (l.target !== 'own') {
      if (!defaultsUsed.has(l.target)) entries.push(defaultEntry(l.target));
      defaultsUsed.add(l.target);
      continue;
    }
    const category = categories[i]!;
    entries.push({
      list: l.id,
      status: { key: null, name: l.name, category, color: STATUS_CATEGORY_COLORS[category], wipLimit: null },
    });
  }
  if (!entries.some((e) => isNotStarted(e.status.category))) entries.unshift(defaultEntry('todo'));
  if (!entries.some((e) => e.status.category === 'completed')) entries.push(defaultEntry('completed'));

  // Names: the defaults' as they are, each list's made unique after them; keys likewise.
  const names = new Set(entries.flatMap((e) => (e.list ? [] : [nameIdentity(e.status.name)])));
  const keys = new Set(entries.flatMap((e) => (e.status.key ? [e.status.key] : [])));
  const statuses = entries.map((e): PlanStatus => {
    if (!e.list) return { ...e.status, key: e.status.key! };
    const name = uniqueStatusName(e.status.name, names);
    const key = statusKeyFor(name, keys);
    keys.add(key);
    keyOf.set(e.list, key);
    return { ...e.status, name, key };
  });
  for (const l of imported) if (l.target !== 'own') keyOf.set(l.id, l.target);
  return { statuses, keyOf };
}

/** A label's tag: its name, else its colour; shortened to what a tag holds. */
export function labelTag(label: { name?: string | null; color?: string | null }): string | null {
  const name = (label.name ?? '').trim() || (label.color ?? '').trim();
  return name ? name.slice(0, LIMITS.tagMax).trim() : null;
}

/**
 * The calendar day of a Trello due time in `timeZone` (an IANA name; UTC by default), or null when there is none or it
 * is not a time. Trello stores the moment in UTC: 23:30 in New York is already the next day in UTC.
 */
export function trelloDueDate(due: string | null | undefined, timeZone = 'UTC'): string | null {
  if (!due) return null;
  const ms = Date.parse(due);
  if (Number.isNaN(ms) || Math.abs(ms) > 8.64e15) return null;
  let day: string;
  try {
    day = localDateIn(ms, timeZone);
  } catch {
    day = new Date(ms).toISOString().slice(0, 10);
  }
  // PostgreSQL's date range is wide, but a year past 9999 is not an ISO day.
  return /^\d{4}-\d{2}-\d{2}$/.test(day) ? day : null;
}

/** "Originally by Ada Lovelace on 2024-01-02:" and the comment's text below it. */
export function trelloCommentBody(authorName: string, date: string | null, body: string): string {
  const on = date ? ` on ${date}` : '';
  return `Originally by ${authorName}${on}:\n\n${body}`;
}

export interface PlannedTask {
  title: string;
  description: string | null;
  /** The key of its status in the new project's workflow. */
  status: string;
  /** The team member the card's members matched first, or null. */
  assigneeId: string | null;
  startDate: string | null;
  dueDate: string | null;
  tags: string[];
  checklist: { title: string; done: boolean }[];
  comments: string[];
  /** Custom field values by the plan's field refs (the Trello field ids). */
  fields: PlanFieldValues;
}

export interface TrelloPlan {
  boardName: string;
  lists: {
    id: string;
    name: string;
    archived: boolean;
    cards: number;
    suggestedStatus: TrelloListTarget;
    status: TrelloListTarget;
  }[];
  labels: { id: string; name: string; tag: string | null }[];
  /** The new project's workflow (trelloWorkflow); null: the default four. */
  statuses: PlanStatus[] | null;
  /** The board's custom fields that become team fields (`existingId`: one of the team's reused), in board order. */
  fields: PlanField[];
  /** In board order: list by list, each list's cards top to bottom. */
  tasks: PlannedTask[];
  counts: { tasks: number; comments: number; checklistItems: number };
  warnings: string[];
}

/** Collects warnings, keeping the first `messagesMax` and counting the rest. */
class Warnings {
  private readonly list: string[] = [];
  private dropped = 0;
  add(message: string) {
    if (this.list.length < TRANSFER_LIMITS.messagesMax) this.list.push(message);
    else this.dropped++;
  }
  done(): string[] {
    return this.dropped ? [...this.list, `…and ${this.dropped} more`] : this.list;
  }
}

const clip = (value: string, max: number, warn: () => void): string => {
  if (value.length <= max) return value;
  warn();
  return value.slice(0, max);
};

const cardLabel = (card: TrelloCard) => `Card "${card.name.trim().slice(0, 60) || card.id}"`;

/** A member of the team a card's members are matched against. */
export interface TeamMemberRef {
  id: string;
  email: string;
  fullName: string;
}

export interface TrelloPlanOptions {
  /** The team's active members: card members whose address or name matches one become assignees. */
  members?: readonly TeamMemberRef[];
  /** The importing user's time zone: due times become days there (UTC without one). */
  timeZone?: string | null;
  /** The team's custom fields: a board field of the same name and type reuses one (issue 38). */
  teamFields?: readonly Pick<CustomFieldDef, 'id' | 'name' | 'type' | 'options' | 'projectIds' | 'archived'>[];
  /**
   * May the importer add fields and options to the team (its owner and admins: importMayAddFields)? Left out: yes. When
   * not, the board's fields the team lacks, and options its fields lack, are left out with one warning
   * (IMPORT_FIELDS_SKIPPED) if a card has a value of them.
   */
  canAddFields?: boolean;
}

/** What a planner that may not add fields left out (Trello refs), and whether an imported card had a value of it. */
interface SkippedFields {
  fields: Set<string>;
  options: Set<string>;
  hit: boolean;
}

/** Trello's field types and what they become. */
const TRELLO_FIELD_TYPES: Record<string, CustomFieldType> = {
  text: 'text',
  number: 'number',
  date: 'date',
  checkbox: 'checkbox',
  list: 'select',
};

/** Trello's colour names → the options' colours (the nearest of CUSTOM_FIELD_OPTION_COLORS). */
const TRELLO_COLORS: Record<string, string> = {
  green: '#16a34a',
  yellow: '#ca8a04',
  orange: '#ea580c',
  red: '#dc2626',
  purple: '#7c3aed',
  blue: '#2563eb',
  sky: '#0891b2',
  lime: '#16a34a',
  pink: '#db2777',
  black: '#64748b',
};

/**
 * The board's custom fields as the plan's fields: each reuses the team's field of the same name and type (one for
 * every project, not archived), adding the options it lacks; else a new field, unless the team has the name for
 * another kind of field (then its values are left out, with a warning). Refs: the Trello ids (fields and options).
 */
function planTrelloFields(
  board: TrelloBoard,
  options: TrelloPlanOptions,
  warnings: Warnings,
  skipped: SkippedFields,
): PlanField[] {
  const fields: PlanField[] = [];
  const team = options.teamFields ?? [];
  const canAdd = options.canAddFields ?? true;
  let room = CUSTOM_FIELD_LIMITS.perTeamMax - team.length;
  const names = new Set<string>();
  const parsed = (board.customFields ?? []).flatMap((raw) => {
    const f = trelloField.safeParse(raw);
    return f.success ? [f.data] : [];
  });
  for (const f of [...parsed].sort(byPos)) {
    const type = TRELLO_FIELD_TYPES[f.type];
    const name = f.name.trim().slice(0, CUSTOM_FIELD_LIMITS.nameMax).trim();
    if (!type || !name) {
      warnings.add(`Custom field "${f.name.slice(0, 40)}": its kind (${f.type.slice(0, 20)}) is not imported`);
      continue;
    }
    if (names.has(name.toLowerCase())) {
      warnings.add(`Custom field "${name}": the board has two of that name; the second is left out`);
      continue;
    }
    names.add(name.toLowerCase());
    const trelloOptions = [...(f.options ?? [])].sort(byPos).flatMap((o, i) => {
      const optionName = (o.value?.text ?? '').trim().slice(0, CUSTOM_FIELD_LIMITS.optionNameMax).trim();
      if (!optionName) return [];
      const color = TRELLO_COLORS[o.color ?? ''] ?? CUSTOM_FIELD_OPTION_COLORS[i % CUSTOM_FIELD_OPTION_COLORS.length]!;
      return [{ ref: o.id, name: optionName, color }];
    });
    const unique = trelloOptions
      .filter((o, i) => trelloOptions.findIndex((x) => x.name.toLowerCase() === o.name.toLowerCase()) === i)
      .slice(0, CUSTOM_FIELD_LIMITS.optionsMax);
    const same = team.find((t) => t.name.trim().toLowerCase() === name.toLowerCase());
    if (same) {
      if (same.type !== type || same.archived || same.projectIds !== null) {
        warnings.add(`Custom field "${name}": the team has a field of that name that cannot take its values: left out`);
        continue;
      }
      const kept = unique.flatMap((o): PlanField['options'] => {
        const existing = same.options.find((x) => x.name.toLowerCase() === o.name.toLowerCase());
        if (existing) return [{ ...o, id: existing.id }];
        if (canAdd) return [o];
        skipped.options.add(o.ref);
        return [];
      });
      // Existing options first (in their order), then the new ones; a board option of an existing name uses it.
      const ordered = [
        ...same.options.map(
          (x) => kept.find((o) => o.id === x.id) ?? { ref: `keep:${x.id}`, id: x.id, name: x.name, color: x.color },
        ),
        ...kept.filter((o) => !o.id),
      ].slice(0, CUSTOM_FIELD_LIMITS.optionsMax);
      fields.push({
        ref: f.id,
        existingId: same.id,
        name: same.name,
        type,
        options: ordered,
        projectRefs: null,
        showOnCard: false,
        archived: false,
        unit: null,
        decimals: null,
      });
      continue;
    }
    if (!canAdd) {
      skipped.fields.add(f.id);
      continue;
    }
    if (room <= 0) {
      warnings.add(`Custom field "${name}": a team can have at most ${CUSTOM_FIELD_LIMITS.perTeamMax} fields: left out`);
      continue;
    }
    room--;
    fields.push({
      ref: f.id,
      name,
      type,
      options: type === 'select' ? unique : [],
      projectRefs: null,
      showOnCard: Boolean(f.display?.cardFront),
      archived: false,
      unit: null,
      decimals: null,
    });
  }
  return fields;
}

/** A card's custom field values (by the Trello field ids), each checked by its field's rule; what does not fit is left out. */
function cardFieldValues(card: TrelloCard, fields: readonly PlanField[], context: CardContext): PlanFieldValues {
  const values: PlanFieldValues = {};
  for (const raw of card.customFieldItems ?? []) {
    const item = trelloFieldItem.safeParse(raw);
    if (!item.success) continue;
    const field = fields.find((f) => f.ref === item.data.idCustomField);
    if (!field) {
      if (context.skipped.fields.has(item.data.idCustomField)) context.skipped.hit = true;
      continue;
    }
    const v = item.data.value;
    let value: unknown = null;
    if (field.type === 'select') {
      value = item.data.idValue ? (field.options.find((o) => o.ref === item.data.idValue)?.ref ?? null) : null;
      if (value === null && item.data.idValue && context.skipped.options.has(item.data.idValue)) context.skipped.hit = true;
    } else if (field.type === 'number') value = v?.number != null && v.number.trim() !== '' ? Number(v.number) : null;
    else if (field.type === 'date') value = trelloDueDate(v?.date, context.timeZone);
    else if (field.type === 'checkbox') value = v?.checked === 'true';
    else value = v?.text ?? null;
    const checked = validateFieldValue(
      {
        name: field.name,
        type: field.type,
        decimals: field.decimals,
        options: field.options.map((o) => ({ id: o.ref, name: o.name, color: o.color })),
      },
      typeof value === 'string' && field.type === 'text' ? value.slice(0, CUSTOM_FIELD_LIMITS.textMax) : value,
      () => false,
    );
    if (checked.ok && checked.value !== null) values[field.ref] = checked.value;
    else if (!checked.ok) context.warnings.add(`${cardLabel(card)}: ${checked.message}: left out`);
  }
  return values;
}

/** What the cards need besides themselves: the board's labels, checklists, comments and people, and the team. */
interface CardContext {
  labelsById: Map<string, z.infer<typeof trelloLabel>>;
  checklistsByCard: Map<string, z.infer<typeof trelloChecklist>[]>;
  commentsByCard: Map<string, TrelloComment[]>;
  membersById: Map<string, z.infer<typeof trelloMember>>;
  matchMember: (m: z.infer<typeof trelloMember>) => TeamMemberRef | null;
  timeZone: string;
  unmatched: Set<string>;
  uploads: { count: number };
  warnings: Warnings;
  fields: PlanField[];
  skipped: SkippedFields;
}

/** Finds a team member by a Trello member's address, else their full name (when one member only has it). */
function memberMatcher(members: readonly TeamMemberRef[]) {
  const byEmail = new Map(members.map((m) => [m.email.toLowerCase(), m]));
  const byName = new Map<string, TeamMemberRef | null>();
  for (const m of members) {
    const key = m.fullName.trim().toLowerCase();
    if (key) byName.set(key, byName.has(key) ? null : m);
  }
  return (t: z.infer<typeof trelloMember>): TeamMemberRef | null => {
    const email = t.email?.trim().toLowerCase();
    const name = t.fullName?.trim().toLowerCase();
    return (email && byEmail.get(email)) || (name && byName.get(name)) || null;
  };
}

/** What importing `board` with `mapping` (list id → status or 'skip'; missing lists take the suggestion) creates. */
export function planTrelloImport(
  board: TrelloBoard,
  mapping: Record<string, TrelloListTarget> = {},
  options: TrelloPlanOptions = {},
): TrelloPlan {
  const warnings = new Warnings();
  const lists = [...board.lists].sort(byPos);
  const targetOf = new Map<string, TrelloListTarget>();
  for (const list of lists) targetOf.set(list.id, mapping[list.id] ?? suggestListStatus(list.name, Boolean(list.closed)));
  for (const key of Object.keys(mapping)) {
    if (!targetOf.has(key)) warnings.add(`The mapping names a list that is not on the board (${key.slice(0, 40)})`);
  }

  const labelsById = new Map((board.labels ?? []).map((l) => [l.id, l]));
  const checklistsByCard = new Map<string, z.infer<typeof trelloChecklist>[]>();
  for (const c of board.checklists ?? []) checklistsByCard.set(c.idCard, [...(checklistsByCard.get(c.idCard) ?? []), c]);
  const commentsByCard = new Map<string, TrelloComment[]>();
  for (const action of board.actions ?? []) {
    const comment = trelloComment.safeParse(action);
    if (!comment.success) continue;
    const cardId = comment.data.data.card.id;
    commentsByCard.set(cardId, [...(commentsByCard.get(cardId) ?? []), comment.data]);
  }

  const membersById = new Map<string, z.infer<typeof trelloMember>>();
  for (const raw of board.members ?? []) {
    const member = trelloMember.safeParse(raw);
    if (member.success) membersById.set(member.data.id, member.data);
  }
  const skipped: SkippedFields = { fields: new Set(), options: new Set(), hit: false };
  const context: CardContext = {
    labelsById,
    checklistsByCard,
    commentsByCard,
    membersById,
    matchMember: memberMatcher(options.members ?? []),
    timeZone: options.timeZone || 'UTC',
    unmatched: new Set(),
    uploads: { count: 0 },
    warnings,
    fields: planTrelloFields(board, options, warnings, skipped),
    skipped,
  };

  const cardsByList = new Map<string, TrelloCard[]>();
  let archivedCards = 0;
  let orphanCards = 0;
  for (const card of board.cards) {
    if (card.closed) {
      archivedCards++;
      continue;
    }
    if (!targetOf.has(card.idList)) {
      orphanCards++;
      continue;
    }
    cardsByList.set(card.idList, [...(cardsByList.get(card.idList) ?? []), card]);
  }
  if (archivedCards) warnings.add(`${archivedCards} archived card${archivedCards === 1 ? ' is' : 's are'} left out`);
  if (orphanCards) warnings.add(`${orphanCards} card${orphanCards === 1 ? '' : 's'} of no list on the board left out`);

  const workflow = trelloWorkflow(lists.map((l) => ({ id: l.id, name: l.name, target: targetOf.get(l.id)! })));
  if ((workflow.statuses?.length ?? 0) > STATUS_LIMITS.perProjectMax) {
    warnings.add(`A project can have at most ${STATUS_LIMITS.perProjectMax} statuses: map fewer lists to their own status`);
  }
  const tasks: PlannedTask[] = [];
  let skippedCards = 0;
  for (const list of lists) {
    const cards = (cardsByList.get(list.id) ?? []).sort(byPos);
    const key = workflow.keyOf.get(list.id);
    if (key === undefined) {
      skippedCards += cards.length;
      continue;
    }
    for (const card of cards) tasks.push(planCard(card, key, context));
  }
  if (skippedCards) warnings.add(`${skippedCards} card${skippedCards === 1 ? ' is' : 's are'} in lists left out`);
  const unmatched = context.unmatched.size;
  if (unmatched) {
    warnings.add(
      `${unmatched} Trello member${unmatched === 1 ? ' matches' : 's match'} no member of the team: named in the card descriptions, not assigned`,
    );
  }
  const uploads = context.uploads.count;
  if (uploads) {
    warnings.add(
      `${uploads} attached file${uploads === 1 ? '' : 's'} stored on Trello could not be fetched and ${uploads === 1 ? 'is' : 'are'} left out`,
    );
  }

  return {
    boardName: board.name,
    lists: lists.map((list) => ({
      id: list.id,
      name: list.name,
      archived: Boolean(list.closed),
      cards: cardsByList.get(list.id)?.length ?? 0,
      suggestedStatus: suggestListStatus(list.name, Boolean(list.closed)),
      status: targetOf.get(list.id)!,
    })),
    labels: (board.labels ?? []).map((l) => ({ id: l.id, name: l.name ?? '', tag: labelTag(l) })),
    statuses: workflow.statuses,
    // Only the fields some imported card has a value of (and every reused one's new options are then added).
    fields: context.fields.filter((f) => tasks.some((t) => f.ref in t.fields)),
    tasks,
    counts: {
      tasks: tasks.length,
      comments: tasks.reduce((n, t) => n + t.comments.length, 0),
      checklistItems: tasks.reduce((n, t) => n + t.checklist.length, 0),
    },
    // The one warning of fields left out for want of the right comes first, never lost among the capped ones.
    warnings: skipped.hit ? [IMPORT_FIELDS_SKIPPED, ...warnings.done()] : warnings.done(),
  };
}

/** A link for Markdown: http(s) only, with the characters that would end it encoded. */
function markdownLink(label: string, url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return null;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return null;
  const href = parsed.href.replace(/[()<>\s]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
  const text = (label.trim() || parsed.hostname).replace(/[\\[\]*_`<>]/g, (c) => `\\${c}`).slice(0, 200);
  return `[${text}](${href})`;
}

/** What a card's description gets below its own text: the members not assigned, and the attachments that are links. */
function cardPeopleAndLinks(card: TrelloCard, context: CardContext): { assigneeId: string | null; extra: string[] } {
  let assigneeId: string | null = null;
  const named: string[] = [];
  for (const raw of card.idMembers ?? []) {
    if (typeof raw !== 'string') continue;
    const member = context.membersById.get(raw);
    const match = member ? context.matchMember(member) : null;
    if (match && assigneeId === null) {
      assigneeId = match.id;
      continue;
    }
    if (!match) context.unmatched.add(raw);
    named.push(member?.fullName?.trim() || member?.username?.trim() || 'a Trello member');
  }
  const links: string[] = [];
  for (const raw of card.attachments ?? []) {
    const attachment = trelloAttachment.safeParse(raw);
    if (!attachment.success) continue;
    const { name, url, isUpload } = attachment.data;
    if (isUpload) {
      context.uploads.count++;
      continue;
    }
    const link = url ? markdownLink(name ?? '', url) : null;
    if (link) links.push(`- ${link}`);
    else context.uploads.count++;
  }
  const extra: string[] = [];
  if (named.length) extra.push(`Members on Trello: ${named.join(', ')}`);
  if (links.length) extra.push(`Links:\n${links.join('\n')}`);
  return { assigneeId, extra };
}

function planCard(card: TrelloCard, status: string, context: CardContext): PlannedTask {
  const { labelsById, checklistsByCard, commentsByCard, warnings } = context;
  const name = cardLabel(card);
  const title = clip(card.name.trim() || 'Untitled card', TRANSFER_LIMITS.titleMax, () =>
    warnings.add(`${name}: title shortened to ${TRANSFER_LIMITS.titleMax} characters`),
  ).trim();
  const { assigneeId, extra } = cardPeopleAndLinks(card, context);
  const desc = [(card.desc ?? '').trim(), ...extra].filter(Boolean).join('\n\n');
  const description = desc
    ? clip(desc, LIMITS.descriptionMax, () =>
        warnings.add(`${name}: description shortened to ${LIMITS.descriptionMax} characters`),
      )
    : null;

  // Labels: the card's own copies, else the board's by id; each tag once.
  const labels = card.labels?.length ? card.labels : (card.idLabels ?? []).flatMap((lid) => labelsById.get(lid) ?? []);
  const tags: string[] = [];
  for (const label of labels) {
    const tag = labelTag(label);
    if (tag && !tags.some((t) => t.toLowerCase() === tag.toLowerCase())) tags.push(tag);
  }
  if (tags.length > LIMITS.tagsMax) warnings.add(`${name}: only the first ${LIMITS.tagsMax} labels become tags`);

  const lists = [...(checklistsByCard.get(card.id) ?? [])].sort(byPos);
  const checklist: PlannedTask['checklist'] = [];
  for (const list of lists) {
    const prefix = lists.length > 1 && list.name?.trim() ? `${list.name.trim()}: ` : '';
    for (const item of [...(list.checkItems ?? [])].sort(byPos)) {
      const itemTitle = `${prefix}${item.name.trim()}`.trim();
      if (!itemTitle) continue;
      checklist.push({
        title: clip(itemTitle, TASK_DETAIL_LIMITS.checklistItemMax, () =>
          warnings.add(`${name}: a checklist item shortened to ${TASK_DETAIL_LIMITS.checklistItemMax} characters`),
        ),
        done: item.state === 'complete',
      });
    }
  }
  if (checklist.length > TASK_DETAIL_LIMITS.checklistItemsMax) {
    warnings.add(`${name}: only the first ${TASK_DETAIL_LIMITS.checklistItemsMax} checklist items are imported`);
  }

  // Trello lists actions newest first: comments go oldest first.
  const comments = [...(commentsByCard.get(card.id) ?? [])]
    .sort((a, b) => (Date.parse(a.date ?? '') || 0) - (Date.parse(b.date ?? '') || 0))
    .flatMap((c) => {
      const bodyText = c.data.text.trim();
      if (!bodyText) return [];
      const author = c.memberCreator?.fullName?.trim() || c.memberCreator?.username?.trim() || 'a Trello member';
      const full = trelloCommentBody(author, trelloDueDate(c.date, context.timeZone), bodyText);
      return [
        clip(full, TASK_DETAIL_LIMITS.commentMax, () =>
          warnings.add(`${name}: a comment shortened to ${TASK_DETAIL_LIMITS.commentMax} characters`),
        ),
      ];
    });

  const dueDate = trelloDueDate(card.due, context.timeZone);
  if (card.due && !dueDate) warnings.add(`${name}: its due date "${card.due.slice(0, 40)}" could not be read`);
  let startDate = trelloDueDate(card.start, context.timeZone);
  if (card.start && !startDate) warnings.add(`${name}: its start date "${card.start.slice(0, 40)}" could not be read`);
  if (!validateStartDate(startDate, dueDate).ok) {
    warnings.add(`${name}: its start date ${startDate} is after its due date ${dueDate}: left out`);
    startDate = null;
  }

  return {
    title,
    description,
    status,
    assigneeId,
    startDate,
    dueDate,
    tags: tags.slice(0, LIMITS.tagsMax),
    checklist: checklist.slice(0, TASK_DETAIL_LIMITS.checklistItemsMax),
    comments,
    fields: cardFieldValues(card, context.fields, context),
  };
}

/**
 * The plan of the project a Trello import creates in team `teamId`: the importer makes the tasks and posts the comments,
 * whose texts name who wrote them on Trello.
 */
export function trelloImportPlan(plan: TrelloPlan, teamId: string, projectName: string, importerId: string): ImportPlan {
  const project = { name: projectName, description: `Imported from the Trello board "${plan.boardName.slice(0, 200)}"` };
  const tasks = plan.tasks.map((t) => ({
    ...t,
    comments: t.comments.map((body) => ({ authorId: importerId, body, mentions: [], createdAt: null, editedAt: null })),
  }));
  return oneProjectPlan('trello', teamId, { ...project, statuses: plan.statuses }, tasks, plan.warnings, plan.fields);
}
