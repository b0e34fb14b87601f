/**
 * Note images expire (issue 35, item 4): the document keeps each image's stable path, `/api/notes/<id>/images/<file>`,
 * and the editor adds the note's current `?exp=…&sig=…` when it shows one. That query comes with every socket ticket
 * (collab.ts, every 30 s while the note is open), so opening a note renews its images' links; an image on screen is
 * signed again when a newer query arrives.
 */
const queries = new Map<string, string>();
const listeners = new Set<() => void>();

const NOTE_IMAGE = /^(?:[a-z][a-z0-9+.-]*:\/\/[^/?#]+)?\/api\/notes\/([0-9a-f-]{36})\/images\/([0-9a-f-]{36})(?:[?#].*)?$/i;

/** The note's current image query (from a socket ticket); images shown are re-signed when it changes. */
export function setNoteImageQuery(noteId: string, query: string): void {
  const id = noteId.toLowerCase();
  if (queries.get(id) === query) return;
  queries.set(id, query);
  for (const listener of listeners) listener();
}

/** Called whenever a note's image query changes; answers the unsubscribe. */
export function onNoteImageQuery(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** What the document keeps of an uploaded image's URL: its path, without the expiring query. */
export function noteImageReference(url: string): string {
  const match = NOTE_IMAGE.exec(url.trim());
  return match ? `/api/notes/${match[1]}/images/${match[2]}` : url;
}

/** The src to show for a document's image: a note image's path with its note's current query; anything else as is. */
export function signedImageSrc(src: string): string {
  const match = NOTE_IMAGE.exec(src.trim());
  if (!match) return src;
  const path = `/api/notes/${match[1]}/images/${match[2]}`;
  const query = queries.get(match[1]!.toLowerCase());
  return query ? `${path}?${query}` : path;
}
