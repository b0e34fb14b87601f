import { HIGHLIGHT_END, HIGHLIGHT_START } from './schemas/search';

/**
 * What a search box's text becomes before it reaches the database (issue 23), and the highlight text that comes
 * back. Pure: the server builds its queries from these, the tests pin them down.
 */

/** Words of a search beyond this many are ignored: each one costs an index lookup and adds little precision. */
export const SEARCH_MAX_WORDS = 8;

/**
 * Characters that split words: everything but letters, digits, combining marks and the joiners a stored word may
 * hold (`e-mail`, `v1.2`, `a@b.com`, `src/app`, `c++`, `#12`). Every tsquery operator (`& | ! ( ) : * < >`), both
 * quotes and the backslash are separators, so none of them ever reaches to_tsquery; nor do control characters
 * (the highlight markers included), spaces of any kind, symbols and emoji.
 */
const SEPARATORS = /[^\p{L}\p{N}\p{M}\-_.@/+#]+/u;
/** A word must hold a letter or a digit; the rest (`--`, `#`, `...`) has nothing to match. */
const HAS_TEXT = /[\p{L}\p{N}]/u;

/**
 * The words of a search as typed: Unicode-normalised (NFC, so a decomposed 'é' matches a composed one), split on
 * separators, each once (case-insensitively), at most SEARCH_MAX_WORDS. Empty when there is nothing to search for.
 */
export function searchWords(q: string): string[] {
  const words: string[] = [];
  const seen = new Set<string>();
  for (const word of q.normalize('NFC').split(SEPARATORS)) {
    if (!HAS_TEXT.test(word)) continue;
    const key = word.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    words.push(word);
    if (words.length === SEARCH_MAX_WORDS) break;
  }
  return words;
}

/**
 * The source of a `to_tsquery` that finds every word as a prefix (what a person is still typing), all of them:
 * `'desi':* & 'rev':*`. Each word is a quoted operand, so the text search parser (and its accent folding) sees
 * only the word; a quote or backslash inside would be doubled, though searchWords never lets one through.
 * Null without words.
 */
export function prefixTsquery(words: readonly string[]): string | null {
  if (words.length === 0) return null;
  return words.map((word) => `'${word.replace(/['\\]/g, (c) => c + c)}':*`).join(' & ');
}

const MARKERS = new RegExp(`[${HIGHLIGHT_START}${HIGHLIGHT_END}]`, 'g');

/** The text without highlight markers (stored text is cleaned so that it cannot fake a highlight). */
export const stripHighlights = (text: string): string => text.replace(MARKERS, '');

/** True when the text has at least one highlighted part. */
export const hasHighlight = (text: string): boolean => text.includes(HIGHLIGHT_START);

/**
 * The text cut to `max` visible characters (markers do not count), with '…' when cut: at a space near the end
 * where there is one, never inside a surrogate pair, and with a highlight left open closed again.
 */
export function clipHighlighted(text: string, max: number): string {
  const chars = [...text];
  let visible = 0;
  for (const c of chars) if (c !== HIGHLIGHT_START && c !== HIGHLIGHT_END) visible++;
  if (visible <= max) return text;
  let cut = 0;
  let seen = 0;
  let lastSpace = -1;
  for (; cut < chars.length && seen < max - 1; cut++) {
    const c = chars[cut]!;
    if (c === HIGHLIGHT_START || c === HIGHLIGHT_END) continue;
    if (c === ' ') lastSpace = cut;
    seen++;
  }
  if (lastSpace > 0 && cut - lastSpace < 20) cut = lastSpace;
  const kept = chars.slice(0, cut);
  const open = kept.lastIndexOf(HIGHLIGHT_START) > kept.lastIndexOf(HIGHLIGHT_END);
  return `${kept.join('').trimEnd()}${open ? HIGHLIGHT_END : ''}…`;
}

/**
 * `text` (without markers) with every case-insensitive occurrence of any of `words` highlighted, overlapping
 * occurrences merged: for matches the database does not mark (a part of an email address or of a name).
 */
export function markSubstrings(text: string, words: readonly string[]): string {
  const plain = stripHighlights(text);
  const lower = plain.toLowerCase();
  // toLowerCase keeps the length of most text; where it does not (a few letters), nothing is marked.
  if (lower.length !== plain.length) return plain;
  const ranges: [number, number][] = [];
  for (const word of words) {
    const needle = word.toLowerCase();
    if (!needle) continue;
    for (let at = lower.indexOf(needle); at !== -1; at = lower.indexOf(needle, at + needle.length)) {
      ranges.push([at, at + needle.length]);
    }
  }
  if (ranges.length === 0) return plain;
  ranges.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  let out = '';
  let pos = 0;
  let current: [number, number] | null = null;
  const flush = () => {
    if (!current) return;
    out += plain.slice(pos, current[0]) + HIGHLIGHT_START + plain.slice(current[0], current[1]) + HIGHLIGHT_END;
    pos = current[1];
  };
  for (const range of ranges) {
    if (current && range[0] <= current[1]) current[1] = Math.max(current[1], range[1]);
    else {
      flush();
      current = [...range];
    }
  }
  flush();
  return out + plain.slice(pos);
}
