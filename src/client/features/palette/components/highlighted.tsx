import type * as Search from '../../../../domain/schemas/search';

// The markers of domain/schemas/search.ts, typed by them (a change there fails the typecheck here) but not imported:
// the schemas bring zod, which the palette does not otherwise need.
const HIGHLIGHT_START: typeof Search.HIGHLIGHT_START = '\u0002';
const HIGHLIGHT_END: typeof Search.HIGHLIGHT_END = '\u0003';

const PARTS = new RegExp(`(${HIGHLIGHT_START}[^${HIGHLIGHT_START}${HIGHLIGHT_END}]*${HIGHLIGHT_END})`);
const MARKERS = new RegExp(`[${HIGHLIGHT_START}${HIGHLIGHT_END}]`, 'g');

/** The text without its highlight markers. */
export const plainText = (text: string) => text.replace(MARKERS, '');

/**
 * A search hit's text with its matches in <mark>: the server marks them with control characters (never HTML), split
 * here into text nodes, so a title holding markup shows as the characters it is.
 */
export function Highlighted({ text }: { text: string }) {
  return text.split(PARTS).map((part, i) =>
    part.startsWith(HIGHLIGHT_START) ? (
      // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one string, in order
      <mark key={i} className="bg-transparent font-semibold text-brand-700 dark:text-indigo-200">
        {plainText(part)}
      </mark>
    ) : (
      plainText(part)
    ),
  );
}
