import type { StatusDto } from '../../../domain/schemas/workflow';
import {
  type RuleResult,
  STATUS_CATEGORY_COLORS,
  type StatusCategory,
  validateWipLimit,
  type WorkflowRuleReason,
} from '../../../domain/workflow';
import { WORKFLOW_ERRORS } from '../../../domain/workflow-errors';

/** The text a workflow rule's refusal shows beside its field (the server's own text for the same reason). */
export const ruleMessage = (reason: WorkflowRuleReason): string => WORKFLOW_ERRORS[reason].message;

/** The message of a refused rule, or null when it passed. */
export const refusal = <T>(result: RuleResult<T>): string | null => (result.ok ? null : ruleMessage(result.reason));

/** The 'WIP limit' field's text as the API's value: empty is none (null); anything else a whole number from 1 up. */
export function parseWipLimit(text: string): RuleResult<number | null> {
  const trimmed = text.trim();
  if (trimmed === '') return validateWipLimit(null);
  const value = Number(trimmed);
  return Number.isFinite(value) ? validateWipLimit(value) : { ok: false, reason: 'status_wip_limit_invalid' };
}

/** A WIP limit as the field shows it. */
export const wipLimitText = (limit: number | null): string => (limit === null ? '' : String(limit));

/** The statuses in the order of `ids`, positions renumbered 0…n−1 (the optimistic copy of a reorder). */
export function inOrder(statuses: readonly StatusDto[], ids: readonly string[]): StatusDto[] {
  const byId = new Map(statuses.map((s) => [s.id, s]));
  return ids.flatMap((id, position) => {
    const status = byId.get(id);
    return status ? [{ ...status, position }] : [];
  });
}

/** Where a deleted status's tasks may go: every other status, in workflow order. */
export const moveTargets = (statuses: readonly StatusDto[], id: string): StatusDto[] => statuses.filter((s) => s.id !== id);

/** A new status's fields, as the 'Add status' form holds them. */
export type NewStatusDraft = {
  name: string;
  category: StatusCategory;
  color: string;
};

/** A fresh 'Add status' form: a started step (the usual addition) in its category's colour. */
export const emptyDraft = (category: StatusCategory = 'started'): NewStatusDraft => ({
  name: '',
  category,
  color: STATUS_CATEGORY_COLORS[category],
});

/** The texts of the workflow's editing (the quoted words are WORKFLOW_TEXT in the domain). */
export const WORKFLOW_MSG = {
  statusAdded: 'Status added',
  statusUpdated: 'Status updated',
  statusDeleted: 'Status deleted',
  addFailed: 'Failed to add the status',
  updateFailed: 'Failed to update the status',
  deleteFailed: 'Failed to delete the status',
  reorderFailed: 'Failed to reorder the statuses',
  readOnly: "Only the team's owner and admins can change the workflow.",
  loadFailed: 'Could not load the workflow.',
} as const;

/** 'n tasks'. */
export const taskCountText = (n: number): string => `${n} ${n === 1 ? 'task' : 'tasks'}`;
