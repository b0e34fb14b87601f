import { addDays } from '../../../domain/dates';
import { ANALYTICS_PERIODS, type AnalyticsQuery, analyticsQuery } from '../../../domain/schemas/analytics';
import { TEXT } from './analytics-text';

/**
 * The page's scope lives in the URL (?teamId=&projectId=&weeks= or &from=&to=, &splitBy=), so a reload or a shared
 * link shows the same figures. The request is checked by the API's own schema (one rule, two places).
 */

export type Period = '4' | '12' | '26' | 'custom';

export interface Scope {
  teamId: string;
  projectId: string;
  period: Period;
  /** The custom range (empty unless the period is custom). */
  from: string;
  to: string;
  /** Issue 38: the Select field throughput and cycle time are split by ('' for nothing). */
  splitBy: string;
}

export interface RangeErrors {
  from?: string;
  to?: string;
}

const DEFAULT_WEEKS = 12;
const isPeriodWeeks = (value: string | null): boolean =>
  value !== null && (ANALYTICS_PERIODS as readonly number[]).includes(Number(value));

/** The scope a URL asks for; a team or project that is not an id, or an unknown period, is left out. */
export function readScope(params: URLSearchParams): Scope {
  const id = (key: string) => {
    const value = params.get(key) ?? '';
    return value && analyticsQuery.safeParse({ [key]: value }).success ? value : '';
  };
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';
  const weeks = params.get('weeks');
  const isCustom = Boolean(from || to);
  return {
    teamId: id('teamId'),
    projectId: id('projectId'),
    period: isCustom ? 'custom' : isPeriodWeeks(weeks) ? (weeks as Period) : (String(DEFAULT_WEEKS) as Period),
    from: isCustom ? from : '',
    to: isCustom ? to : '',
    splitBy: id('splitBy'),
  };
}

/** The request for a scope, or the custom range's errors (then nothing is asked). */
export function scopeQuery(
  scope: Scope,
): { query: AnalyticsQuery; errors?: undefined } | { query?: undefined; errors: RangeErrors } {
  const base = {
    teamId: scope.teamId || undefined,
    projectId: scope.projectId || undefined,
    ...(scope.splitBy ? { splitBy: scope.splitBy } : {}),
  };
  if (scope.period !== 'custom') return { query: { ...base, weeks: Number(scope.period) } };
  const errors = rangeErrors(scope.from, scope.to);
  if (errors) return { errors };
  return { query: { ...base, from: scope.from, to: scope.to } };
}

/** The custom range's problems, by field, in the schema's words; undefined when it is fine. */
export function rangeErrors(from: string, to: string): RangeErrors | undefined {
  const errors: RangeErrors = {};
  if (!from) errors.from = TEXT.dateRequired;
  if (!to) errors.to = TEXT.dateRequired;
  if (errors.from || errors.to) return errors;
  const parsed = analyticsQuery.safeParse({ from, to });
  if (parsed.success) return undefined;
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] === 'from' ? 'from' : 'to';
    errors[field] ??= issue.message;
  }
  return errors;
}

/**
 * The URL parameters a change of scope sets (null removes one), and only those: two changes made before the URL
 * catches up (a team, then a period) each touch their own parameters, so the second does not undo the first.
 */
export function scopeChanges(change: Partial<Scope>): Record<string, string | null> {
  const params: Record<string, string | null> = {};
  if (change.teamId !== undefined) params.teamId = change.teamId || null;
  if (change.projectId !== undefined) params.projectId = change.projectId || null;
  if (change.splitBy !== undefined) params.splitBy = change.splitBy || null;
  if (change.period !== undefined && change.period !== 'custom') {
    params.weeks = change.period === String(DEFAULT_WEEKS) ? null : change.period;
    params.from = null;
    params.to = null;
  } else if (change.period === 'custom' || change.from !== undefined || change.to !== undefined) {
    params.weeks = null;
    if (change.from !== undefined) params.from = change.from || null;
    if (change.to !== undefined) params.to = change.to || null;
  }
  return params;
}

/** The custom range a switch to 'Custom range' starts from: the weeks shown until then, else the last 12 weeks to today. */
export function defaultRange(today: string, shown?: { from: string; to: string }): { from: string; to: string } {
  return shown ?? { from: addDays(today, -(DEFAULT_WEEKS * 7 - 1)), to: today };
}
