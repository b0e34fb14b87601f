import { describe, expect, it } from 'vitest';
import type { OccurrenceDto } from '../../../../domain/schemas/repeat';
import { agendaWithOccurrences, occurrencesByDay } from './occurrence-days';

const occurrence = (title: string, date: string, taskId = `t-${title}`): OccurrenceDto => ({
  taskId,
  seriesId: `s-${title}`,
  title,
  projectId: 'p',
  date,
});

describe('future occurrences by day', () => {
  const days = ['2031-03-02', '2031-03-03', '2031-03-04'];

  it('puts each on its day, by title, and leaves out days not shown', () => {
    const byDay = occurrencesByDay(
      [occurrence('Weekly report', '2031-03-03'), occurrence('Backup', '2031-03-03'), occurrence('Later', '2031-03-10')],
      days,
    );
    expect([...byDay.keys()]).toEqual(days);
    expect(byDay.get('2031-03-03')?.map((o) => o.title)).toEqual(['Backup', 'Weekly report']);
    expect(byDay.get('2031-03-02')).toEqual([]);
    expect(byDay.has('2031-03-10')).toBe(false);
  });

  it('lists the agenda days with tasks or occurrences, in order', () => {
    const byDay = occurrencesByDay([occurrence('Weekly report', '2031-03-02'), occurrence('Backup', '2031-03-04')], days);
    const agenda = agendaWithOccurrences([{ date: '2031-03-04', tasks: ['Fix the build'] }], byDay);
    expect(agenda.map((d) => [d.date, d.tasks, d.occurrences.map((o) => o.title)])).toEqual([
      ['2031-03-02', [], ['Weekly report']],
      ['2031-03-04', ['Fix the build'], ['Backup']],
    ]);
    expect(agendaWithOccurrences([], occurrencesByDay([], days))).toEqual([]);
  });
});
