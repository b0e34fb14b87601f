import { MENTION_TOKEN, type PersonDto } from '../../../../../domain/schemas/task-detail';

/**
 * @mentions in the comment box: the box shows `@Full Name`, the stored body holds `<@user-id>` (domain MENTION_TOKEN),
 * and these pure functions convert between the two and find the mention being typed.
 */

type Person = Pick<PersonDto, 'id' | 'fullName'>;

/** The longest query the list follows: past it, the `@` was not a mention. */
const MAX_QUERY = 40;

export interface ActiveMention {
  /** Where the `@` is. */
  start: number;
  /** What follows it up to the caret. */
  query: string;
}

/**
 * The mention being typed at `caret`: an `@` at the start or after a space or an opening bracket, followed by at most
 * a few words on the same line. Null when the caret is not in one.
 */
export function activeMention(text: string, caret: number): ActiveMention | null {
  const before = text.slice(0, caret);
  const at = before.lastIndexOf('@');
  if (at < 0) return null;
  if (at > 0 && !/[\s([{"'>]/.test(before[at - 1]!)) return null;
  const query = before.slice(at + 1);
  if (query.length > MAX_QUERY || /[\n@]/.test(query) || /^\s/.test(query) || /\s{2}/.test(query)) return null;
  return { start: at, query };
}

/** The people whose name matches the query: any word of the name starting with it, or the whole name containing it. */
export function matchPeople<P extends Person>(people: readonly P[], query: string): P[] {
  const q = query.trim().toLowerCase();
  if (!q) return [...people];
  const starts = (p: P) =>
    p.fullName.toLowerCase().startsWith(q) ||
    p.fullName
      .toLowerCase()
      .split(/\s+/)
      .some((w) => w.startsWith(q));
  return [...people.filter(starts), ...people.filter((p) => !starts(p) && p.fullName.toLowerCase().includes(q))];
}

/** The text with the mention being typed replaced by `@Full Name ` (and where the caret goes). */
export function insertMention(text: string, mention: ActiveMention, caret: number, person: Person) {
  const inserted = `@${person.fullName} `;
  const after = text.slice(caret).replace(/^ /, '');
  return { text: `${text.slice(0, mention.start)}${inserted}${after}`, caret: mention.start + inserted.length };
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The body to send: each `@Full Name` of these people becomes `<@id>`. The longest names win (`@Ann Lee` before
 * `@Ann`); a name must end there (`@Ann` in `@Anna` is not Ann); the first person of a name wins, so list the ones
 * picked from the list first.
 */
export function toMentionTokens(text: string, people: readonly Person[]): string {
  const byName = new Map<string, string>();
  for (const p of people) {
    const name = p.fullName.trim();
    if (name && !byName.has(name.toLowerCase())) byName.set(name.toLowerCase(), p.id);
  }
  if (byName.size === 0) return text;
  const names = [...byName.keys()].sort((a, b) => b.length - a.length).map(escapeRegExp);
  const pattern = new RegExp(`@(${names.join('|')})(?![\\p{L}\\p{N}_])`, 'giu');
  return text.replace(pattern, (whole, name: string) => {
    const id = byName.get(name.toLowerCase());
    return id ? `<@${id}>` : whole;
  });
}

/** A stored body as the box shows it: `<@id>` becomes `@Current Name` (`@former member` for an account that is gone). */
export function toMentionDisplay(body: string, names: ReadonlyMap<string, string>): string {
  return body.replace(MENTION_TOKEN, (_, id: string) => `@${names.get(id.toLowerCase()) ?? 'former member'}`);
}

/** id -> current name of the people a comment mentions. */
export const mentionNames = (people: readonly Person[]): ReadonlyMap<string, string> =>
  new Map(people.map((p) => [p.id.toLowerCase(), p.fullName]));
