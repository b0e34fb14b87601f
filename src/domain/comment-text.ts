import { MENTION_TOKEN } from './schemas/task-detail';

/**
 * A comment's body as plain text for places that cannot render Markdown or mentions (mail, logs): each `<@id>`
 * becomes `@Full Name` (current name; `@someone` for an account that is gone), and the result is cut to `max`
 * characters at a word boundary where there is one, with '…'.
 */
export function commentAsText(body: string, nameOf: (id: string) => string | undefined, max = 500): string {
  const text = body.replace(MENTION_TOKEN, (_, id: string) => `@${nameOf(id.toLowerCase()) ?? 'someone'}`).trim();
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
