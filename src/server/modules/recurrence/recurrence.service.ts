import type { ChangeActor } from '../../../domain/changes';
import { REPEAT_LIMITS } from '../../../domain/constants';
import { addDays } from '../../../domain/dates';
import type { OccurrenceDto, OccurrenceListDto, OccurrencesQuery, RepeatDto, RepeatInput } from '../../../domain/schemas/repeat';
import type { TaskDto } from '../../../domain/schemas/task';
import { zoneOrUtc } from '../../../domain/schemas/time-zone';
import type { Db, Tx } from '../../db/client';
import { getMemberRole, requireTeamMember } from '../../db/membership';
import { requireProjectMember } from '../../db/project-access';
import type { ChangeRecorder, RecordChange } from '../../lib/changes';
import { AppError } from '../../lib/errors';
import { countAllowsMore, midnightIn, nextOccurrence, occurrencesBetween, ruleCount, todayIn } from '../../lib/recurrence';
import { liveStatuses } from '../workflows';
import * as repo from './recurrence.repo';

/**
 * Tasks' answers by id, as they are in the transaction: what the changes record. The tasks module's (`taskCards`),
 * given by its caller: the tasks module calls this one, so this one may not import it (modules depend one way).
 */
export type TaskCards = (db: Tx, ids: readonly string[]) => Promise<TaskDto[]>;

/** Who makes the schedule's tasks (decision 0027): the system, each task its series' creator's. */
export const SCHEDULE_ACTOR: ChangeActor = { kind: 'system', via: 'schedule' };

/** A series' next date and the moment it is due (00:00 that day in its zone); both null when the rule has no more. */
interface NextOccurrence {
  nextDate: string | null;
  nextAt: Date | null;
}

/** The rule's next date after `after`, unless COUNT is spent (`createdCount` tasks made, the first one included). */
function planNext(series: Pick<repo.SeriesRow, 'rule' | 'anchorDate' | 'timezone'>, after: string, createdCount: number) {
  const nextDate = countAllowsMore(series.rule, createdCount) ? nextOccurrence(series.rule, series.anchorDate, after) : null;
  return { nextDate, nextAt: nextDate === null ? null : midnightIn(nextDate, series.timezone) } satisfies NextOccurrence;
}

/** What the carrying task says of its series (schemas/repeat.ts `repeatDto`). */
function repeatOf(series: Pick<repo.SeriesRow, 'id' | 'rule' | 'mode' | 'timezone'>, next: NextOccurrence): RepeatDto {
  return {
    seriesId: series.id,
    rule: series.rule,
    mode: series.mode,
    timezone: series.timezone,
    nextDate: next.nextDate,
    nextAt: next.nextAt?.toISOString() ?? null,
  };
}

/**
 * The date the next task comes after: the task's due date (its completion day, in the series' zone, when it has none),
 * and never before its own occurrence date (a due date moved back could otherwise land on a date the series made).
 */
function afterOf(task: repo.TaskRow, zone: string, now: Date): string {
  const due = task.dueDate ?? todayIn(now, zone);
  return task.occurrenceDate !== null && task.occurrenceDate > due ? task.occurrenceDate : due;
}

/** The project's first status of the 'unstarted' category, else its first: where a series' new task starts. */
async function firstStatus(tx: Tx, projectId: string): Promise<string> {
  const statuses = await liveStatuses(tx, projectId);
  const status = statuses.find((s) => s.category === 'unstarted') ?? statuses[0];
  if (!status) throw new Error(`project ${projectId} has no live status`);
  return status.key;
}

interface Occurrences {
  series: repo.SeriesRow;
  /** The task the copies are made from (the series' carrying task), locked. */
  template: repo.TaskRow;
  teamId: string;
  /** The dates to make, ascending, each after the template's. */
  dates: readonly string[];
  now: Date;
  /** Tests: called after the first task is inserted (a failure there rolls the whole run back). */
  afterInsert?: () => Promise<void>;
  cards: TaskCards;
}

/**
 * Makes a series' tasks for `dates` (decision 0027's copy: title, description, project, parent, assignee while still
 * an active member, priority, tags, custom fields, estimate, the checklist unticked; the project's first unstarted
 * status), each at most once (`on conflict do nothing`), and moves the series on: the newest task made carries
 * `repeat`, the series its next date (ended when the rule has none). Each task made is a `task.created` change. Answers
 * the new carrying task (null when none was made) and how many were made.
 */
async function makeOccurrences(
  tx: Tx,
  record: RecordChange,
  o: Occurrences,
): Promise<{ carrier: repo.TaskRow | null; made: number }> {
  const { series, template } = o;
  const status = await firstStatus(tx, template.projectId);
  const assigneeId = template.assigneeId && (await getMemberRole(tx, o.teamId, template.assigneeId)) ? template.assigneeId : null;
  const made: repo.TaskRow[] = [];
  let createdCount = series.createdCount;
  for (const date of o.dates) {
    const row = await repo.insertOccurrence(tx, {
      title: template.title,
      description: template.description,
      status,
      priority: template.priority,
      assigneeId,
      projectId: template.projectId,
      creatorId: series.creatorId,
      dueDate: date,
      tags: template.tags,
      parentId: template.parentId,
      fields: template.fields,
      estimateMinutes: template.estimateMinutes,
      estimatePoints: template.estimatePoints,
      seriesId: series.id,
      occurrenceDate: date,
    });
    if (!row) continue;
    await repo.copyChecklist(tx, template.id, row.id);
    made.push(row);
    createdCount++;
    if (made.length === 1) await o.afterInsert?.();
  }
  const last = o.dates.at(-1);
  const next =
    last === undefined
      ? planNext(series, afterOf(template, series.timezone, o.now), createdCount)
      : planNext(series, last, createdCount);
  const newest = made.at(-1);
  const carrier = newest
    ? await repo.writeTaskRepeat(tx, newest.id, { repeat: next.nextDate === null ? null : repeatOf(series, next) })
    : null;
  await repo.updateSeries(tx, series.id, {
    currentTaskId: carrier?.id ?? series.currentTaskId,
    createdCount,
    nextDate: next.nextDate,
    nextAt: next.nextAt,
    endedAt: next.nextDate === null ? o.now : null,
  });
  // The changes after the last write of each task: the answers carry their checklist counts and the newest's repeat.
  const cards = new Map(
    (
      await o.cards(
        tx,
        made.map((t) => t.id),
      )
    ).map((c) => [c.id, c]),
  );
  for (const task of made) await record({ kind: 'task.created', teamId: o.teamId, task: cards.get(task.id)! });
  return { carrier, made: made.length };
}

/**
 * The date a series' next date comes after when its rule is set: 'On schedule' begins no earlier than today in its zone,
 * so a rule set on a task due in the past makes today's task and the ones after, not one for every past date.
 */
function firstAfter(mode: RepeatInput['mode'], after: string, zone: string, now: Date): string {
  if (mode !== 'on_schedule') return after;
  const yesterday = addDays(todayIn(now, zone), -1);
  return after > yesterday ? after : yesterday;
}

/** A new series carried by `task`, which is its first task (dated its due date, else today in the zone). */
async function startSeries(tx: Tx, task: repo.TaskRow, s: { teamId: string; userId: string; input: RepeatInput; now: Date }) {
  const zone = s.input.timezone ?? zoneOrUtc(await repo.userTimeZone(tx, s.userId));
  const anchor = task.dueDate ?? todayIn(s.now, zone);
  const shape = { rule: s.input.rule, anchorDate: anchor, timezone: zone };
  const next = planNext(shape, firstAfter(s.input.mode, anchor, zone, s.now), 1);
  const series = await repo.insertSeries(tx, {
    ...shape,
    teamId: s.teamId,
    projectId: task.projectId,
    creatorId: s.userId,
    mode: s.input.mode,
    nextDate: next.nextDate,
    nextAt: next.nextAt,
    currentTaskId: task.id,
    createdCount: 1,
    endedAt: next.nextDate === null ? s.now : null,
  });
  const repeat = next.nextDate === null ? null : repeatOf(series, next);
  return repo.writeTaskRepeat(tx, task.id, { repeat, seriesId: series.id, occurrenceDate: anchor });
}

/**
 * The carrying task's series with a new rule, mode or zone (a zone not given keeps the series'): counted again from
 * the task (its due date, else its date in the series), its next date after the task's. A series that ended meanwhile
 * is not changed: the task starts a new one.
 */
async function changeSeries(tx: Tx, task: repo.TaskRow, s: { teamId: string; userId: string; input: RepeatInput; now: Date }) {
  const series = task.repeat ? await repo.lockSeries(tx, task.repeat.seriesId) : undefined;
  if (!series || series.endedAt !== null || series.currentTaskId !== task.id) return startSeries(tx, task, s);
  const zone = s.input.timezone ?? series.timezone;
  const changed = {
    ...series,
    rule: s.input.rule,
    mode: s.input.mode,
    timezone: zone,
    anchorDate: task.dueDate ?? task.occurrenceDate ?? todayIn(s.now, zone),
  };
  const next = planNext(changed, firstAfter(changed.mode, afterOf(task, zone, s.now), zone, s.now), series.createdCount);
  await repo.updateSeries(tx, series.id, {
    rule: changed.rule,
    mode: changed.mode,
    timezone: zone,
    anchorDate: changed.anchorDate,
    projectId: task.projectId,
    teamId: s.teamId,
    ...next,
    endedAt: next.nextDate === null ? s.now : null,
  });
  return repo.writeTaskRepeat(tx, task.id, { repeat: next.nextDate === null ? null : repeatOf(changed, next) });
}

/** 'Stop repeating': the series ends, the task no longer carries it (it keeps its series id and date). */
async function stopSeries(tx: Tx, task: repo.TaskRow & { repeat: RepeatDto }, now: Date) {
  if (await repo.lockSeries(tx, task.repeat.seriesId)) {
    await repo.updateSeries(tx, task.repeat.seriesId, { endedAt: now, nextDate: null, nextAt: null });
  }
  return repo.writeTaskRepeat(tx, task.id, { repeat: null });
}

/**
 * The carrying task of a 'When completed' series was completed: the next task is made (due on the rule's first date
 * after this one's due date), `repeat` moves to it. Reopened and completed again, this task carries nothing: nothing more.
 */
async function completeCarrier(
  tx: Tx,
  record: RecordChange,
  task: repo.TaskRow & { repeat: RepeatDto },
  s: { teamId: string; now: Date; cards: TaskCards },
) {
  const series = await repo.lockSeries(tx, task.repeat.seriesId);
  if (series && series.endedAt === null && series.currentTaskId === task.id) {
    const next = planNext(series, afterOf(task, series.timezone, s.now), series.createdCount);
    await makeOccurrences(tx, record, {
      series,
      template: task,
      teamId: s.teamId,
      dates: next.nextDate === null ? [] : [next.nextDate],
      now: s.now,
      cards: s.cards,
    });
  }
  return repo.writeTaskRepeat(tx, task.id, { repeat: null });
}

/**
 * The carrying task was moved or its due date changed: the series follows its project (occurrences are listed by it),
 * and a 'When completed' series' next date follows the due date.
 */
async function followCarrier(tx: Tx, task: repo.TaskRow & { repeat: RepeatDto }, s: { teamId: string; now: Date }) {
  const series = await repo.lockSeries(tx, task.repeat.seriesId);
  if (!series || series.currentTaskId !== task.id) return task;
  const next =
    series.mode === 'on_completion'
      ? planNext(series, afterOf(task, series.timezone, s.now), series.createdCount)
      : { nextDate: series.nextDate, nextAt: series.nextAt };
  await repo.updateSeries(tx, series.id, { projectId: task.projectId, teamId: s.teamId, ...next });
  return repo.writeTaskRepeat(tx, task.id, { repeat: next.nextDate === null ? null : repeatOf(series, next) });
}

const carries = (task: repo.TaskRow): task is repo.TaskRow & { repeat: RepeatDto } => task.repeat !== null;

/** The tasks service's create, in its transaction: `repeat` starts a series carried by the new task. */
export async function repeatOnCreate(
  tx: Tx,
  s: { task: repo.TaskRow; teamId: string; userId: string; input: RepeatInput | null | undefined; now?: Date },
): Promise<repo.TaskRow> {
  if (!s.input) return s.task;
  return startSeries(tx, s.task, { teamId: s.teamId, userId: s.userId, input: s.input, now: s.now ?? new Date() });
}

/**
 * The tasks service's update, in its transaction, after the task's row was written (`after`, locked): `repeat` given
 * starts, changes or stops ('null') the series; a carrying 'When completed' task turning completed makes the next one;
 * a carrying task moved or re-dated keeps its series in step. Answers the task row as it ends.
 */
export async function repeatOnUpdate(
  tx: Tx,
  record: RecordChange,
  s: {
    before: repo.TaskRow;
    after: repo.TaskRow;
    teamId: string;
    userId: string;
    input: RepeatInput | null | undefined;
    cards: TaskCards;
    now?: Date;
  },
): Promise<repo.TaskRow> {
  const now = s.now ?? new Date();
  const context = { teamId: s.teamId, userId: s.userId, now, cards: s.cards };
  let task = s.after;
  if (s.input === null && carries(task)) task = await stopSeries(tx, task, now);
  else if (s.input) task = await (carries(task) ? changeSeries : startSeries)(tx, task, { ...context, input: s.input });
  if (!carries(task)) return task;
  return keepInStep(tx, record, s.before, task, { ...context, followDates: s.input === undefined });
}

/**
 * A carrying task written by an edit (its own, or its top task's): turned completed, a 'When completed' one makes the
 * next task; moved or re-dated (`followDates`: unless the edit set `repeat` itself), its series follows it.
 */
function keepInStep(
  tx: Tx,
  record: RecordChange,
  before: Pick<repo.TaskRow, 'statusCategory' | 'dueDate' | 'projectId'>,
  task: repo.TaskRow & { repeat: RepeatDto },
  s: { teamId: string; now: Date; cards: TaskCards; followDates: boolean },
): Promise<repo.TaskRow> {
  const completed = task.statusCategory === 'completed' && before.statusCategory !== 'completed';
  if (completed && task.repeat.mode === 'on_completion') return completeCarrier(tx, record, task, s);
  if (s.followDates && (task.dueDate !== before.dueDate || task.projectId !== before.projectId)) {
    return followCarrier(tx, task, s);
  }
  return Promise.resolve(task);
}

/**
 * The tasks service's update, in its transaction, after it wrote the task's sub-tasks (moved with it, or completed with
 * it by `completeSubtasks`; each already locked): each that carried a series is kept in step as its own edit would keep
 * it — a 'When completed' one turned completed makes its next task (once: `repeat` moves on), a moved one's series
 * follows its project and team. `written`: those sub-tasks as they were before the write. Answers the ids of the ones
 * whose `repeat` changed (their changes name it).
 */
export async function repeatOnSubtreeUpdate(
  tx: Tx,
  record: RecordChange,
  s: {
    written: readonly (Pick<repo.TaskRow, 'id' | 'statusCategory' | 'dueDate' | 'projectId'> & { repeat: RepeatDto | null })[];
    teamId: string;
    cards: TaskCards;
    now?: Date;
  },
): Promise<Set<string>> {
  const before = new Map(s.written.filter((w) => w.repeat !== null).map((w) => [w.id, w]));
  const changed = new Set<string>();
  if (before.size === 0) return changed;
  const context = { teamId: s.teamId, now: s.now ?? new Date(), cards: s.cards, followDates: true };
  for (const task of await repo.tasksByIds(tx, [...before.keys()])) {
    if (!carries(task)) continue;
    const after = await keepInStep(tx, record, before.get(task.id)!, task, context);
    if (after.repeat?.seriesId !== task.repeat.seriesId || after.repeat?.nextDate !== task.repeat.nextDate) changed.add(task.id);
  }
  return changed;
}

/**
 * The schedule's old carrying task hands the series on (or the series ended): it no longer says it repeats. A change of
 * its own (a new version, `task.updated` with keys ['repeat']), by the schedule.
 */
async function handOver(tx: Tx, record: RecordChange, cards: TaskCards, taskId: string, teamId: string): Promise<void> {
  const [before] = await cards(tx, [taskId]);
  await repo.writeTaskRepeat(tx, taskId, { repeat: null }, true);
  const [after] = await cards(tx, [taskId]);
  await record({
    kind: 'task.updated',
    teamId,
    previousTeamId: teamId,
    before: before!,
    after: after!,
    keys: ['repeat'],
  });
}

export interface ScheduleOptions {
  /** The tasks' answers its changes record (the tasks module's `taskCards`). */
  cards: TaskCards;
  /** The clock (tests: a moment of their choosing). */
  now?: () => Date;
  /** Series one run takes at most (the next run goes on). */
  seriesPerRun?: number;
  /** Tests: called in a series' transaction after its first new task is inserted. */
  afterInsert?: () => Promise<void>;
  /** A series whose catch-up failed (it is left for the next run; the others go on). */
  onError?: (error: unknown, seriesId: string) => void;
}

/** Series one run of the schedule catches up at most. */
export const SCHEDULE_SERIES_PER_RUN = 200;

type Outcome = 'none' | 'done' | 'busy';

/**
 * The 'On schedule' job (decision 0027): each due series, claimed with `for update skip locked` (instances share the
 * work), gets every date from its next one up to today in its zone made (REPEAT_LIMITS.catchUpMax at most a run), in
 * one transaction with its next date moved on: a run stopped half-way leaves nothing behind, and the unique index on
 * (series, date) makes each date once whatever else runs. A series whose carrying task is gone ends.
 */
export class RepeatSchedule {
  constructor(
    private readonly db: Db,
    private readonly changes: ChangeRecorder,
    private readonly options: ScheduleOptions,
  ) {}

  /** One run; answers how many tasks it made. */
  async run(stopped: () => boolean = () => false): Promise<number> {
    const now = this.options.now?.() ?? new Date();
    const skip: string[] = [];
    let made = 0;
    for (let i = 0; i < (this.options.seriesPerRun ?? SCHEDULE_SERIES_PER_RUN) && !stopped(); i++) {
      let claimed: string | null = null;
      try {
        const outcome = await this.changes.run(this.db, SCHEDULE_ACTOR, async (tx, record): Promise<Outcome> => {
          const series = await repo.claimDueSeries(tx, now, skip);
          if (!series) return 'none';
          claimed = series.id;
          const count = await this.catchUp(tx, record, series, now);
          if (count === null) return 'busy';
          made += count;
          return 'done';
        });
        if (outcome === 'none') break;
        // A series is taken once a run, done or busy: one far behind makes catchUpMax tasks now and the rest in the
        // runs that follow, not all of them in this one.
        if (claimed) skip.push(claimed);
      } catch (error) {
        if (!claimed) throw error;
        skip.push(claimed);
        this.options.onError?.(error, claimed);
      }
    }
    return made;
  }

  /** One series' missed dates; null when its carrying task is being edited (the next run tries again). */
  private async catchUp(tx: Tx, record: RecordChange, series: repo.SeriesRow, now: Date): Promise<number | null> {
    const found = series.currentTaskId ? await repo.lockTemplate(tx, series.currentTaskId) : undefined;
    if (!found) {
      if (series.currentTaskId && (await repo.taskExists(tx, series.currentTaskId))) return null;
      // Its carrying task was deleted: no template, the series ends.
      await repo.updateSeries(tx, series.id, { endedAt: now, nextDate: null, nextAt: null });
      return 0;
    }
    const today = todayIn(now, series.timezone);
    const count = ruleCount(series.rule);
    const dates: string[] = [];
    for (
      let date = series.nextDate;
      date !== null && date <= today && dates.length < REPEAT_LIMITS.catchUpMax;
      date = nextOccurrence(series.rule, series.anchorDate, date)
    ) {
      if (count !== null && series.createdCount + dates.length >= count) break;
      dates.push(date);
    }
    if (dates.length === 0) {
      // Nothing due after all (COUNT spent, or the zone changed since): the series ends, or waits for its date.
      const nextDate = count !== null && series.createdCount >= count ? null : series.nextDate;
      const nextAt = nextDate === null ? null : midnightIn(nextDate, series.timezone);
      await repo.updateSeries(tx, series.id, { nextDate, nextAt, endedAt: nextDate === null ? now : null });
      if (nextDate === null && found.task.repeat !== null)
        await handOver(tx, record, this.options.cards, found.task.id, found.teamId);
      return 0;
    }
    const template = found.task;
    const { carrier, made } = await makeOccurrences(tx, record, {
      series,
      template,
      teamId: found.teamId,
      dates,
      now,
      afterInsert: this.options.afterInsert,
      cards: this.options.cards,
    });
    if (carrier && template.repeat !== null) await handOver(tx, record, this.options.cards, template.id, found.teamId);
    return made;
  }
}

/** `GET /api/tasks/occurrences`: the future dates (after today in each series' zone, not made yet) of visible series. */
export class RecurrenceService {
  constructor(private readonly db: Db) {}

  async occurrences(userId: string, query: OccurrencesQuery, now = new Date()): Promise<OccurrenceListDto> {
    if (query.teamId) await requireTeamMember(this.db, query.teamId, userId, 'team_not_found');
    if (query.projectId) {
      const teamId = await repo.projectTeamId(this.db, query.projectId);
      if (!teamId) throw new AppError('project_not_found');
      await requireProjectMember(this.db, teamId, query.projectId, userId, 'project_not_found');
    }
    const rows = await repo.listVisibleCarried(this.db, userId, {
      teamId: query.teamId,
      projectId: query.projectId,
      to: query.to,
    });
    const occurrences: OccurrenceDto[] = [];
    for (const row of rows) {
      const tomorrow = addDays(todayIn(now, row.timezone), 1);
      const from = [query.from, row.nextDate, tomorrow].reduce((a, b) => (a > b ? a : b));
      const count = ruleCount(row.rule);
      // Under COUNT, the dates left are counted from the series' next date, not from the window's start (the dates
      // before the window use up COUNT too): at most countMax of them, those in the window kept.
      const dates =
        count === null
          ? occurrencesBetween(row.rule, row.anchorDate, from, query.to, REPEAT_LIMITS.occurrencesMax)
          : occurrencesBetween(row.rule, row.anchorDate, row.nextDate, query.to, count - row.createdCount).filter(
              (date) => date >= from,
            );
      for (const date of dates) {
        occurrences.push({ taskId: row.taskId, seriesId: row.seriesId, title: row.title, projectId: row.projectId, date });
      }
    }
    occurrences.sort((a, b) => (a.date === b.date ? a.taskId.localeCompare(b.taskId) : a.date < b.date ? -1 : 1));
    return { occurrences: occurrences.slice(0, REPEAT_LIMITS.occurrencesMax) };
  }
}
