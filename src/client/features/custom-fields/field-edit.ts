import {
  CUSTOM_FIELD_OPTION_COLORS,
  CUSTOM_FIELD_TYPE_LABELS,
  type CustomFieldOption,
  type CustomFieldType,
} from '../../../domain/custom-fields';
import type {
  CreateCustomFieldInput,
  CustomFieldDto,
  CustomFieldUsageDto,
  UpdateCustomFieldInput,
} from '../../../domain/schemas/custom-field';

/** The texts of the team settings' 'Custom fields' (issue 38; the issue's quoted words to the letter). */
export const FIELD_MSG = {
  section: 'Custom fields',
  sectionDescription:
    "The team's own fields on its tasks: each shows on the task page and the form, as a list column and a filter, and on cards when 'Show on card' is on.",
  add: 'Add field',
  addTitle: 'Add field',
  editTitle: 'Edit field',
  save: 'Save field',
  empty: 'No custom fields yet.',
  emptyManager: "Add one for what this team tracks on its tasks: 'Severity', 'Story points', 'Customer'.",
  emptyMember: "The team's owner and admins can add them.",
  readOnly: "Only the team's owner and admins can change its custom fields.",
  loadFailed: 'Could not load the custom fields.',
  showOnCard: 'Show on card',
  allProjects: 'All projects',
  chosenProjects: 'Chosen projects',
  noProjects: 'This team has no projects yet.',
  archived: 'Archived',
  edit: 'Edit',
  archive: 'Archive',
  unarchive: 'Unarchive',
  delete: 'Delete',
  deleteTitle: 'Delete field',
  addOption: 'Add option',
  typeFixed: "A field's type cannot change.",
  created: 'Field added',
  saved: 'Field saved',
  archivedToast: 'Field archived',
  unarchivedToast: 'Field unarchived',
  deleted: 'Field deleted',
  createFailed: 'Failed to add the field',
  saveFailed: 'Failed to save the field',
  deleteFailed: 'Failed to delete the field',
  usageFailed: 'Could not count the tasks that use it',
  needOption: 'Add at least one option',
  optionTaken: 'Options must have different names',
  needProject: 'Choose at least one project',
} as const;

/** The dialog's colour choices, named (the colour is never told by colour alone). */
export const OPTION_COLOR_NAMES: Record<(typeof CUSTOM_FIELD_OPTION_COLORS)[number], string> = {
  '#64748b': 'Grey',
  '#2563eb': 'Blue',
  '#0891b2': 'Cyan',
  '#16a34a': 'Green',
  '#ca8a04': 'Yellow',
  '#ea580c': 'Orange',
  '#dc2626': 'Red',
  '#db2777': 'Pink',
  '#7c3aed': 'Violet',
};

export const colorName = (color: string): string =>
  OPTION_COLOR_NAMES[color.toLowerCase() as keyof typeof OPTION_COLOR_NAMES] ?? color;

export const hasOptions = (type: CustomFieldType): boolean => type === 'select' || type === 'multi_select';

/** An option as the dialog holds it: `key` names its row (an existing option's id, or a new one's own). */
export interface OptionDraft {
  key: string;
  /** The existing option's id; absent for a new one. */
  id?: string;
  name: string;
  color: string;
}

/** The 'Add field' / 'Edit field' dialog's values. */
export interface FieldDraft extends Record<string, unknown> {
  name: string;
  type: CustomFieldType;
  unit: string;
  /** '' for any; otherwise '0'…'6'. */
  decimals: string;
  options: OptionDraft[];
  allProjects: boolean;
  projectIds: string[];
  showOnCard: boolean;
}

export const emptyFieldDraft = (): FieldDraft => ({
  name: '',
  type: 'text',
  unit: '',
  decimals: '',
  options: [],
  allProjects: true,
  projectIds: [],
  showOnCard: false,
});

export const draftOf = (field: CustomFieldDto): FieldDraft => ({
  name: field.name,
  type: field.type,
  unit: field.unit ?? '',
  decimals: field.decimals === null ? '' : String(field.decimals),
  options: field.options.map((o) => ({ key: o.id, id: o.id, name: o.name, color: o.color })),
  allProjects: field.projectIds === null,
  projectIds: field.projectIds ?? [],
  showOnCard: field.showOnCard,
});

let newOptionCount = 0;

/** A new option row: the first colour of the palette no other option has (the palette again once all are taken). */
export function newOption(options: readonly OptionDraft[]): OptionDraft {
  newOptionCount += 1;
  const used = new Set(options.map((o) => o.color.toLowerCase()));
  const color =
    CUSTOM_FIELD_OPTION_COLORS.find((c) => !used.has(c)) ??
    CUSTOM_FIELD_OPTION_COLORS[options.length % CUSTOM_FIELD_OPTION_COLORS.length] ??
    CUSTOM_FIELD_OPTION_COLORS[0];
  return { key: `new-${newOptionCount}`, name: '', color };
}

/** Each option's refusal by its row key (empty or duplicate names), before anything is sent. */
export function optionErrors(options: readonly OptionDraft[]): Record<string, string> {
  const errors: Record<string, string> = {};
  const seen = new Set<string>();
  for (const o of options) {
    const name = o.name.trim().toLowerCase();
    if (name === '') errors[o.key] = 'Option name is required';
    else if (seen.has(name)) errors[o.key] = FIELD_MSG.optionTaken;
    seen.add(name);
  }
  return errors;
}

const optionInputs = (options: readonly OptionDraft[]) =>
  options.map((o) => ({ ...(o.id ? { id: o.id } : {}), name: o.name.trim(), color: o.color }));

/** The draft as `POST /api/teams/:id/fields` takes it (still to be checked by its schema). */
export function createInputOf(d: FieldDraft): CreateCustomFieldInput {
  return {
    name: d.name,
    type: d.type,
    projectIds: d.allProjects ? null : d.projectIds,
    showOnCard: d.showOnCard,
    ...(hasOptions(d.type) ? { options: optionInputs(d.options) } : {}),
    ...(d.type === 'number' ? { unit: d.unit.trim() || null, decimals: d.decimals === '' ? null : Number(d.decimals) } : {}),
  };
}

const sameList = <T>(a: readonly T[], b: readonly T[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** What the draft changes of `field`, as `PATCH /api/fields/:id` takes it; empty when nothing changed. */
export function updateInputOf(field: CustomFieldDto, d: FieldDraft): UpdateCustomFieldInput {
  const input: UpdateCustomFieldInput = {};
  const next = createInputOf({ ...d, type: field.type });
  if (d.name.trim() !== field.name) input.name = d.name;
  if (d.showOnCard !== field.showOnCard) input.showOnCard = d.showOnCard;
  const projects = next.projectIds ?? null;
  if (
    projects === null
      ? field.projectIds !== null
      : field.projectIds === null || !sameList([...projects].sort(), [...field.projectIds].sort())
  )
    input.projectIds = projects;
  if (next.options) {
    const was = field.options.map((o) => `${o.id}\u0000${o.name}\u0000${o.color}`);
    const now = next.options.map((o) => `${o.id}\u0000${o.name}\u0000${o.color}`);
    if (!sameList(was, now)) input.options = next.options;
  }
  if (field.type === 'number') {
    if ((next.unit ?? null) !== field.unit) input.unit = next.unit ?? null;
    if ((next.decimals ?? null) !== field.decimals) input.decimals = next.decimals ?? null;
  }
  return input;
}

/** The field's options the draft leaves out (removed when saved, their values cleared from the tasks). */
export const removedOptions = (field: CustomFieldDto, d: FieldDraft): CustomFieldOption[] =>
  field.options.filter((o) => !d.options.some((n) => n.id === o.id));

/** 'n tasks'. */
export const taskCountText = (n: number): string => `${n} ${n === 1 ? 'task' : 'tasks'}`;

const quoted = (name: string) => `“${name}”`;

const andList = (items: readonly string[]): string =>
  items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;

/**
 * The confirmation before removing options that tasks have: 'Remove option “High”? It will be cleared from 3 tasks.'
 * Null when no task has any of them (nothing to confirm).
 */
export function removeOptionsText(removed: readonly CustomFieldOption[], usage: CustomFieldUsageDto): string | null {
  const used = removed.map((o) => ({ o, n: usage.options[o.id] ?? 0 })).filter(({ n }) => n > 0);
  if (used.length === 0) return null;
  const names = andList(removed.map((o) => quoted(o.name)));
  if (removed.length === 1) return `Remove option ${names}? It will be cleared from ${taskCountText(used[0]!.n)}.`;
  const counts = andList(
    used.map(({ o, n }, i) => `${quoted(o.name)} ${i === 0 ? 'will be cleared ' : ''}from ${taskCountText(n)}`),
  );
  return `Remove options ${names}? ${counts}.`;
}

/** The delete confirmation: 'Delete “Severity”? Its values on 12 tasks will be removed.' (none: 'Delete “Severity”?'). */
export function deleteFieldText(name: string, tasks: number | undefined): string {
  const ask = `Delete ${quoted(name)}?`;
  if (tasks === undefined) return `${ask} Its values on tasks will be removed.`;
  if (tasks === 0) return ask;
  return `${ask} ${tasks === 1 ? 'Its value on 1 task' : `Its values on ${tasks} tasks`} will be removed.`;
}

/** 'All projects', or the chosen ones by name ('Launch, Website and 2 more'). */
export function projectsSummary(projectIds: readonly string[] | null, names: ReadonlyMap<string, string>): string {
  if (projectIds === null) return FIELD_MSG.allProjects;
  if (projectIds.length === 0) return 'No projects';
  const known = projectIds.map((id) => names.get(id)).filter((n): n is string => n !== undefined);
  const others = projectIds.length - Math.min(known.length, 2);
  if (known.length === 0) return projectIds.length === 1 ? '1 project' : `${projectIds.length} projects`;
  const shown = known.slice(0, 2).join(', ');
  return others > 0 ? `${shown} and ${others} more` : shown;
}

/** The type as the row tells it: 'Number (h, 2 decimals)', 'Select (3 options)'. */
export function typeSummary(field: Pick<CustomFieldDto, 'type' | 'unit' | 'decimals' | 'options'>): string {
  const label = CUSTOM_FIELD_TYPE_LABELS[field.type];
  if (field.type === 'number') {
    const parts = [
      field.unit,
      field.decimals === null ? null : field.decimals === 0 ? 'whole numbers' : `${field.decimals} decimals`,
    ].filter(Boolean);
    return parts.length > 0 ? `${label} (${parts.join(', ')})` : label;
  }
  if (hasOptions(field.type)) return `${label} (${field.options.length} ${field.options.length === 1 ? 'option' : 'options'})`;
  return label;
}

/**
 * A server refusal's field messages (`ApiError.fields`) split between the dialog's fields ('name', 'unit'…) and its
 * options (`options.2.name` → the third option sent, by its row key). `sent` is the options in the order sent.
 */
export function splitServerErrors(
  fields: Record<string, string>,
  sent: readonly OptionDraft[],
): { top: Record<string, string>; options: Record<string, string> } {
  const top: Record<string, string> = {};
  const options: Record<string, string> = {};
  for (const [path, message] of Object.entries(fields)) {
    const [head, index] = path.split('.');
    if (head === 'options' && index !== undefined && /^\d+$/.test(index)) {
      const key = sent[Number(index)]?.key;
      if (key) options[key] ??= message;
      else top.options ??= message;
    } else if (head) top[head] ??= message;
  }
  return { top, options };
}
