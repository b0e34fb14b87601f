/**
 * CSV documents (RFC 4180): records end with CRLF; a field holding a comma, a double quote, CR or LF is
 * enclosed in double quotes, its quotes doubled. A spreadsheet runs a cell that starts with = + - @ (or a
 * tab or CR, which some strip first) as a formula, so such a text cell gets a leading apostrophe and is read
 * as text (OWASP's 'CSV injection'); unguardCsvField takes it off again on import. Numbers are written as they
 * are: they are never formulas.
 */

export type CsvCell = string | number | boolean | null | undefined;

/** A formula start, after any apostrophes: "'=x" is guarded too ("''=x"), so that taking one off gives it back. */
const FORMULA_START = /^'*[=+\-@\t\r]/;
const GUARDED = /^'+[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** One field: neutralised when it could run as a formula, quoted when it must be. */
export function csvField(value: CsvCell): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  let text = String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * A cell as it was before csvField guarded it: the one apostrophe the guard puts before a formula start is taken off
 * ("'=SUM(A1)" → "=SUM(A1)", "''=x" → "'=x"); any other text is returned as it is. For reading back what toCsv wrote.
 */
export function unguardCsvField(text: string): string {
  return GUARDED.test(text) ? text.slice(1) : text;
}

/** A whole document: a header record, then one record per row, each record ended by CRLF. */
export function toCsv(header: readonly string[], rows: readonly (readonly CsvCell[])[]): string {
  return [header, ...rows].map((record) => `${record.map(csvField).join(',')}\r\n`).join('');
}

/** A file name part made of lower-case ASCII letters, digits and single hyphens ('Launch Site!' → 'launch-site'). */
export function fileSlug(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
}
