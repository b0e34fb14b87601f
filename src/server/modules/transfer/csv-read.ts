import { parse } from 'csv-parse/sync';
import { type CsvRecord, uniqueHeaders } from '../../../domain/transfer/csv-import';

export class CsvReadError extends Error {}

const NEWLINES = /\r\n|\r|\n/g;

/**
 * A CSV document (RFC 4180 and what spreadsheets write: a BOM, CRLF or LF, quoted fields with commas, quotes and
 * newlines, any Unicode) as its header and records, each with the line it starts on. A file that is not CSV
 * (an unclosed quote, a stray one) throws CsvReadError naming the line.
 */
export function readCsv(text: string): { headers: string[]; records: CsvRecord[] } {
  let parsed: { record: string[]; info: { lines: number } }[];
  try {
    parsed = parse(text, {
      bom: true,
      info: true,
      relax_column_count: true,
      skip_empty_lines: true,
      record_delimiter: ['\r\n', '\n', '\r'],
    }) as unknown as typeof parsed;
  } catch (error) {
    const line = (error as { lines?: number }).lines;
    throw new CsvReadError(`${line ? `Line ${line}: ` : ''}${(error as Error).message.split(':')[0]}`);
  }
  const [head, ...rest] = parsed;
  if (!head) throw new CsvReadError('The file is empty');
  // csv-parse counts the line a record ends on, and counts a CRLF inside a quoted field as two lines: a record's first
  // line is its last one less the newlines inside it, with the extra count of every such CRLF so far taken off.
  let crlfInFields = 0;
  const startLine = (r: { record: string[]; info: { lines: number } }) => {
    let newlines = 0;
    for (const cell of r.record) {
      newlines += cell.match(NEWLINES)?.length ?? 0;
      crlfInFields += cell.match(/\r\n/g)?.length ?? 0;
    }
    return r.info.lines - crlfInFields - newlines;
  };
  return {
    headers: uniqueHeaders(head.record),
    records: rest.map((r) => ({ line: startLine(r), cells: r.record })),
  };
}
