import { Marked } from 'marked';

/**
 * Plain text pasted into a note that looks like Markdown becomes rich text. Pure (no DOM): the HTML it makes is still
 * sanitised (NOTE_POLICY, lib/sanitize-policy.ts) before the editor parses it.
 */

const BLOCK_PATTERNS: readonly RegExp[] = [
  /^#{1,6}\s+\S/, // heading
  /^\s*[-*+]\s+\[[ xX]\]\s+/, // task item
  /^\s*[-*+]\s+\S/, // bullet
  /^\s*\d{1,3}[.)]\s+\S/, // numbered
  /^>\s?\S/, // quote
  /^(```|~~~)/, // code fence
  /^\|.*\|\s*$/, // table row
];
const INLINE_PATTERNS: readonly RegExp[] = [
  /\*\*[^*\n]+\*\*/, // bold
  /__[^_\n]+__/,
  /\[[^\]\n]+\]\([^)\s]+\)/, // link
  /`[^`\n]+`/, // code
  /~~[^~\n]+~~/, // strike
];

/**
 * True when `text` reads as Markdown: a line starting like a heading, a list, a quote, a fence or a table row, or an
 * inline link, bold, code or strike. A sentence with a lone asterisk or a date like "1.5" stays plain text.
 */
export function looksLikeMarkdown(text: string): boolean {
  const lines = text.split(/\r?\n/);
  if (lines.some((line) => BLOCK_PATTERNS.some((re) => re.test(line)))) return true;
  return INLINE_PATTERNS.some((re) => re.test(text));
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

const marked = new Marked({
  gfm: true,
  breaks: false,
  async: false,
  renderer: {
    // Raw HTML inside pasted Markdown stays text: it is where injections start, and a note shows what was written.
    html: ({ text }: { text: string }) => escapeHtml(text),
    // GFM task lists become the editor's checklists (Tiptap's TaskList/TaskItem parse these attributes).
    list(token) {
      if (!token.items.some((item) => item.task)) return false;
      const items = token.items
        .map(
          (item) =>
            `<li data-type="taskItem" data-checked="${item.checked ? 'true' : 'false'}">${this.parser.parse(item.tokens)}</li>`,
        )
        .join('');
      return `<ul data-type="taskList">${items}</ul>`;
    },
    checkbox: () => '',
  },
});

/** HTML for pasted Markdown (unsanitised: the caller sanitises it). */
export function markdownToHtml(text: string): string {
  return marked.parse(text.replace(/\r\n?/g, '\n')) as string;
}
