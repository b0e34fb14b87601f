import { describe, expect, it } from 'vitest';
import { csvField, fileSlug, toCsv, unguardCsvField } from './csv';

/** A small RFC 4180 reader, to prove that what toCsv writes reads back as the same cells. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      record.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i++;
    } else field += c;
  }
  if (field !== '' || record.length > 0) throw new Error('the last record has no CRLF');
  return records;
}

describe('csvField', () => {
  it('writes plain text and numbers as they are', () => {
    expect(csvField('Launch Site')).toBe('Launch Site');
    expect(csvField(12)).toBe('12');
    expect(csvField(2.5)).toBe('2.5');
    expect(csvField(0)).toBe('0');
    expect(csvField(-3)).toBe('-3');
    expect(csvField(true)).toBe('true');
  });

  it('writes nothing for null, undefined and numbers that are not finite', () => {
    expect(csvField(null)).toBe('');
    expect(csvField(undefined)).toBe('');
    expect(csvField(Number.NaN)).toBe('');
    expect(csvField(Number.POSITIVE_INFINITY)).toBe('');
    expect(csvField('')).toBe('');
  });

  it('quotes commas, quotes, CR and LF, doubling the quotes', () => {
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('two\r\nlines')).toBe('"two\r\nlines"');
    expect(csvField('"')).toBe('""""');
  });

  it.each([
    ['=1+1', "'=1+1"],
    ['+49 30 1234', "'+49 30 1234"],
    ['-2', "'-2"],
    ['@SUM(A1:A2)', "'@SUM(A1:A2)"],
    ['\tcmd', "'\tcmd"],
  ])('neutralises the formula %j with a leading apostrophe', (input, output) => {
    expect(csvField(input)).toBe(output);
  });

  it('neutralises and quotes a formula that also holds a comma, a quote or a line break', () => {
    expect(csvField('=HYPERLINK("http://x.example","click")')).toBe('"\'=HYPERLINK(""http://x.example"",""click"")"');
    expect(csvField('\r=1')).toBe('"\'\r=1"');
  });

  it('guards a text that already starts with an apostrophe before a formula, so that unguarding gives it back', () => {
    expect(csvField("'=1")).toBe("''=1");
    for (const text of ['=1+1', "'=1", "''+x", '-', '@me', "'plain", "it's", 'plain', '\tcmd', ' =1']) {
      expect(unguardCsvField(csvField(text).replace(/^"|"$/g, ''))).toBe(text);
    }
    // Only the guard's apostrophe is taken off: before anything else it is the text's own.
    expect(unguardCsvField("'quoted'")).toBe("'quoted'");
    expect(unguardCsvField("'-2")).toBe('-2');
  });

  it('leaves formula characters alone when they are not the first', () => {
    expect(csvField('a=b')).toBe('a=b');
    expect(csvField('e-mail @home')).toBe('e-mail @home');
    expect(csvField(' =1')).toBe(' =1');
  });
});

describe('toCsv', () => {
  it('writes a header and one CRLF-ended record per row', () => {
    expect(
      toCsv(
        ['Week starting', 'Completed'],
        [
          ['2026-11-16', 0],
          ['2026-11-23', 3],
        ],
      ),
    ).toBe('Week starting,Completed\r\n2026-11-16,0\r\n2026-11-23,3\r\n');
  });

  it('writes only the header for no rows', () => {
    expect(toCsv(['A', 'B'], [])).toBe('A,B\r\n');
  });

  it('reads back as the same cells, however awkward (formulas read back with their apostrophe)', () => {
    const header = ['Task', 'Project', 'Days'];
    const rows = [
      ['Fix, then ship', 'Launch "Site"', 3],
      ['Line one\nline two', 'Ops\r\nTeam', 0],
      ['=cmd|calc', '@here', 12],
      ['Café ✓', '', 1],
    ];
    expect(parseCsv(toCsv(header, rows))).toEqual([
      header,
      ['Fix, then ship', 'Launch "Site"', '3'],
      ['Line one\nline two', 'Ops\r\nTeam', '0'],
      ["'=cmd|calc", "'@here", '12'],
      ['Café ✓', '', '1'],
    ]);
  });
});

describe('fileSlug', () => {
  it('keeps lower-case ASCII letters and digits joined by single hyphens', () => {
    expect(fileSlug('Launch Site!')).toBe('launch-site');
    expect(fileSlug('  Café -- Crème 2026 ')).toBe('cafe-creme-2026');
    expect(fileSlug('../etc/passwd')).toBe('etc-passwd');
    expect(fileSlug('日本')).toBe('');
    expect(fileSlug('x'.repeat(80))).toHaveLength(60);
  });
});
