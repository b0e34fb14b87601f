import { randomUUID } from 'node:crypto';
import type { PersonActor } from '../../../domain/changes';
import type { TeamRole } from '../../../domain/constants';
import {
  CUSTOM_FIELD_LIMITS,
  type CustomFieldDef,
  type CustomFieldOption,
  type CustomFieldType,
} from '../../../domain/custom-fields';
import { MANAGER_ROLES } from '../../../domain/permissions';
import type {
  CreateCustomFieldInput,
  CustomFieldDto,
  CustomFieldListDto,
  CustomFieldUsageDto,
  UpdateCustomFieldInput,
} from '../../../domain/schemas/custom-field';
import type { Db, DbOrTx, Tx } from '../../db/client';
import { requireTeamMember, requireTeamRight } from '../../db/membership';
import type { ChangeRecorder } from '../../lib/changes';
import { AppError, isUniqueViolation } from '../../lib/errors';
import * as repo from './custom-fields.repo';

export const toFieldDto = (row: repo.FieldRow): CustomFieldDto => ({
  id: row.id,
  teamId: row.teamId,
  name: row.name,
  type: row.type,
  options: row.options,
  projectIds: row.projectIds,
  showOnCard: row.showOnCard,
  archived: row.archived,
  unit: row.unit,
  decimals: row.decimals,
  position: row.position,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

/** Defining a team's fields: its owner and admins (plain members read them and set values). */
const canDefineFields = (role: TeamRole): boolean => (MANAGER_ROLES as readonly string[]).includes(role);

const HAS_OPTIONS: ReadonlySet<CustomFieldType> = new Set(['select', 'multi_select']);
const OPTION_COLOR = /^#[0-9a-f]{6}$/i;

/** A 400 about one key of the body. */
const invalid = (key: string, message: string) => new AppError('validation_failed', { fields: { [key]: message } });

/** A field to create, as the API's create input (name not yet trimmed, options without ids, no projects: every one). */
interface NewFieldDefinition {
  name: string;
  type: CustomFieldType;
  options?: readonly { name: string; color: string }[];
  projectIds?: readonly string[] | null;
  showOnCard?: boolean;
  unit?: string | null;
  decimals?: number | null;
}

function checkName(raw: string, fields: readonly repo.FieldRow[], selfId?: string): string {
  const name = raw.trim();
  if (name === '') throw invalid('name', 'Field name is required');
  if (name.length > CUSTOM_FIELD_LIMITS.nameMax)
    throw invalid('name', `Field name must be at most ${CUSTOM_FIELD_LIMITS.nameMax} characters`);
  const lower = name.toLowerCase();
  if (fields.some((f) => f.id !== selfId && f.name.toLowerCase() === lower)) {
    throw new AppError('custom_field_name_taken', { fields: { name: 'This team already has a field with that name' } });
  }
  return name;
}

/**
 * A field's options as written (the whole list, in order) against its options now: existing ids are kept (renamed,
 * recoloured, moved), options without an id get a new one. Names unique within the field (case-insensitive).
 */
function checkOptions(
  type: CustomFieldType,
  input: readonly { id?: string; name: string; color: string }[] | undefined,
  current: readonly CustomFieldOption[],
): { options: CustomFieldOption[]; removed: string[] } | undefined {
  if (input === undefined) return undefined;
  if (!HAS_OPTIONS.has(type)) {
    if (input.length > 0) throw invalid('options', 'Only Select and Multi-select fields have options');
    return { options: [], removed: [] };
  }
  if (input.length === 0) throw invalid('options', 'Add at least one option');
  if (input.length > CUSTOM_FIELD_LIMITS.optionsMax)
    throw invalid('options', `A field can have at most ${CUSTOM_FIELD_LIMITS.optionsMax} options`);
  const known = new Set(current.map((o) => o.id));
  const seenIds = new Set<string>();
  const seenNames = new Set<string>();
  const options = input.map((o) => {
    const name = o.name.trim();
    if (name === '' || name.length > CUSTOM_FIELD_LIMITS.optionNameMax)
      throw invalid('options', `Option names must be 1–${CUSTOM_FIELD_LIMITS.optionNameMax} characters`);
    if (!OPTION_COLOR.test(o.color)) throw invalid('options', 'Choose a colour as #rrggbb');
    if (seenNames.has(name.toLowerCase())) throw invalid('options', `Two options are named ${name}`);
    seenNames.add(name.toLowerCase());
    let id: string;
    if (o.id !== undefined) {
      id = o.id.toLowerCase();
      if (!known.has(id)) throw invalid('options', 'An option id is not one of this field’s options');
      if (seenIds.has(id)) throw invalid('options', 'An option is listed twice');
      seenIds.add(id);
    } else {
      id = randomUUID();
    }
    return { id, name, color: o.color.toLowerCase() };
  });
  return { options, removed: current.filter((o) => !seenIds.has(o.id)).map((o) => o.id) };
}

/** `unit` and `decimals` are a number's only: any other type given one (not null) is refused on that key. */
function checkNumberSettings(type: CustomFieldType, input: { unit?: string | null; decimals?: number | null }) {
  if (type === 'number') {
    const unit = input.unit === undefined ? undefined : input.unit?.trim() || null;
    if (unit && unit.length > CUSTOM_FIELD_LIMITS.unitMax)
      throw invalid('unit', `Unit must be at most ${CUSTOM_FIELD_LIMITS.unitMax} characters`);
    const decimals = input.decimals;
    if (decimals != null && (!Number.isInteger(decimals) || decimals < 0 || decimals > CUSTOM_FIELD_LIMITS.decimalsMax))
      throw invalid('decimals', `Decimals must be 0–${CUSTOM_FIELD_LIMITS.decimalsMax}`);
    return { unit, decimals };
  }
  if (input.unit != null && input.unit.trim() !== '') throw invalid('unit', 'Only Number fields have a unit');
  if (input.decimals != null) throw invalid('decimals', 'Only Number fields have decimals');
  return { unit: undefined, decimals: undefined };
}

/** null (every project) or projects of the team, each once, at least one. */
async function checkProjects(
  db: DbOrTx,
  teamId: string,
  input: readonly string[] | null | undefined,
): Promise<string[] | null | undefined> {
  if (input === undefined || input === null) return input;
  const ids = [...new Set(input.map((id) => id.toLowerCase()))];
  if (ids.length === 0) throw invalid('projectIds', 'Choose at least one project, or every project');
  const found = await repo.teamProjectIds(db, teamId, ids);
  if (found.length !== ids.length) throw invalid('projectIds', 'Choose projects of this team');
  return ids;
}

/**
 * New fields of the team, after its last one, in the transaction given: every rule of a definition (names unique in
 * the team, at most 50 fields, options for select and multi-select only, unit and decimals for numbers only, projects
 * of the team). Holds the team's fields lock. The caller checks who may, and records what it must.
 */
async function insertFields(tx: Tx, teamId: string, defs: readonly NewFieldDefinition[]): Promise<CustomFieldDto[]> {
  if (defs.length === 0) return [];
  await repo.lockTeamFields(tx, teamId);
  const existing = await repo.listByTeam(tx, teamId);
  if (existing.length + defs.length > CUSTOM_FIELD_LIMITS.perTeamMax) throw new AppError('custom_field_limit');
  const all = [...existing];
  const values: repo.NewFieldValues[] = [];
  for (const def of defs) {
    const name = checkName(def.name, all);
    const options = checkOptions(def.type, def.options ?? (HAS_OPTIONS.has(def.type) ? [] : undefined), []);
    const number = checkNumberSettings(def.type, def);
    const projectIds = await checkProjects(tx, teamId, def.projectIds);
    const row = {
      teamId,
      name,
      type: def.type,
      options: options?.options ?? [],
      projectIds: projectIds ?? null,
      showOnCard: def.showOnCard ?? false,
      unit: number.unit ?? null,
      decimals: number.decimals ?? null,
      position: all.length,
    };
    values.push(row);
    // Later definitions are checked against this one's name.
    all.push({ ...row, id: '', archived: false, createdAt: new Date(), updatedAt: new Date() });
  }
  try {
    return (await repo.insertMany(tx, values)).map(toFieldDto);
  } catch (error) {
    if (isUniqueViolation(error, 'custom_fields_team_name_idx')) throw new AppError('custom_field_name_taken');
    throw error;
  }
}

/** The team's fields, in order (archived included). `share`: held `for share` to the end of the transaction. */
export async function teamFields(db: DbOrTx, teamId: string, options?: { share?: boolean }): Promise<CustomFieldDef[]> {
  return (await repo.listByTeam(db, teamId, options?.share ?? false)).map(toFieldDto);
}

/**
 * A team's custom fields (issue 38, decision 0026): read by its active members, defined by its owner and admins (403
 * `custom_field_manage_denied` for plain members, 404 for anyone outside). Every write holds the team's fields lock;
 * a change that removes options, and a deletion, clear the values from the tasks in the same transaction.
 */
export class CustomFieldsService {
  constructor(
    private readonly db: Db,
    private readonly changes: ChangeRecorder,
  ) {}

  async listTeam(userId: string, teamId: string): Promise<CustomFieldListDto> {
    await requireTeamMember(this.db, teamId, userId);
    return { fields: (await repo.listByTeam(this.db, teamId)).map(toFieldDto) };
  }

  async listMine(userId: string): Promise<CustomFieldListDto> {
    return { fields: (await repo.listForUser(this.db, userId)).map(toFieldDto) };
  }

  create(actor: PersonActor, teamId: string, input: CreateCustomFieldInput): Promise<CustomFieldDto> {
    return this.changes.run(this.db, actor, async (tx, record) => {
      await requireTeamRight(tx, teamId, actor.userId, canDefineFields, 'custom_field_manage_denied');
      const [field] = await insertFields(tx, teamId, [input]);
      await record({ kind: 'field.created', teamId, field: field! });
      return field!;
    });
  }

  /**
   * Renames, re-options (the whole list: removed options are cleared from the tasks that had them), changes projects,
   * the card switch, archives or brings back, moves. A body that changes nothing answers the field as it is.
   */
  update(actor: PersonActor, id: string, input: UpdateCustomFieldInput): Promise<CustomFieldDto> {
    return this.changes.run(this.db, actor, async (tx, record) => {
      const { current, fields } = await this.openField(tx, id, actor.userId);
      const changes: repo.FieldChanges = {};
      if (input.name !== undefined && input.name !== current.name) changes.name = checkName(input.name, fields, id);
      const options = checkOptions(current.type, input.options, current.options);
      if (options && JSON.stringify(options.options) !== JSON.stringify(current.options)) changes.options = options.options;
      const number = checkNumberSettings(current.type, input);
      if (number.unit !== undefined && number.unit !== current.unit) changes.unit = number.unit;
      if (number.decimals !== undefined && number.decimals !== current.decimals) changes.decimals = number.decimals;
      const projectIds = await checkProjects(tx, current.teamId, input.projectIds);
      if (projectIds !== undefined && JSON.stringify(projectIds) !== JSON.stringify(current.projectIds))
        changes.projectIds = projectIds;
      if (input.showOnCard !== undefined && input.showOnCard !== current.showOnCard) changes.showOnCard = input.showOnCard;
      if (input.archived !== undefined && input.archived !== current.archived) changes.archived = input.archived;
      const order = fields.map((f) => f.id);
      if (input.position !== undefined) {
        const to = Math.min(input.position, fields.length - 1);
        if (to !== current.position) {
          order.splice(order.indexOf(id), 1);
          order.splice(to, 0, id);
          changes.position = to;
        }
      }
      if (Object.keys(changes).length === 0) return toFieldDto(current);

      const removed = options?.removed ?? [];
      const clearedTasks = await repo.clearOptions(tx, current, removed);
      if (changes.position !== undefined) {
        await repo.setOrder(tx, current.teamId, order);
        delete changes.position;
      }
      let after: CustomFieldDto;
      try {
        after = toFieldDto(await repo.updateOne(tx, id, changes));
      } catch (error) {
        if (isUniqueViolation(error, 'custom_fields_team_name_idx')) throw new AppError('custom_field_name_taken');
        throw error;
      }
      await record({ kind: 'field.updated', teamId: current.teamId, before: toFieldDto(current), after, clearedTasks });
      return after;
    });
  }

  /** Deletes the field: its key leaves every task of the team that had a value, then the row (and its values rows). */
  remove(actor: PersonActor, id: string): Promise<void> {
    return this.changes.run(this.db, actor, async (tx, record) => {
      const { current } = await this.openField(tx, id, actor.userId);
      const clearedTasks = await repo.removeFromTasks(tx, current.teamId, id);
      await repo.deleteOne(tx, current);
      await record({ kind: 'field.deleted', teamId: current.teamId, field: toFieldDto(current), clearedTasks });
    });
  }

  /** How many tasks have a value, and how many have each option (every option listed; 0 when none). */
  async usage(userId: string, id: string): Promise<CustomFieldUsageDto> {
    const field = await repo.getOneById(this.db, id);
    if (!field) throw new AppError('custom_field_not_found');
    await requireTeamMember(this.db, field.teamId, userId, 'custom_field_not_found');
    const counts = await repo.usage(this.db, id);
    return {
      tasks: counts.tasks,
      options: Object.fromEntries(field.options.map((o) => [o.id, counts.options.get(o.id) ?? 0])),
    };
  }

  /**
   * A field, for a write: the caller must be its team's owner or an admin (404 when they are not in the team, 403 for
   * a plain member); the team's fields lock is taken and the field's row held `for update` (task writes that read the
   * fields `for share` wait for it), then read again with its team's fields.
   */
  private async openField(tx: Tx, id: string, userId: string) {
    const found = await repo.getOneById(tx, id);
    if (!found) throw new AppError('custom_field_not_found');
    await requireTeamRight(tx, found.teamId, userId, canDefineFields, 'custom_field_manage_denied', 'custom_field_not_found');
    await repo.lockTeamFields(tx, found.teamId);
    const current = await repo.getOneById(tx, id, true);
    if (!current) throw new AppError('custom_field_not_found');
    return { current, fields: await repo.listByTeam(tx, current.teamId) };
  }
}
