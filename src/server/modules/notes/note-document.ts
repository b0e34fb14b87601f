import * as Y from 'yjs';
import { NOTE_FRAGMENT } from '../../../domain/schemas/note';

/**
 * What the server reads of a note's Yjs document (the Tiptap/y-prosemirror shape: an XmlFragment of block elements,
 * whose inline content is XmlText runs and inline elements such as `mention` and `taskLink`).
 */

/** Elements whose content is a line of its own. */
const BLOCKS = new Set([
  'paragraph',
  'heading',
  'codeBlock',
  'blockquote',
  'listItem',
  'taskItem',
  'bulletList',
  'orderedList',
  'taskList',
  'table',
  'tableRow',
  'horizontalRule',
]);
const CELLS = new Set(['tableCell', 'tableHeader']);

const attr = (el: Y.XmlElement, name: string): string | null => {
  const value = el.getAttribute(name) as unknown;
  return typeof value === 'string' && value !== '' ? value : null;
};

function inlineText(node: Y.XmlText): string {
  let out = '';
  for (const op of node.toDelta() as { insert: unknown }[]) if (typeof op.insert === 'string') out += op.insert;
  return out;
}

/**
 * The plain text of the note: each block (paragraph, heading, list item, code block, table row…) on its own line,
 * table cells separated by tabs, a mention as `@label`, a task link as its label. Blank lines are collapsed.
 */
export function noteText(doc: Y.Doc): string {
  const lines: string[] = [];
  let line = '';
  const endLine = () => {
    if (line.trim() !== '') lines.push(line.replace(/\s+$/, ''));
    line = '';
  };
  const walk = (node: Y.XmlElement | Y.XmlText | Y.XmlHook | Y.XmlFragment) => {
    if (node instanceof Y.XmlText) {
      line += inlineText(node);
      return;
    }
    if (node instanceof Y.XmlElement) {
      const name = node.nodeName;
      if (name === 'mention') {
        const label = attr(node, 'label') ?? attr(node, 'id');
        line += label ? `@${label}` : '';
        return;
      }
      if (name === 'taskLink') {
        line += attr(node, 'label') ?? attr(node, 'title') ?? '';
        return;
      }
      if (name === 'hardBreak') {
        endLine();
        return;
      }
      if (name === 'image') {
        line += attr(node, 'alt') ?? '';
        return;
      }
      const block = BLOCKS.has(name) || CELLS.has(name);
      if (block) endLine();
      for (const child of node.toArray()) walk(child);
      if (block) endLine();
      return;
    }
    if (node instanceof Y.XmlFragment) for (const child of node.toArray()) walk(child);
  };
  for (const child of doc.getXmlFragment(NOTE_FRAGMENT).toArray()) {
    if (child instanceof Y.XmlElement && child.nodeName === 'table') walkTable(child, lines);
    else walk(child);
  }
  endLine();
  // PostgreSQL text cannot hold NUL: a pasted one must not stop the note from being stored.
  return lines.join('\n').replaceAll('\u0000', '');
}

/** A table: one line per row, its cells' text separated by tabs. */
function walkTable(table: Y.XmlElement, lines: string[]): void {
  for (const row of table.toArray()) {
    if (!(row instanceof Y.XmlElement)) continue;
    const cells = row.toArray().map((cell) => (cell instanceof Y.XmlElement ? cellText(cell) : ''));
    const text = cells.join('\t').replace(/\s+$/, '');
    if (text.trim() !== '') lines.push(text);
  }
}

function cellText(cell: Y.XmlElement): string {
  const doc = new Y.Doc();
  // Rendered through noteText on a copy: the cell's blocks joined by spaces.
  const fragment = doc.getXmlFragment(NOTE_FRAGMENT);
  fragment.insert(
    0,
    cell.toArray().map((child) => (child as Y.XmlElement).clone()),
  );
  const text = noteText(doc).replace(/\n/g, ' ');
  doc.destroy();
  return text;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The ids of the users the note mentions (elements `mention` whose `id` is a user id; anything else is ignored). */
export function noteMentions(doc: Y.Doc): Set<string> {
  const ids = new Set<string>();
  const walk = (node: unknown) => {
    if (node instanceof Y.XmlElement) {
      if (node.nodeName === 'mention') {
        const id = attr(node, 'id')?.toLowerCase();
        if (id && UUID.test(id)) ids.add(id);
        return;
      }
      for (const child of node.toArray()) walk(child);
    }
  };
  for (const child of doc.getXmlFragment(NOTE_FRAGMENT).toArray()) walk(child);
  return ids;
}

/** The start of the text, for list rows. */
export function excerptOf(plainText: string, max = 200): string {
  const flat = plainText.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`;
}

/** A document from stored updates (a compacted state, then later updates), in order. */
export function docFrom(updates: readonly Uint8Array[]): Y.Doc {
  const doc = new Y.Doc();
  for (const update of updates) if (update.length > 0) Y.applyUpdate(doc, update);
  return doc;
}

/**
 * The change that makes `doc`'s content that of `source` (a version being restored): every block of the fragment
 * deleted, the source's blocks inserted, in one transaction. Returns the update that carries the change (empty when
 * nothing changed), to be sent and stored like any client's.
 */
export function replaceContent(doc: Y.Doc, source: Y.Doc, origin: unknown): Uint8Array {
  const before = Y.encodeStateVector(doc);
  const target = doc.getXmlFragment(NOTE_FRAGMENT);
  const blocks = source
    .getXmlFragment(NOTE_FRAGMENT)
    .toArray()
    .map((child) => (child as Y.XmlElement | Y.XmlText).clone());
  doc.transact(() => {
    if (target.length > 0) target.delete(0, target.length);
    if (blocks.length > 0) target.insert(0, blocks);
  }, origin);
  return Y.encodeStateAsUpdate(doc, before);
}
