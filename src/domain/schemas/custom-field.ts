/**
 * The custom fields API of issue 38 (decision 0026). The rules of values and filters are in domain/custom-fields.ts;
 * the error table in ../custom-field-errors.ts (not here: see schemas/dependencies.ts on the start-up script).
 */
import { z } from 'zod';
import { CUSTOM_FIELD_LIMITS, CUSTOM_FIELD_TYPES } from '../custom-fields';
import { isoDateTime, uuid } from './common';

const fieldName = z
  .string({ error: 'Field name is required' })
  .trim()
  .min(1, 'Field name is required')
  .max(CUSTOM_FIELD_LIMITS.nameMax, `Field name must be at most ${CUSTOM_FIELD_LIMITS.nameMax} characters`);

const optionColor = z
  .string()
  .regex(/^#[0-9a-fA-F]{6}$/, 'Choose a colour as #rrggbb')
  .transform((c) => c.toLowerCase());

const optionName = z
  .string({ error: 'Option name is required' })
  .trim()
  .min(1, 'Option name is required')
  .max(CUSTOM_FIELD_LIMITS.optionNameMax, `Option name must be at most ${CUSTOM_FIELD_LIMITS.optionNameMax} characters`);

/**
 * An option as written: with the `id` of an existing option (kept: renamed, recoloured, moved), or without one (new: the
 * server gives it an id). Names are unique within the field (case-insensitive).
 */
export const customFieldOptionInput = z.object({ id: uuid.optional(), name: optionName, color: optionColor }).strict();

const options = z.array(customFieldOptionInput).max(CUSTOM_FIELD_LIMITS.optionsMax);
/** null: every project of the team (now and later); otherwise those of the team's projects. */
const projectIds = z.array(uuid).max(500).nullable();
const unit = z
  .string()
  .trim()
  .max(CUSTOM_FIELD_LIMITS.unitMax, `Unit must be at most ${CUSTOM_FIELD_LIMITS.unitMax} characters`)
  .nullable()
  .transform((u) => (u ? u : null));
const decimals = z.number().int().min(0).max(CUSTOM_FIELD_LIMITS.decimalsMax).nullable();

/**
 * `POST /api/teams/:id/fields` (team owners and admins). `options` only for select and multi-select (at least one),
 * `unit` and `decimals` only for number; the server refuses them elsewhere (400 naming the key).
 */
export const createCustomFieldInput = z
  .object({
    name: fieldName,
    type: z.enum(CUSTOM_FIELD_TYPES),
    options: options.optional(),
    projectIds: projectIds.default(null),
    showOnCard: z.boolean().default(false),
    unit: unit.optional(),
    decimals: decimals.optional(),
  })
  .strict();
export type CreateCustomFieldInput = z.infer<typeof createCustomFieldInput>;

/**
 * `PATCH /api/fields/:id` (team owners and admins). The type never changes. `options` is the whole list in its new
 * order: an existing option left out is removed, and its value is cleared from every task that had it (the answer of
 * `GET /api/fields/:id/usage` says how many, for the confirmation). `archived: true` hides the field everywhere but
 * keeps its values; false brings it back. `position`: its new place among the team's fields.
 */
export const updateCustomFieldInput = z
  .object({
    name: fieldName.optional(),
    options: options.optional(),
    projectIds: projectIds.optional(),
    showOnCard: z.boolean().optional(),
    archived: z.boolean().optional(),
    unit: unit.optional(),
    decimals: decimals.optional(),
    position: z.number().int().min(0).max(CUSTOM_FIELD_LIMITS.perTeamMax).optional(),
  })
  .strict()
  .refine((v) => Object.values(v).some((x) => x !== undefined), 'Nothing to change');
export type UpdateCustomFieldInput = z.infer<typeof updateCustomFieldInput>;

export const customFieldOptionDto = z.object({ id: uuid, name: z.string(), color: z.string() });

export const customFieldDto = z.object({
  id: uuid,
  teamId: uuid,
  name: z.string(),
  type: z.enum(CUSTOM_FIELD_TYPES),
  /** Select and multi-select: their options in order (a value is an option's id). Empty for other types. */
  options: z.array(customFieldOptionDto),
  /** null: every project of the team. */
  projectIds: z.array(uuid).nullable(),
  showOnCard: z.boolean(),
  archived: z.boolean(),
  unit: z.string().nullable(),
  decimals: z.number().int().nullable(),
  position: z.number().int(),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});
export type CustomFieldDto = z.infer<typeof customFieldDto>;

/** `GET /api/teams/:id/fields` (one team's, in order) and `GET /api/fields` (every team the caller is in: cards need them). */
export const customFieldListDto = z.object({ fields: z.array(customFieldDto) });
export type CustomFieldListDto = z.infer<typeof customFieldListDto>;

/**
 * `GET /api/fields/:id/usage`: how many tasks have a value for the field (the delete confirmation), and per option
 * how many have that option (removing an option), every option listed (0 when none).
 */
export const customFieldUsageDto = z.object({
  tasks: z.number().int(),
  options: z.record(z.string(), z.number().int()),
});
export type CustomFieldUsageDto = z.infer<typeof customFieldUsageDto>;

/**
 * A task's values as the API reads them (`fields` on every task answer): by field id, only fields with a value — text
 * and url: string; number: number; select: an option id; multi_select: option ids; date: YYYY-MM-DD; person: a user id;
 * checkbox: true.
 */
export const taskFieldValues = z
  .record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]))
  .describe(
    "The task's custom field values by field id (only fields with a value): text and url a string, number a number, select an option id, multi_select option ids, date YYYY-MM-DD, person a user id, checkbox true.",
  );

/**
 * `fields` on `POST /api/tasks` and `PATCH /api/tasks/:id`: a partial map — a field named is set (null, '', [] or false
 * clears it), a field not named is left as it is. Each value is checked against its field on the server
 * (domain custom-fields.ts `validateFieldValue`): 400 `custom_field_invalid` with the field's name in the message.
 */
export const taskFieldValuesInput = z
  // null rides on the string variant: OpenAPI 3.0 has no `nullable` beside a bare `anyOf`.
  .record(z.uuid(), z.union([z.string().nullable(), z.number(), z.boolean(), z.array(z.string())]))
  .refine((m) => Object.keys(m).length <= CUSTOM_FIELD_LIMITS.perTeamMax, 'Too many fields');

/**
 * `cf` on the list and board queries (repeated, at most CUSTOM_FIELD_LIMITS.filtersMax): `<fieldId>:<op>:<value>`
 * (domain custom-fields.ts `parseFieldFilter`). A filter that does not parse or does not fit its field: 400.
 */
export const fieldFiltersQuery = z
  .union([z.string().max(1000), z.array(z.string().max(1000)).max(CUSTOM_FIELD_LIMITS.filtersMax)])
  .transform((v) => (Array.isArray(v) ? v : [v]));

/** `sort=field:<fieldId>` on the list (numbers as numbers, dates as dates, selects in option order; no value last). */
export const fieldSort = z.templateLiteral(['field:', z.uuid()]);

/** The custom field filters as a saved view keeps them (`cf`, always a list). */
export const savedFieldFilters = z.array(z.string().max(1000)).max(CUSTOM_FIELD_LIMITS.filtersMax);
