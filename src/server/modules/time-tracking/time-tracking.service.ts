import { localDateIn } from '../../../domain/analytics';
import type { PersonActor, TimeTaskRef } from '../../../domain/changes';
import { TIME_LIMITS } from '../../../domain/constants';
import { daysBetween } from '../../../domain/dates';
import { timerMinutes } from '../../../domain/durations';
import { canEditTask, canEditTimeEntry, canManageMembers } from '../../../domain/permissions';
import type {
  StartTimerDto,
  StopTimerDto,
  StoppedTimerDto,
  TimeEntriesQuery,
  TimeEntryDto,
  TimeEntryInput,
  TimeEntryListDto,
  TimeEntryPatch,
  TimerDto,
  TimerStateDto,
} from '../../../domain/schemas/time';
import { zoneOrUtc } from '../../../domain/schemas/time-zone';
import type { Db, Tx } from '../../db/client';
import { getTaskAccess, requireEditableTask, requireTaskEdit, requireVisibleTask, TASK_WRITE_LOCK } from '../../db/task-access';
import type { ChangeRecorder, RecordChange } from '../../lib/changes';
import { AppError } from '../../lib/errors';
import * as repo from './time-tracking.repo';

/** What the range of `GET /api/time-entries` says when it is refused (a field's text, as the form shows it). */
export const TIME_RANGE_TEXT = {
  reversed: 'The end of the range must be on or after its start',
  tooWide: `A range is at most ${TIME_LIMITS.rangeDaysMax} days`,
  teamNeeded: "Choose a team to read another person's time",
} as const;

function toEntryDto(row: repo.EntryWithTask): TimeEntryDto {
  const { entry } = row;
  return {
    id: entry.id,
    taskId: entry.taskId,
    userId: entry.userId,
    userName: row.userName,
    date: entry.date,
    minutes: entry.minutes,
    note: entry.note,
    task: { id: entry.taskId, title: row.taskTitle, projectId: row.projectId, projectName: row.projectName, teamId: row.teamId },
    createdAt: entry.createdAt.toISOString(),
    updatedAt: entry.updatedAt.toISOString(),
  };
}

const taskRef = (row: repo.EntryWithTask): TimeTaskRef => ({
  id: row.entry.taskId,
  projectId: row.projectId,
  title: row.taskTitle,
});

const toTimerDto = (t: { taskId: string; taskTitle: string; projectId: string; startedAt: Date }): TimerDto => ({
  taskId: t.taskId,
  taskTitle: t.taskTitle,
  projectId: t.projectId,
  startedAt: t.startedAt.toISOString(),
});

/**
 * Time tracking (issue 39, decision 0027 "Time"): entries on tasks and one running timer a person. Rights are the
 * task's: a task the caller may not see is 404 for all of it, any active member of its team logs time, an entry is
 * changed by its author or the team's owner and admins. The task's totals (`logged_minutes`, `subtask_logged_minutes`)
 * are the triggers' of migration 0019, never written here.
 */
export class TimeTrackingService {
  constructor(
    private readonly db: Db,
    private readonly changes: ChangeRecorder,
  ) {}

  // ---- entries ----

  async listForTask(userId: string, taskId: string): Promise<TimeEntryListDto> {
    await requireVisibleTask(this.db, taskId, userId);
    return { entries: (await repo.listByTask(this.db, taskId)).map(toEntryDto) };
  }

  /**
   * The caller's own entries by default; with `teamId`, only that team's tasks, and for its owner or admin another
   * member's (`userId`) or, `userId` left out, every member's. A plain member asking for someone else: 403.
   */
  async list(callerId: string, query: TimeEntriesQuery): Promise<TimeEntryListDto> {
    const days = daysBetween(query.from, query.to) + 1;
    if (days < 1) throw new AppError('validation_failed', { fields: { to: TIME_RANGE_TEXT.reversed } });
    if (days > TIME_LIMITS.rangeDaysMax) throw new AppError('validation_failed', { fields: { to: TIME_RANGE_TEXT.tooWide } });
    const someoneElse = query.userId !== undefined && query.userId !== callerId;
    if (someoneElse && query.teamId === undefined) {
      throw new AppError('validation_failed', { fields: { teamId: TIME_RANGE_TEXT.teamNeeded } });
    }
    let userId: string | undefined = query.userId ?? callerId;
    if (query.teamId !== undefined) {
      const role = await repo.roleIn(this.db, query.teamId, callerId);
      if (!role) throw new AppError('team_not_found');
      const manager = canManageMembers(role);
      if (someoneElse && !manager) throw new AppError('time_entries_read_denied');
      // An owner or admin naming nobody reads the whole team; a member naming nobody reads their own.
      if (query.userId === undefined && manager) userId = undefined;
    }
    const rows = await repo.listEntries(this.db, { from: query.from, to: query.to, userId, teamId: query.teamId, callerId });
    return { entries: rows.map(toEntryDto) };
  }

  async create(actor: PersonActor, taskId: string, input: TimeEntryInput): Promise<TimeEntryDto> {
    const { userId } = actor;
    return this.changes.run(this.db, actor, async (tx, record) => {
      // 403 for a viewer, and for a guest on a task not assigned to them (issue 41).
      const task = await requireEditableTask(tx, taskId, userId, TASK_WRITE_LOCK);
      return this.log(tx, record, task.teamId, { taskId, userId, date: input.date, minutes: input.minutes, note: input.note });
    });
  }

  async update(actor: PersonActor, entryId: string, patch: TimeEntryPatch): Promise<TimeEntryDto> {
    return this.changes.run(this.db, actor, async (tx, record) => {
      const before = await this.requireEditable(tx, actor.userId, entryId);
      await repo.updateEntry(tx, entryId, patch);
      const after = (await repo.getEntry(tx, entryId))!;
      const [b, a] = [toEntryDto(before), toEntryDto(after)];
      await record({ kind: 'time_entry.updated', teamId: after.teamId, task: taskRef(after), before: b, after: a });
      return a;
    });
  }

  async remove(actor: PersonActor, entryId: string): Promise<void> {
    await this.changes.run(this.db, actor, async (tx, record) => {
      const entry = await this.requireEditable(tx, actor.userId, entryId);
      await repo.deleteEntry(tx, entryId);
      await record({ kind: 'time_entry.deleted', teamId: entry.teamId, task: taskRef(entry), entry: toEntryDto(entry) });
    });
  }

  /**
   * The entry, its task locked as every write under a task locks it, when the caller may change it: 404 when they may
   * not see its task (or it does not exist), 403 when it is neither theirs nor their team's to run.
   */
  private async requireEditable(tx: Tx, callerId: string, entryId: string): Promise<repo.EntryWithTask> {
    const found = await repo.getEntryAccess(tx, entryId, callerId);
    if (!found?.callerRole) throw new AppError('time_entry_not_found');
    // The task's lock first, then the entry and the caller's role read again under it (a concurrent delete of the task
    // or the entry, or a move of the task to another team, shows).
    const task = await requireVisibleTask(tx, found.entry.taskId, callerId, TASK_WRITE_LOCK);
    const entry = await repo.getEntry(tx, entryId);
    if (!entry) throw new AppError('time_entry_not_found');
    if (!canEditTimeEntry(task.callerRole, callerId, entry.entry)) throw new AppError('time_entry_edit_denied');
    // Their own entry too only while they may change the task (a viewer changes nothing: issue 41).
    requireTaskEdit(task, callerId);
    return entry;
  }

  /** Writes an entry and records it (the task is the caller's to log on, and locked). */
  private async log(
    tx: Tx,
    record: RecordChange,
    teamId: string,
    values: { taskId: string; userId: string; date: string; minutes: number; note: string | null | undefined },
  ): Promise<TimeEntryDto> {
    const row = await repo.insertEntry(tx, { ...values, note: values.note ?? null });
    const entry = (await repo.getEntry(tx, row.id))!;
    const dto = toEntryDto(entry);
    await record({ kind: 'time_entry.created', teamId, task: taskRef(entry), entry: dto });
    return dto;
  }

  // ---- the timer ----

  /** The caller's running timer (none when its task is no longer theirs to see: it would log nothing anyway). */
  async timer(userId: string): Promise<TimerStateDto> {
    const row = await repo.getTimer(this.db, userId);
    return { timer: row?.visible ? toTimerDto(row) : null };
  }

  /**
   * Starts a timer on the task, stopping (and logging) the one that ran, all under the person's row lock: two starts
   * at once queue, and the second stops the first. Starting the task that already runs changes nothing (a second
   * device's click): the running timer is answered, `stopped` null (null too when the one that ran was on a task the
   * person no longer sees).
   */
  async start(actor: PersonActor, taskId: string): Promise<StartTimerDto> {
    const { userId } = actor;
    return this.changes.run(this.db, actor, async (tx, record) => {
      const person = await repo.lockPerson(tx, userId);
      const task = await requireEditableTask(tx, taskId, userId, TASK_WRITE_LOCK);
      const running = await repo.getTimer(tx, userId);
      if (running?.visible && running.taskId === taskId) return { timer: toTimerDto(running), stopped: null };
      const stopped = running ? await this.stopRunning(tx, record, userId, person.timeZone, running) : null;
      const { startedAt } = await repo.putTimer(tx, userId, taskId);
      const timer = toTimerDto({ taskId, taskTitle: task.title, projectId: task.projectId, startedAt });
      await record({ kind: 'timer.changed', userId, timer });
      return { timer, stopped };
    });
  }

  /**
   * Stops the caller's timer, logging its whole minutes (nothing under a minute); `stopped` null when none ran, or when
   * the one that ran is on a task they no longer see (as GET /api/me/timer shows none then).
   */
  async stop(actor: PersonActor): Promise<StopTimerDto> {
    const { userId } = actor;
    return this.changes.run(this.db, actor, async (tx, record) => {
      const person = await repo.lockPerson(tx, userId);
      const running = await repo.getTimer(tx, userId);
      const stopped = running ? await this.stopRunning(tx, record, userId, person.timeZone, running) : null;
      // A timer the person could no longer see was none on any of their devices: nothing changed there.
      if (stopped) await record({ kind: 'timer.changed', userId, timer: null });
      return { stopped };
    });
  }

  /**
   * Ends the running timer: its whole minutes (domain `timerMinutes`), at most a day's (an entry's limit: a timer left
   * running over a weekend logs 24 h, not 60), on the day it started in the person's time zone. A timer on a task the
   * person may no longer see (they left its team, it moved to another, or that happened while this ran) ends without
   * logging and answers null: what that task is called now is not theirs to read, not even in a toast.
   */
  private async stopRunning(
    tx: Tx,
    record: RecordChange,
    userId: string,
    timeZone: string | null,
    running: repo.TimerRow,
  ): Promise<StoppedTimerDto | null> {
    await repo.deleteTimer(tx, userId);
    if (!running.visible) return null;
    const minutes = Math.min(timerMinutes(running.elapsedMs), TIME_LIMITS.entryMinutesMax);
    let entry: TimeEntryDto | null = null;
    if (minutes > 0) {
      // Locked as every write under a task; read again under the lock (a removal from the team may have come first).
      const task = await getTaskAccess(tx, running.taskId, userId, TASK_WRITE_LOCK);
      if (!task?.callerRole || !task.callerSees) return null;
      // A task they may no longer change (a viewer now, or a guest's task given to someone else) logs nothing.
      if (!canEditTask(task.callerRole, userId, task))
        return { taskId: running.taskId, taskTitle: running.taskTitle, minutes, entry };
      const date = localDateIn(running.startedAt, zoneOrUtc(timeZone));
      entry = await this.log(tx, record, task.teamId, { taskId: running.taskId, userId, date, minutes, note: null });
    }
    return { taskId: running.taskId, taskTitle: running.taskTitle, minutes, entry };
  }
}
