import { TASK_DETAIL_LIMITS } from '../../../domain/constants';

/** C0 and C1 controls, and the invisible characters that reorder or hide text (bidi overrides, zero-width marks). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to find them
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;

/**
 * A file name as shown and offered for download: the last segment of whatever path the browser sent, without
 * control or direction characters, trimmed, at most 255 characters (never half a character), `file` when nothing
 * is left.
 */
export function sanitizeFileName(raw: string | undefined): string {
  const base = (raw ?? '').normalize('NFC').split(/[/\\]/).pop() ?? '';
  const clean = base.replace(UNSAFE, '').trim();
  const chars = [...clean];
  const cut =
    chars.length > TASK_DETAIL_LIMITS.fileNameMax ? chars.slice(0, TASK_DETAIL_LIMITS.fileNameMax).join('').trim() : clean;
  return cut === '' || cut === '.' || cut === '..' ? 'file' : cut;
}

/**
 * `Content-Disposition` (RFC 6266): `attachment` (or `inline`), an ASCII fallback name for old clients, and the
 * exact name as `filename*=UTF-8''…` (RFC 8187).
 */
export function contentDisposition(kind: 'attachment' | 'inline', fileName: string): string {
  const fallback = fileName.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/** What a served file may do in a browser: nothing (no script, no plugin, no form; a unique origin). */
export const FILE_CSP = "default-src 'none'; sandbox";
