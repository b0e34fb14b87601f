import DOMPurify, { type Config } from 'dompurify';

/**
 * What user-written HTML may carry once it reaches a page, in one place: a named policy per kind of text (its
 * allow-lists of tags and attributes, and the rules on single elements that a list cannot state) and the one function
 * that applies a policy. Whatever is not named here is dropped (an unknown tag keeps its text).
 *
 * - MARKDOWN_POLICY: task descriptions and comments, as components/markdown.tsx renders them.
 * - NOTE_POLICY: HTML pasted into a note (or made from pasted Markdown) before the editor parses it; the editor's
 *   schema then drops whatever it does not know, so this is the first of two filters, not the only one.
 */

// Control characters and spaces inside a URL are how `java\tscript:` slips past naive checks: refused outright.
// biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to find them
const CONTROL = /[\u0000-\u001f\u007f\s]/;

/** A link a note may carry: absolute http(s) or mailto only (no `javascript:`, `data:`, relative tricks). */
export function isAllowedHref(href: string): boolean {
  const raw = href.trim();
  if (!raw || CONTROL.test(raw)) return false;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  return url.protocol === 'http:' || url.protocol === 'https:' || url.protocol === 'mailto:';
}

/**
 * An image a note may show: one uploaded to this note (a path of this app's API) or a same-origin URL; never a remote
 * image (it would tell a stranger who read the note, and when) nor a `data:`/`javascript:` URL.
 */
export function isAllowedImageSrc(src: string, origin: string): boolean {
  const raw = src.trim();
  if (!raw || CONTROL.test(raw)) return false;
  if (raw.startsWith('/') && !raw.startsWith('//')) return raw.startsWith('/api/');
  try {
    const url = new URL(raw);
    return url.origin === origin && url.pathname.startsWith('/api/');
  } catch {
    return false;
  }
}

export interface SanitizePolicy {
  /** The tags kept; any other is dropped, its text kept. */
  readonly tags: readonly string[];
  /** The attributes kept (no `data-*` beyond those named, no event handlers, no `style`). */
  readonly attributes: readonly string[];
  /** Attributes whose value is not a URL (so not checked against the URL rule below). */
  readonly notUrls?: readonly string[];
  /** Rules on one element once its attributes are filtered: a link's address, an image's source, a class. */
  readonly element?: (node: Element) => void;
}

/** The tags both kinds of text have: paragraphs, emphasis, code, quotes, lists, small headings, links, rules, tables. */
const COMMON_TAGS = [
  ...['p', 'br', 'strong', 'em', 'del', 'code', 'pre', 'blockquote', 'ul', 'ol', 'li', 'h4', 'h5', 'h6'],
  ...['a', 'hr', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'span'],
];

/** Rendered Markdown: only what its renderer writes (headings start at h4, images are links, raw HTML is text). */
export const MARKDOWN_POLICY: SanitizePolicy = {
  tags: COMMON_TAGS,
  attributes: ['href', 'title', 'target', 'rel', 'class', 'data-internal', 'start', 'align'],
  notUrls: ['target', 'rel', 'start', 'align'],
};

/** Pasted into a note: only the tags the note's schema has, only the attributes its nodes read. */
export const NOTE_POLICY: SanitizePolicy = {
  tags: [...COMMON_TAGS, ...['b', 'i', 's', 'strike', 'u', 'h1', 'h2', 'h3', 'img', 'div']],
  attributes: [
    ...['href', 'src', 'alt', 'title', 'colspan', 'rowspan', 'start', 'class'],
    ...['data-type', 'data-checked', 'data-id', 'data-label', 'data-task-id'],
  ],
  // Without these, a pasted checklist came in as a plain list and a table lost its spans (the URL rule removed them).
  notUrls: ['colspan', 'rowspan', 'start', 'data-type', 'data-checked', 'data-id', 'data-label', 'data-task-id'],
  element: (node) => {
    // Links to http(s)/mailto only, images from this app only.
    if (node.tagName === 'A') {
      const href = node.getAttribute('href');
      if (href !== null && !isAllowedHref(href)) node.removeAttribute('href');
    }
    if (node.tagName === 'IMG') {
      const src = node.getAttribute('src');
      if (src === null || !isAllowedImageSrc(src, window.location.origin)) node.remove();
    }
    // Only code blocks keep a class (their language).
    if (node.hasAttribute('class') && !(node.tagName === 'CODE' && /^language-[\w-]+$/.test(node.getAttribute('class') ?? ''))) {
      node.removeAttribute('class');
    }
  },
};

/**
 * The URL rule, checked against every attribute value not named in `notUrls` (DOMPurify's rule): links only to http(s),
 * mailto and paths of the app (what Markdown's safeLink lets through; a note's links are narrower still).
 */
const URL_RULE = /^(?:https?:\/\/|mailto:|\/(?!\/))/i;

const configOf = (policy: SanitizePolicy): Config => ({
  ALLOWED_TAGS: [...policy.tags],
  ALLOWED_ATTR: [...policy.attributes],
  ALLOW_DATA_ATTR: false,
  ALLOWED_URI_REGEXP: URL_RULE,
  ADD_URI_SAFE_ATTR: [...(policy.notUrls ?? [])],
  // The markup as text to show, never a template: its `{{…}}` stays as written; an unknown tag keeps its text.
  SAFE_FOR_TEMPLATES: false,
  KEEP_CONTENT: true,
});

interface Sanitizer {
  purify: ReturnType<typeof DOMPurify>;
  config: Config;
}

/** A DOMPurify instance per policy, made on first use: one policy's element rules never run for another's text. */
const sanitizers = new WeakMap<SanitizePolicy, Sanitizer>();

function sanitizerFor(policy: SanitizePolicy): Sanitizer {
  let found = sanitizers.get(policy);
  if (!found) {
    const purify = DOMPurify(window);
    const { element } = policy;
    if (element) purify.addHook('afterSanitizeAttributes', (node) => element(node));
    found = { purify, config: configOf(policy) };
    sanitizers.set(policy, found);
  }
  return found;
}

/** `html` with only what `policy` allows. */
export function sanitizeHtml(html: string, policy: SanitizePolicy): string {
  const { purify, config } = sanitizerFor(policy);
  return purify.sanitize(html, config) as string;
}
