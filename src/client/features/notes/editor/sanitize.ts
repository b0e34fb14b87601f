import DOMPurify, { type Config } from 'dompurify';
import { isAllowedHref, isAllowedImageSrc } from './link-policy';

/**
 * Pasted HTML (from a page, or made from pasted Markdown) is cleaned before the editor parses it: only the tags the
 * note's schema has, only the attributes its nodes read, links to http(s)/mailto only, images from this app only.
 * The editor's schema then drops whatever it does not know; this is the first of the two filters, not the only one.
 */
const CONFIG: Config = {
  ALLOWED_TAGS: [
    'p',
    'br',
    'strong',
    'b',
    'em',
    'i',
    's',
    'del',
    'strike',
    'u',
    'code',
    'pre',
    'blockquote',
    'ul',
    'ol',
    'li',
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'a',
    'hr',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
    'img',
    'span',
    'div',
  ],
  ALLOWED_ATTR: [
    'href',
    'src',
    'alt',
    'title',
    'colspan',
    'rowspan',
    'start',
    'class',
    'data-type',
    'data-checked',
    'data-id',
    'data-label',
    'data-task-id',
  ],
  ALLOW_DATA_ATTR: false,
  ALLOWED_URI_REGEXP: /^(?:https?:\/\/|mailto:|\/(?!\/))/i,
  // The pasted page's markup, never a live document: no <template> contents, no namespace tricks.
  SAFE_FOR_TEMPLATES: false,
  KEEP_CONTENT: true,
};

/** Our own DOMPurify instance: its hook must not touch the task modal's Markdown (the shared default instance). */
let purify: ReturnType<typeof DOMPurify> | null = null;
function instance() {
  if (purify) return purify;
  purify = DOMPurify(window);
  purify.addHook('afterSanitizeAttributes', (node) => {
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
  });
  return purify;
}

/** Safe HTML for the editor to parse. */
export function sanitizePastedHtml(html: string): string {
  return instance().sanitize(html, CONFIG) as string;
}
