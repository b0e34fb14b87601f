import type { OccurrenceDto } from '../../../../domain/schemas/repeat';

/** Each of `days`' future occurrences, by title; dates outside them are left out. */
export function occurrencesByDay(occurrences: readonly OccurrenceDto[], days: readonly string[]): Map<string, OccurrenceDto[]> {
  const byDay = new Map<string, OccurrenceDto[]>(days.map((d) => [d, []]));
  for (const o of occurrences) byDay.get(o.date)?.push(o);
  for (const list of byDay.values()) list.sort((a, b) => a.title.localeCompare(b.title) || a.taskId.localeCompare(b.taskId));
  return byDay;
}

/** The agenda's days: those with tasks, and those with only occurrences, in order, each with both lists. */
export function agendaWithOccurrences<T>(
  taskDays: readonly { date: string; tasks: T[] }[],
  occurrences: ReadonlyMap<string, OccurrenceDto[]>,
): { date: string; tasks: T[]; occurrences: OccurrenceDto[] }[] {
  const byDate = new Map(taskDays.map((d) => [d.date, d.tasks]));
  const dates = new Set([...byDate.keys(), ...[...occurrences].filter(([, list]) => list.length > 0).map(([date]) => date)]);
  return [...dates].sort().map((date) => ({ date, tasks: byDate.get(date) ?? [], occurrences: occurrences.get(date) ?? [] }));
}
