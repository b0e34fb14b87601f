/** A mail's subject and its two bodies: plain text, and simple HTML (no images, no tracking pixels). */
export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

export interface MailContent {
  subject: string;
  /** The first line, e.g. 'Verify your email address'. */
  heading: string;
  paragraphs: string[];
  /** The one button of the mail, and its link (built from PUBLIC_URL by the caller). */
  action?: { label: string; url: string };
  /** Closing lines in small print, e.g. why the mail was sent (each its own line). */
  footer?: string | readonly string[];
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text for HTML: every character that could open markup or an attribute is escaped. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/**
 * One layout for every mail Crewboard sends. Whatever the caller passes (names, task titles) is escaped in the HTML
 * part; links are written out in full in the text part so that they work in any client.
 */
export function renderMail({ subject, heading, paragraphs, action, footer: given }: MailContent): RenderedMail {
  const footer = given === undefined ? [] : typeof given === 'string' ? [given] : given;
  const text = [
    heading,
    '',
    ...paragraphs.flatMap((p) => [p, '']),
    ...(action ? [`${action.label}: ${action.url}`, ''] : []),
    ...(footer.length > 0 ? ['—', ...footer] : []),
  ]
    .join('\n')
    .trimEnd();
  const html = [
    '<!doctype html><html><body style="margin:0;padding:24px;background:#f8fafc;font-family:system-ui,sans-serif;color:#0f172a">',
    '<div style="max-width:560px;margin:0 auto;background:#ffffff;border:1px solid #e2e8f0;border-radius:12px;padding:24px">',
    `<h1 style="margin:0 0 16px;font-size:20px">${escapeHtml(heading)}</h1>`,
    ...paragraphs.map((p) => `<p style="margin:0 0 12px;line-height:1.5">${escapeHtml(p)}</p>`),
    action
      ? `<p style="margin:20px 0"><a href="${escapeHtml(action.url)}" style="display:inline-block;background:#4f46e5;color:#ffffff;text-decoration:none;padding:10px 16px;border-radius:8px">${escapeHtml(action.label)}</a></p><p style="margin:0 0 12px;font-size:13px;color:#475569">Or open this link: ${escapeHtml(action.url)}</p>`
      : '',
    ...footer.map(
      (line, i) => `<p style="margin:${i === 0 ? 20 : 4}px 0 0;font-size:12px;color:#64748b">${escapeHtml(line)}</p>`,
    ),
    '</div></body></html>',
  ].join('');
  return { subject, text, html };
}
