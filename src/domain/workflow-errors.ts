/**
 * The workflow rules' refusals (issue 36, decision 0024) with their error codes and texts, in the shape of errors.ts
 * `ERRORS`, which spreads them. Plain data beside domain/workflow.ts: errors.ts is in the client's start-up script, so
 * this file must not import zod or anything under schemas/.
 */
import { STATUS_LIMITS, type WorkflowRuleReason } from './workflow';

/**
 * Every workflow reason with its error code and text, in the shape of errors.ts `ERRORS` (to be spread into it).
 * `status_key_unknown` is the task routes' 400 for a key the project does not have; its answer names the project's
 * keys (statusKeyUnknownMessage).
 */
export const WORKFLOW_ERRORS = {
  status_name_required: { code: 'validation_failed', message: 'Status name is required' },
  status_name_too_long: { code: 'validation_failed', message: `Status name must be at most ${STATUS_LIMITS.nameMax} characters` },
  status_name_taken: { code: 'conflict', message: 'This project already has a status with this name' },
  status_color_invalid: { code: 'validation_failed', message: 'Colour must be #rrggbb' },
  status_wip_limit_invalid: {
    code: 'validation_failed',
    message: `WIP limit must be a whole number from 1 to ${STATUS_LIMITS.wipLimitMax}, or none`,
  },
  workflow_needs_open_status: {
    code: 'conflict',
    message: 'A workflow needs at least one status in Backlog or Not started',
  },
  workflow_needs_completed_status: { code: 'conflict', message: 'A workflow needs at least one Completed status' },
  too_many_statuses: { code: 'conflict', message: `A project can have at most ${STATUS_LIMITS.perProjectMax} statuses` },
  status_not_found: { code: 'not_found', message: 'Status not found' },
  status_not_empty: { code: 'conflict', message: 'This status has tasks. Choose where to move them.' },
  status_move_target_invalid: { code: 'validation_failed', message: 'Move its tasks to another status of this project' },
  status_order_mismatch: { code: 'conflict', message: 'The workflow changed meanwhile. Please try again.' },
  status_key_unknown: { code: 'validation_failed', message: 'This project has no such status' },
} as const satisfies Record<WorkflowRuleReason | 'status_key_unknown', { code: string; message: string }>;

/** The 400 text for a task status key the project does not have: it names the keys it has. */
export const statusKeyUnknownMessage = (key: string, keys: readonly string[]): string =>
  `Unknown status "${key.slice(0, STATUS_LIMITS.keyMax)}". This project's statuses are: ${keys.join(', ')}`;
