import { describe, expect, it } from 'vitest';
import {
  parseDueDate,
  parsePriority,
  parseStatus,
  parseTags,
  planCsvImport,
  suggestCsvMapping,
  uniqueHeaders,
} from './csv-import';
import { tagsCell, tasksCsv } from './task-csv';

describe('status and priority from labels or keys', () => {
  it('reads the labels the app shows and the keys the API uses, in any case', () => {
    expect(parseStatus('In Progress')).toBe('in_progress');
    expect(parseStatus('in_progress')).toBe('in_progress');
    expect(parseStatus('IN-PROGRESS')).toBe('in_progress');
    expect(parseStatus('To Do')).toBe('todo');
    expect(parseStatus('todo')).toBe('todo');
    expect(parseStatus('Review')).toBe('review');
    expect(parseStatus('Completed')).toBe('completed');
    expect(parseStatus('done')).toBe('completed');
    expect(parseStatus('Doing it')).toBeUndefined();
    expect(parsePriority('Urgent')).toBe('urgent');
    expect(parsePriority('low')).toBe('low');
    expect(parsePriority('critical')).toBeUndefined();
  });

  it('reads days and tags', () => {
    expect(parseDueDate('2024-05-01')).toBe('2024-05-01');
    expect(parseDueDate('2024/5/1')).toBe('2024-05-01');
    expect(parseDueDate('2024-05-01T10:00:00Z')).toBe('2024-05-01');
    expect(parseDueDate('2024-02-30')).toBeUndefined();
    expect(parseDueDate('01/05/2024')).toBeUndefined();
    expect(parseTags('a, b; A ,, 東京')).toEqual(['a', 'b', '東京']);
  });
});

describe('reading back an export (issue 35, item 8)', () => {
  it('splits tags at commas and semicolons, except inside double quotes', () => {
    expect(parseTags('"alpha, beta", gamma')).toEqual(['alpha, beta', 'gamma']);
    expect(parseTags('"say ""hi""; ok";x')).toEqual(['say "hi"; ok', 'x']);
    expect(parseTags(tagsCell(['alpha, beta', 'gamma', 'semi;colon', 'q"uote', 'plain']))).toEqual([
      'alpha, beta',
      'gamma',
      'semi;colon',
      'q"uote',
      'plain',
    ]);
    // A quote that does not enclose a whole tag is text.
    expect(parseTags('"open, b')).toEqual(['"open', 'b']);
    expect(parseTags('a "b" c, d')).toEqual(['a "b" c', 'd']);
    expect(parseTags('"x" y, z')).toEqual(['"x" y', 'z']);
  });

  it('takes off the apostrophe the export put before a formula start, in every column', () => {
    const headers = ['Title', 'Description', 'Tags'];
    const { tasks } = planCsvImport(
      headers,
      [{ line: 2, cells: ["'=SUM(A1)", "'- a list item", "'@home, b"] }],
      { Title: 'title', Description: 'description', Tags: 'tags' },
      [],
    );
    expect(tasks[0]).toMatchObject({ title: '=SUM(A1)', description: '- a list item', tags: ['@home', 'b'] });
  });
});

describe('mapping', () => {
  it('suggests each field from the first column whose name says it', () => {
    expect(suggestCsvMapping(['Title', 'Status', 'Start Date', 'Due Date', 'Tags', 'Assignee', 'Name', 'Whatever'])).toEqual({
      Title: 'title',
      Status: 'status',
      'Start Date': 'startDate',
      'Due Date': 'dueDate',
      Tags: 'tags',
      Assignee: 'assignee',
      Name: 'ignore',
      Whatever: 'ignore',
    });
  });

  it('makes headers unique', () => {
    expect(uniqueHeaders(['Name', 'Name', '', ' '])).toEqual(['Name', 'Name (2)', 'Column', 'Column (2)']);
  });
});

describe('planCsvImport', () => {
  const members = [
    { id: 'u1', email: 'mia@example.com', fullName: 'Mia Member' },
    { id: 'u2', email: 'x@example.com', fullName: 'Twin' },
    { id: 'u3', email: 'y@example.com', fullName: 'twin' },
  ];
  const headers = ['T', 'S', 'P', 'D', 'A'];
  const mapping = { T: 'title', S: 'status', P: 'priority', D: 'dueDate', A: 'assignee' } as const;

  it('makes tasks, with errors by line and unknown assignees as warnings', () => {
    const plan = planCsvImport(
      headers,
      [
        { line: 2, cells: ['Ünïcødé — 東京', 'In Progress', 'High', '2024-01-02', 'MIA@example.com'] },
        { line: 4, cells: ['', '', '', '', ''] },
        { line: 5, cells: ['No status', 'Nope', 'Meh', 'soon', ''] },
        { line: 6, cells: ['', 'todo', '', '', ''] },
        { line: 7, cells: ['By name', '', '', '', 'mia member'] },
        { line: 8, cells: ['Ambiguous', '', '', '', 'Twin'] },
      ],
      mapping,
      members,
    );
    expect(plan.tasks.map((t) => [t.line, t.title, t.status, t.priority, t.dueDate, t.assigneeId])).toEqual([
      [2, 'Ünïcødé — 東京', 'in_progress', 'high', '2024-01-02', 'u1'],
      [7, 'By name', 'todo', 'medium', null, 'u1'],
      [8, 'Ambiguous', 'todo', 'medium', null, null],
    ]);
    expect(plan.errors).toEqual([
      { line: 5, message: 'Unknown status "Nope"; Unknown priority "Meh"; Due date "soon" is not a date (YYYY-MM-DD)' },
      { line: 6, message: 'Title is required' },
    ]);
    expect(plan.warnings).toEqual(['Line 8: "Twin" is not a member of the team: left unassigned']);
  });

  it('reads a start date column: a start after the due date, or not a date, refuses the row', () => {
    const plan = planCsvImport(
      ['T', 'St', 'D'],
      [
        { line: 2, cells: ['Spans', '2024-01-01', '2024-01-05'] },
        { line: 3, cells: ['One day', '2024/01/05', '2024-01-05'] },
        { line: 4, cells: ['Backwards', '2024-01-06', '2024-01-05'] },
        { line: 5, cells: ['Start only', '2024-02-30', ''] },
        { line: 6, cells: ['No due', '2024-03-01', ''] },
      ],
      { T: 'title', St: 'startDate', D: 'dueDate' },
      members,
    );
    expect(plan.tasks.map((t) => [t.line, t.startDate, t.dueDate])).toEqual([
      [2, '2024-01-01', '2024-01-05'],
      [3, '2024-01-05', '2024-01-05'],
      [6, '2024-03-01', null],
    ]);
    expect(plan.errors).toEqual([
      { line: 4, message: 'Start date must be on or before the due date' },
      { line: 5, message: 'Start date "2024-02-30" is not a date (YYYY-MM-DD)' },
    ]);
    expect(planCsvImport(['T', 'A', 'B'], [], { T: 'title', A: 'startDate', B: 'startDate' }, []).errors).toEqual([
      { line: 1, message: 'Only one column can be the start date' },
    ]);
  });

  it('needs a title column, and one column per field', () => {
    expect(planCsvImport(headers, [], { S: 'status' }, members).errors).toEqual([
      { line: 1, message: 'Choose the column that holds the task titles' },
    ]);
    expect(planCsvImport(headers, [], { T: 'title', S: 'title' }, members).errors[0]?.message).toBe(
      'Only one column can be the title',
    );
  });
});

describe('tasksCsv', () => {
  it('writes the list view columns with a BOM, labels for statuses, and neutralised formulas', () => {
    const csv = tasksCsv([
      {
        title: '=1+1',
        status: 'in_progress',
        priority: 'urgent',
        assigneeName: 'Mia, M.',
        startDate: '2023-12-30',
        dueDate: '2024-01-02',
        projectName: 'Ünïcødé — 東京',
        tags: ['a', 'b'],
        createdAt: '2024-01-01T00:00:00.000Z',
        description: 'two\nlines',
      },
    ]);
    expect(csv).toBe(
      '\uFEFFTitle,Status,Priority,Assignee,Start Date,Due Date,Project,Tags,Created,Description\r\n' +
        `'=1+1,In Progress,Urgent,"Mia, M.",2023-12-30,2024-01-02,Ünïcødé — 東京,"a, b",2024-01-01T00:00:00.000Z,"two\nlines"\r\n`,
    );
  });
});
