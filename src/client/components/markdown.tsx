import { Marked, type RendererObject, type TokenizerAndRendererExtension } from 'marked';
import { type MouseEvent, memo, useMemo } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { cn } from '../lib/cn';
import { MARKDOWN_POLICY, sanitizeHtml } from '../lib/sanitize-policy';
import { BARE_TASK_PATH, type SafeLink, safeLink } from './markdown-links';

/**
 * Markdown as written in task descriptions and comments, rendered safely: `marked` turns it into HTML with our own
 * renderer (raw HTML is shown as text, links pass the policy of markdown-links.ts, headings start at h4 so that a
 * comment cannot outrank the page's outline, images become links), and DOMPurify keeps only the few tags and
 * attributes that renderer writes (MARKDOWN_POLICY, lib/sanitize-policy.ts). This module (and so marked and
 * DOMPurify) loads with the task modal only.
 */

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/** The names of the people mentioned in the text being rendered (marked renders synchronously, one text at a time). */
let mentionNames: ReadonlyMap<string, string> = new Map();

const origin = () => window.location.origin;

function anchor(link: SafeLink, inner: string, title?: string | null): string {
  const titleAttr = title ? ` title="${escapeHtml(title)}"` : '';
  const href = escapeHtml(link.href);
  if (link.kind === 'external') return `<a href="${href}"${titleAttr} target="_blank" rel="noopener noreferrer">${inner}</a>`;
  if (link.kind === 'mailto') return `<a href="${href}"${titleAttr}>${inner}</a>`;
  return `<a href="${href}"${titleAttr} data-internal="">${inner}</a>`;
}

const MENTION = /^<@([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})>/i;

const extensions: TokenizerAndRendererExtension[] = [
  {
    // `<@user-id>`: a chip with the person's current name.
    name: 'mention',
    level: 'inline',
    start: (src) => {
      const at = src.indexOf('<@');
      return at < 0 ? undefined : at;
    },
    tokenizer: (src) => {
      const m = MENTION.exec(src);
      return m ? { type: 'mention', raw: m[0], id: m[1]!.toLowerCase() } : undefined;
    },
    renderer: (token) => {
      const name = mentionNames.get(token.id as string);
      return name
        ? `<span class="md-mention">@${escapeHtml(name)}</span>`
        : '<span class="md-mention md-mention-gone">@former member</span>';
    },
  },
  {
    // A bare `/tasks/<id>` in the text: a link to that task.
    name: 'taskPath',
    level: 'inline',
    start: (src) => {
      const m = /(^|[\s(])\/tasks\//i.exec(src);
      return m ? m.index + m[1]!.length : undefined;
    },
    tokenizer: (src) => {
      const m = BARE_TASK_PATH.exec(src);
      return m ? { type: 'taskPath', raw: m[0], href: m[0] } : undefined;
    },
    renderer: (token) => {
      const link = safeLink(token.href as string, origin());
      return link ? anchor(link, escapeHtml(token.href as string)) : escapeHtml(token.href as string);
    },
  },
];

const renderer: RendererObject = {
  // Raw HTML is text: nobody needs it in a comment, and it is where every injection starts.
  html: ({ text, block }: { text: string; block?: boolean }) =>
    block ? `<p>${escapeHtml(text).replace(/\n/g, '<br>')}</p>` : escapeHtml(text),
  heading({ tokens, depth }) {
    const level = Math.min(depth + 3, 6);
    return `<h${level} class="md-h${depth}">${this.parser.parseInline(tokens)}</h${level}>\n`;
  },
  link({ href, title, tokens }) {
    const inner = this.parser.parseInline(tokens);
    const link = safeLink(href, origin());
    return link ? anchor(link, inner, title) : inner;
  },
  // No remote images in text (they would tell a stranger who read it, and when): a link to them instead.
  image({ href, text }) {
    const link = safeLink(href, origin());
    const label = escapeHtml(text || href);
    return link ? anchor(link, label) : label;
  },
  // A task list's box as a character: a disabled checkbox would be a form control without a name.
  checkbox: ({ checked }) => (checked ? '☑ ' : '☐ '),
};

const marked = new Marked({ gfm: true, breaks: true, async: false, renderer, extensions });

/** Safe HTML for Markdown text; `mentions` maps user ids to their current names. */
export function renderMarkdown(source: string, mentions: ReadonlyMap<string, string> = new Map()): string {
  mentionNames = mentions;
  try {
    const html = marked.parse(source) as string;
    return sanitizeHtml(html, MARKDOWN_POLICY);
  } finally {
    mentionNames = new Map();
  }
}

export interface MarkdownProps {
  source: string;
  /** The people a comment mentions, id -> current name. */
  mentions?: ReadonlyMap<string, string>;
  className?: string;
  id?: string;
}

const PROSE = cn(
  'min-w-0 break-words text-sm leading-relaxed text-slate-800 dark:text-slate-200',
  '[&_p]:my-1.5 [&>:first-child]:mt-0 [&>:last-child]:mb-0',
  '[&_a]:font-medium [&_a]:text-brand-700 [&_a]:underline [&_a]:underline-offset-2 dark:[&_a]:text-indigo-300',
  '[&_ul]:my-1.5 [&_ul]:list-disc [&_ul]:pl-5 [&_ol]:my-1.5 [&_ol]:list-decimal [&_ol]:pl-5 [&_li]:my-0.5',
  '[&_h4]:mt-3 [&_h4]:mb-1 [&_h4]:font-semibold [&_h4.md-h1]:text-lg [&_h4.md-h2]:text-base [&_h4.md-h3]:text-sm',
  '[&_h5]:mt-3 [&_h5]:mb-1 [&_h5]:font-semibold [&_h6]:mt-3 [&_h6]:mb-1 [&_h6]:font-semibold',
  '[&_code]:rounded [&_code]:bg-slate-100 [&_code]:px-1 [&_code]:py-0.5 [&_code]:font-mono [&_code]:text-[0.85em] dark:[&_code]:bg-slate-800',
  '[&_pre]:my-2 [&_pre]:overflow-x-auto [&_pre]:rounded-lg [&_pre]:bg-slate-100 [&_pre]:p-3 dark:[&_pre]:bg-slate-800 [&_pre_code]:bg-transparent [&_pre_code]:p-0',
  '[&_blockquote]:my-2 [&_blockquote]:border-l-4 [&_blockquote]:border-slate-300 [&_blockquote]:pl-3 [&_blockquote]:text-slate-700 dark:[&_blockquote]:border-slate-600 dark:[&_blockquote]:text-slate-300',
  '[&_hr]:my-3 [&_hr]:border-slate-200 dark:[&_hr]:border-slate-700',
  '[&_table]:my-2 [&_table]:block [&_table]:overflow-x-auto [&_th]:border [&_th]:border-slate-300 [&_th]:px-2 [&_th]:py-1 [&_td]:border [&_td]:border-slate-300 [&_td]:px-2 [&_td]:py-1 dark:[&_th]:border-slate-600 dark:[&_td]:border-slate-600',
  '[&_.md-mention]:rounded [&_.md-mention]:bg-brand-50 [&_.md-mention]:px-1 [&_.md-mention]:font-medium [&_.md-mention]:text-brand-700 dark:[&_.md-mention]:bg-indigo-950 dark:[&_.md-mention]:text-indigo-200',
  '[&_.md-mention-gone]:bg-slate-100 [&_.md-mention-gone]:text-slate-600 dark:[&_.md-mention-gone]:bg-slate-800 dark:[&_.md-mention-gone]:text-slate-300',
);

/** Rendered Markdown. A click on a link to a page of the app (a task link) stays in the app. */
export const Markdown = memo(function Markdown({ source, mentions, className, id }: MarkdownProps) {
  const html = useMemo(() => renderMarkdown(source, mentions), [source, mentions]);
  const navigate = useNavigate();
  const location = useLocation();
  const onClick = (e: MouseEvent<HTMLDivElement>) => {
    const link = (e.target as Element).closest?.('a[data-internal]');
    if (!link || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    const href = link.getAttribute('href') ?? '/';
    // A task link keeps the board's filters, like a card opened from the board.
    navigate(href.startsWith('/tasks/') ? `${href}${location.search}` : href);
  };
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents lint/a11y/noStaticElementInteractions: the links inside are the controls; this only routes their clicks
    // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitized by DOMPurify with an allow-list (MARKDOWN_POLICY), see renderMarkdown
    <div id={id} className={cn(PROSE, className)} onClick={onClick} dangerouslySetInnerHTML={{ __html: html }} />
  );
});
