import { TASK_PRIORITY_LABELS } from '../../../domain/constants';
import { formatLongDate, formatShortDate } from '../../../domain/dates';
import { zoneOrUtc } from '../../../domain/schemas/time-zone';
import { type RenderedMail, renderMail } from '../mail';
import type { DigestTaskRow } from './digest.repo';

/** One person's digest: their open tasks due today, then the overdue ones, oldest first. */
export function digestMail(rows: readonly DigestTaskRow[], tasksUrl: string): RenderedMail {
  const first = rows[0]!;
  const { day, total } = first;
  const line = (r: DigestTaskRow) => `${r.title} — ${r.projectName} (${TASK_PRIORITY_LABELS[r.priority]})`;
  const today = rows.filter((r) => r.dueDate === day);
  const overdue = rows.filter((r) => r.dueDate < day);
  const more = total - rows.length;
  return renderMail({
    subject: `Your Crewboard tasks for ${formatLongDate(day)}: ${total} due or overdue`,
    heading: `Good morning, ${first.fullName}`,
    paragraphs: [
      ...(today.length ? [`Due today (${formatLongDate(day)}):`, ...today.map(line)] : []),
      ...(overdue.length ? ['Overdue:', ...overdue.map((r) => `${line(r)}, due ${formatShortDate(r.dueDate)}`)] : []),
      ...(more > 0 ? [`…and ${more} more.`] : []),
    ],
    action: { label: 'Open your tasks', url: tasksUrl },
    footer: `This digest comes at 08:00 (${zoneOrUtc(first.timeZone)}) on days you have tasks due. Turn it off in Settings → Notifications.`,
  });
}
