import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { planCsvImport, suggestCsvMapping } from '../../../domain/transfer/csv-import';
import { TASK_CSV_HEADER, tasksCsv } from '../../../domain/transfer/task-csv';
import { CsvReadError, readCsv } from './csv-read';

describe('readCsv', () => {
  it('reads quotes, embedded commas and newlines, doubled quotes, a BOM, CRLF and LF, and non-ASCII', () => {
    const text = '\uFEFFTitle,Notes\r\n"a, b","one\r\ntwo"\r\n\r\n"say ""hi""",Ünïcødé — 東京\nlast,\n';
    const { headers, records } = readCsv(text);
    expect(headers).toEqual(['Title', 'Notes']);
    expect(records).toEqual([
      { line: 2, cells: ['a, b', 'one\r\ntwo'] },
      { line: 5, cells: ['say "hi"', 'Ünïcødé — 東京'] },
      { line: 6, cells: ['last', ''] },
    ]);
  });

  it('keeps ragged rows and makes duplicate headers unique', () => {
    expect(readCsv('A,A\n1\n1,2,3\n')).toEqual({
      headers: ['A', 'A (2)'],
      records: [
        { line: 2, cells: ['1'] },
        { line: 3, cells: ['1', '2', '3'] },
      ],
    });
  });

  it('names the line of what is not CSV', () => {
    expect(() => readCsv('a,b\n"x"y,z\n')).toThrow(CsvReadError);
    expect(() => readCsv('a,b\n"x"y,z\n')).toThrow(/^Line 2: /);
    expect(() => readCsv('a\n"open\n')).toThrow(CsvReadError);
    expect(() => readCsv('')).toThrow(/empty/);
  });
});

describe('an export read back (issue 35, item 8)', () => {
  /** Fourteen titles as people write them: 3 of them start like a formula, and used to come back with a `'`. */
  const titles = [
    'Plan the launch',
    '=1+1 is not a formula here',
    '+49 30 1234 call back',
    '-- draft --',
    '@mention the team',
    "'quoted' word",
    "'=already guarded",
    'Comma, inside',
    'Say "hi"',
    'Two\nlines',
    'Ünïcødé — 東京',
    'a=b',
    '  leading spaces kept out',
    'Last one',
  ];
  const rows = titles.map((title, i) => ({
    title,
    status: 'todo' as const,
    priority: 'medium' as const,
    assigneeName: null,
    startDate: i === 3 ? '2024-01-01' : null,
    dueDate: null,
    projectName: 'P',
    tags: i === 0 ? ['alpha, beta', 'gamma'] : i === 1 ? ['=x', 'semi;colon', 'say "q"'] : [`t${i}`],
    createdAt: '2024-01-01T00:00:00.000Z',
    description: i === 2 ? '- a list\n- of items' : null,
  }));

  it('an outside parser (csv-parse) reads the export as text cells with formulas guarded', () => {
    const cells = parse(tasksCsv(rows), { bom: true }) as string[][];
    expect(cells[0]).toEqual([...TASK_CSV_HEADER]);
    expect(cells.slice(1).map((r) => r[0])).toEqual(titles.map((t) => (/^'*[=+\-@]/.test(t) ? `'${t}` : t)));
    // Nothing an outside reader sees in any cell starts like a formula.
    expect(cells.flat().filter((c) => /^[=+\-@\t\r]/.test(c))).toEqual([]);
    expect(cells[1]![7]).toBe('"alpha, beta", gamma');
  });

  it('the import gives back the same titles, tags and descriptions', () => {
    const { headers, records } = readCsv(tasksCsv(rows));
    const plan = planCsvImport(headers, records, suggestCsvMapping(headers), []);
    expect(plan.errors).toEqual([]);
    expect(plan.tasks.map((t) => t.title)).toEqual(titles.map((t) => t.trim()));
    expect(plan.tasks.map((t) => t.tags)).toEqual(rows.map((r) => r.tags));
    expect(plan.tasks[2]!.description).toBe('- a list\n- of items');
    expect(plan.tasks.map((t) => t.startDate)).toEqual(rows.map((r) => r.startDate));
  });
});
