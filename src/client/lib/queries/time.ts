import { type QueryClient, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { formatDuration, TIMER_TOO_SHORT } from '../../../domain/durations';
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
import { api } from '../api-client';
import { rootKey } from '../query-keys';
import { toast, toastError } from '../toast';

/**
 * Time tracking (issue 39, decision 0027), shared by the task page, the card, the top bar and /timesheet. The running
 * timer is one query under its own 'timer' root (the realtime `timer.changed` refreshes it on the person's other
 * devices); entries are under the 'time' root (`time_entry.*`). A write that logs time also changes the task's
 * `loggedMinutes` (kept by triggers), so it refreshes the 'tasks' root too.
 *
 * The toasts come from lib/toast.ts, not sonner itself: the top bar's timer is in the start-up script.
 */
export const timerKeys = {
  all: rootKey('timer'),
};

export const timeKeys = {
  all: rootKey('time'),
  task: (taskId: string) => [...timeKeys.all, 'task', taskId] as const,
  /** GET /api/time-entries for a range (the timesheet). */
  entries: (query: TimeEntriesQuery) => [...timeKeys.all, 'entries', query] as const,
};

// ---- reads ----

export const getTimer = async (signal?: AbortSignal): Promise<TimerDto | null> =>
  (await api.get<TimerStateDto>('/api/me/timer', { signal })).timer;

/** The caller's running timer, or null. Read at start-up (a reload keeps showing it) and on `timer.changed`. */
export const timerQueryOptions = () =>
  queryOptions({ queryKey: timerKeys.all, queryFn: ({ signal }) => getTimer(signal), staleTime: 60_000 });

export const useTimer = () => useQuery(timerQueryOptions());

/** A timer's tick. */
const TICK_MS = 1000;

/**
 * One clock for every running timer shown (the top bar's, the task page's), so that they tick together and agree: one
 * interval while anyone listens.
 */
const clock = {
  now: Date.now(),
  listeners: new Set<() => void>(),
  interval: undefined as ReturnType<typeof setInterval> | undefined,
};

function subscribeClock(listener: () => void): () => void {
  clock.listeners.add(listener);
  if (clock.interval === undefined) {
    clock.now = Date.now();
    clock.interval = setInterval(() => {
      clock.now = Date.now();
      for (const l of clock.listeners) l();
    }, TICK_MS);
  }
  return () => {
    clock.listeners.delete(listener);
    if (clock.listeners.size === 0) {
      clearInterval(clock.interval);
      clock.interval = undefined;
    }
  };
}

const readClock = () => clock.now;
const stillClock = () => () => {};

/** Whole seconds since `startedAt` (none: 0), ticking each second while it is given. */
export function useElapsedSeconds(startedAt: string | null | undefined): number {
  const now = useSyncExternalStore(startedAt ? subscribeClock : stillClock, readClock);
  const since = startedAt ? Date.parse(startedAt) : Number.NaN;
  return Number.isNaN(since) ? 0 : Math.max(0, Math.floor((now - since) / 1000));
}

export const getTaskTimeEntries = async (taskId: string, signal?: AbortSignal): Promise<TimeEntryDto[]> =>
  (await api.get<TimeEntryListDto>(`/api/tasks/${encodeURIComponent(taskId)}/time-entries`, { signal })).entries;

/** A task's entries, as the server orders them. */
export const useTaskTimeEntries = (taskId: string) =>
  useQuery({ queryKey: timeKeys.task(taskId), queryFn: ({ signal }) => getTaskTimeEntries(taskId, signal) });

export const getTimeEntries = async (query: TimeEntriesQuery, signal?: AbortSignal): Promise<TimeEntryDto[]> =>
  (await api.get<TimeEntryListDto>('/api/time-entries', { query, signal })).entries;

/** The entries of a range: the caller's, or (an owner or admin of `teamId`) a member's. */
export const timeEntriesQueryOptions = (query: TimeEntriesQuery) =>
  queryOptions({ queryKey: timeKeys.entries(query), queryFn: ({ signal }) => getTimeEntries(query, signal) });

// ---- what a stopped timer says ----

/** 'Logged 25m on "Write the report"', or 'Less than a minute: nothing logged'. */
export function stoppedTimerText(stopped: StoppedTimerDto): string {
  return stopped.minutes > 0 ? `Logged ${formatDuration(stopped.minutes)} on "${stopped.taskTitle}"` : TIMER_TOO_SHORT;
}

/** Starting a timer while another ran: what happened to the other one. */
export function replacedTimerText(stopped: StoppedTimerDto): string {
  const what = stopped.minutes > 0 ? `logged ${formatDuration(stopped.minutes)}` : 'less than a minute, nothing logged';
  return `Stopped the timer on "${stopped.taskTitle}": ${what}`;
}

// ---- writes ----

/** After time was logged, changed or removed: the entries, and the tasks whose figures the triggers moved. */
export function invalidateTime(qc: QueryClient): Promise<unknown> {
  return Promise.all([qc.invalidateQueries({ queryKey: timeKeys.all }), qc.invalidateQueries({ queryKey: rootKey('tasks') })]);
}

/** A stopped timer's consequences on this device: its entry (if any) and the tasks' figures. */
function afterStopped(qc: QueryClient, stopped: StoppedTimerDto | null) {
  if (stopped && stopped.minutes > 0) void invalidateTime(qc);
}

export const startTimer = (taskId: string) => api.post<StartTimerDto>('/api/me/timer', { taskId });
export const stopTimer = () => api.delete<StopTimerDto>('/api/me/timer');

/** 'Start timer': stops a running one first (the server does both), and toasts what that one logged. */
export function useStartTimer() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: startTimer,
    onSuccess: ({ timer, stopped }) => {
      qc.setQueryData(timerKeys.all, timer);
      afterStopped(qc, stopped);
      if (stopped) toast.info(replacedTimerText(stopped));
    },
    onError: (error) => {
      toastError(error, 'Could not start the timer');
      void qc.invalidateQueries({ queryKey: timerKeys.all });
    },
  });
}

/** 'Stop timer': logs whole minutes, nothing under one minute (the toast says which). */
export function useStopTimer() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: stopTimer,
    onSuccess: ({ stopped }) => {
      qc.setQueryData(timerKeys.all, null);
      afterStopped(qc, stopped);
      if (stopped) {
        if (stopped.minutes > 0) toast.success(stoppedTimerText(stopped));
        else toast.info(stoppedTimerText(stopped));
      }
    },
    onError: (error) => {
      toastError(error, 'Could not stop the timer');
      void qc.invalidateQueries({ queryKey: timerKeys.all });
    },
  });
}

export const logTime = (taskId: string, input: TimeEntryInput) =>
  api.post<TimeEntryDto>(`/api/tasks/${encodeURIComponent(taskId)}/time-entries`, input);
export const updateTimeEntry = (id: string, patch: TimeEntryPatch) =>
  api.patch<TimeEntryDto>(`/api/time-entries/${encodeURIComponent(id)}`, patch);
export const deleteTimeEntry = (id: string) => api.delete(`/api/time-entries/${encodeURIComponent(id)}`);

/** 'Log time' on a task. The caller shows a refusal where the form is (its field's message). */
export function useLogTime(taskId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: TimeEntryInput) => logTime(taskId, input),
    onSettled: () => invalidateTime(qc),
  });
}

export function useUpdateTimeEntry() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, patch }: { id: string; patch: TimeEntryPatch }) => updateTimeEntry(id, patch),
    onSettled: () => invalidateTime(qc),
  });
}

export function useDeleteTimeEntry() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: deleteTimeEntry,
    onError: (error) => toastError(error, 'Could not delete the entry'),
    onSettled: () => invalidateTime(qc),
  });
}
