/**
 * The statuses API of issue 36 (decision 0024): a project's workflow, read and changed by its managers. The rules
 * themselves are in domain/workflow.ts; these schemas call them, so the form, the route and the OpenAPI document say
 * the same thing.
 *
 * The error table is in ../workflow-errors.ts, not here: errors.ts (in the client's start-up script) takes it, and an
 * import of this file from there would tie the start-up script to the lazily loaded schemas chunk in a circle (the
 * app stopped at 'Loading...': STATUS_LIMITS undefined while the chunks evaluated).
 */
import { z } from 'zod';
import { WORKFLOW_ERRORS } from '../workflow-errors';
import {
  STATUS_CATEGORIES,
  STATUS_KEY_PATTERN,
  STATUS_LIMITS,
  validateStatusColor,
  validateStatusName,
  validateWipLimit,
  type WorkflowRuleReason,
} from '../workflow';

export { statusKeyUnknownMessage, WORKFLOW_ERRORS } from '../workflow-errors';

const uuid = z.uuid();

export const statusCategory = z.enum(STATUS_CATEGORIES);

/** A task's `status`: the key of one of its project's statuses (the service checks that the project has it). */
export const statusKey = z
  .string()
  .max(STATUS_LIMITS.keyMax)
  .regex(STATUS_KEY_PATTERN, 'A status key is lower-case letters, digits and _');

/** Adds a domain rule's refusal as the field's issue. */
const byRule =
  <T>(rule: (value: T) => { ok: true } | { ok: false; reason: WorkflowRuleReason }) =>
  (value: T, ctx: z.RefinementCtx) => {
    const result = rule(value);
    if (!result.ok) ctx.addIssue({ code: 'custom', message: WORKFLOW_ERRORS[result.reason].message });
  };

/** Length and emptiness only: uniqueness needs the project's other statuses (the service checks it, and the form). */
const statusName = z
  .string({ error: WORKFLOW_ERRORS.status_name_required.message })
  .transform((s) => s.trim())
  .superRefine(byRule((name: string) => validateStatusName(name, [])));

const statusColor = z
  .string()
  .superRefine(byRule(validateStatusColor))
  .transform((c) => c.toLowerCase());

const wipLimit = z.number().nullable().superRefine(byRule(validateWipLimit));

export const statusDto = z.object({
  id: uuid,
  /** Stable: set from the first name, never changed by a rename. What tasks' `status` holds. */
  key: z.string(),
  name: z.string(),
  category: statusCategory,
  color: z.string(),
  /** 0-based, in workflow order. */
  position: z.number().int(),
  wipLimit: z.number().int().nullable(),
});
export type StatusDto = z.infer<typeof statusDto>;

/** A project's statuses, in workflow order. */
export const statusListDto = z.object({ statuses: z.array(statusDto) });
export type StatusListDto = z.infer<typeof statusListDto>;

/** A new status goes after the last one; its key comes from its name (workflow.ts `statusKeyFor`). */
export const createStatusInput = z
  .object({
    name: statusName,
    category: statusCategory,
    color: statusColor,
    wipLimit: wipLimit.optional().transform((v) => v ?? null),
  })
  .strict();
export type CreateStatusInput = z.infer<typeof createStatusInput>;

/** A rename (the key stays), a new category, colour or WIP limit (null: none). At least one of them. */
export const updateStatusInput = z
  .object({
    name: statusName.optional(),
    category: statusCategory.optional(),
    color: statusColor.optional(),
    wipLimit: wipLimit.optional(),
  })
  .strict()
  .refine((v) => Object.values(v).some((x) => x !== undefined), 'Nothing to change');
export type UpdateStatusInput = z.infer<typeof updateStatusInput>;

/** Deleting a status that has tasks names where they go (another status of the project); without it, 409. */
export const deleteStatusInput = z.object({ moveTo: uuid.optional() }).strict();
export type DeleteStatusInput = z.infer<typeof deleteStatusInput>;

/** The whole workflow's new order: every status id of the project, once each. */
export const statusOrderInput = z.object({ ids: z.array(uuid).min(1).max(STATUS_LIMITS.perProjectMax) }).strict();
export type StatusOrderInput = z.infer<typeof statusOrderInput>;
