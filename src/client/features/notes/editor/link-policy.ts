/** Control characters and spaces inside a URL are how `java\tscript:` slips past naive checks: refused outright. */
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

/** What the Link dialog makes of typed text: `example.org` becomes `https://example.org`; null when not allowed. */
export function normaliseHref(typed: string): string | null {
  const raw = typed.trim();
  if (!raw) return null;
  const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(raw) ? raw : `https://${raw}`;
  return isAllowedHref(withScheme) ? withScheme : null;
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
