import { describe, expect, it } from 'vitest';
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
