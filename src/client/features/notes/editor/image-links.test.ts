import { describe, expect, it } from 'vitest';
import { noteImageReference, onNoteImageQuery, setNoteImageQuery, signedImageSrc } from './image-links';

const note = '0b7f3c1e-5a7d-4c55-9f59-2a1b7e9d0c11';
const file = '7d1c2b3a-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
const path = `/api/notes/${note}/images/${file}`;

describe('note image links (issue 35, item 4)', () => {
  it('keeps the stable path in the document and signs it with the note’s current query when shown', () => {
    expect(noteImageReference(`${path}?exp=1&sig=abc`)).toBe(path);
    expect(noteImageReference('/api/files/x?exp=1&sig=y')).toBe('/api/files/x?exp=1&sig=y');
    let renewed = 0;
    const stop = onNoteImageQuery(() => renewed++);
    setNoteImageQuery(note, 'exp=3600&sig=first');
    // A legacy src (the never-expiring `?sig=` of before) is signed afresh too.
    expect(signedImageSrc(`${path}?sig=old`)).toBe(`${path}?exp=3600&sig=first`);
    setNoteImageQuery(note, 'exp=3600&sig=first');
    setNoteImageQuery(note.toUpperCase(), 'exp=7200&sig=second');
    expect(signedImageSrc(path)).toBe(`${path}?exp=7200&sig=second`);
    expect(renewed).toBe(2);
    stop();
    // Another note's images, and other sources, are left alone.
    const other = `/api/notes/${file}/images/${note}`;
    expect(signedImageSrc(`${other}?sig=x`)).toBe(other);
    expect(signedImageSrc('/api/avatars/a/b')).toBe('/api/avatars/a/b');
  });
});
