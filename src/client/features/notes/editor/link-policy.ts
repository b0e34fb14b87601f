import { isAllowedHref } from '../../../lib/sanitize-policy';

/** What the Link dialog makes of typed text: `example.org` becomes `https://example.org`; null when not allowed. */
export function normaliseHref(typed: string): string | null {
  const raw = typed.trim();
  if (!raw) return null;
  const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(raw) ? raw : `https://${raw}`;
  return isAllowedHref(withScheme) ? withScheme : null;
}
