/**
 * Which links rendered Markdown may carry (descriptions, comments). Pure, so that the policy is tested on its own; the
 * sanitizer (DOMPurify) checks the result again.
 */

const TASK_PATH = /^\/tasks\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\/?$/i;
/** A scheme before the first '/', '?' or '#': `javascript:`, `data:`, `https:`… */
const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:/i;
// Control characters and whitespace inside a URL are how `java\tscript:` slips past naive checks: refused outright.
// biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to find them
const CONTROL = /[\u0000-\u001f\u007f\s]/;

export type SafeLink =
  /** Another task of this app: rendered as an in-app link (`/tasks/<id>`). */
  | { kind: 'task'; href: string; taskId: string }
  /** A path of this app (`/projects`, `../x`, `#part`): followed in the same tab. */
  | { kind: 'internal'; href: string }
  /** http(s) elsewhere: a new tab, without the opener or the referrer. */
  | { kind: 'external'; href: string }
  | { kind: 'mailto'; href: string };

/**
 * The link to render for `href` as written in Markdown, or null when it may not be a link at all (any scheme but http,
 * https and mailto; a URL with control characters or spaces). `origin` is the app's own (`location.origin`): an
 * absolute URL to it is treated as a path of the app, so a pasted task URL becomes a task link.
 */
export function safeLink(href: string, origin: string): SafeLink | null {
  const raw = href.trim();
  if (!raw || CONTROL.test(raw)) return null;
  let url: URL;
  try {
    url = new URL(raw, `${origin}/`);
  } catch {
    return null;
  }
  if (url.protocol === 'mailto:') return { kind: 'mailto', href: url.href };
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  const relative = !HAS_SCHEME.test(raw) && !raw.startsWith('//');
  if (url.origin !== origin && !relative) return { kind: 'external', href: url.href };
  if (url.origin !== origin) return null;
  const path = `${url.pathname}${url.search}${url.hash}`;
  const task = TASK_PATH.exec(url.pathname);
  if (task) return { kind: 'task', href: `/tasks/${task[1]!.toLowerCase()}`, taskId: task[1]!.toLowerCase() };
  return { kind: 'internal', href: path };
}

/** A bare task path written in text (`see /tasks/<id>`), which Markdown alone would not link. */
export const BARE_TASK_PATH = /^\/tasks\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?![\w-])/i;
