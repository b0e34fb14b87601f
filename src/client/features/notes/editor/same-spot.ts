import { Extension } from '@tiptap/core';
import type { Schema } from '@tiptap/pm/model';
import { type EditorState, Plugin, PluginKey, TextSelection } from '@tiptap/pm/state';
import { absolutePositionToRelativePosition, relativePositionToAbsolutePosition, ySyncPluginKey } from '@tiptap/y-tiptap';
import * as Y from 'yjs';

/**
 * Issue 35, item 12: two people typing at the same spot of a note garbled each other's text ('Oember wrote …wner
 * wrote …M'). Three faults of the binding (@tiptap/y-tiptap 3.0.9, the newest; yjs/y-prosemirror #161, #271) add up:
 *
 * 1. An empty paragraph has no Y.XmlText in the shared document. Two people typing into it each create one, so the
 *    paragraph holds two texts; when rendering, the binding then moves the content of the text "created by us" into the
 *    other one and deletes ours (its fix for y-prosemirror #160). The moved letters are new items: the caret, held as
 *    a relative position on the deleted text, no longer resolves, and the next letter lands before the moved ones.
 * 2. The binding stores typing by comparing the block's old and new text (simpleDiff), which cannot tell which of two
 *    equal letters was typed: one's own 'O' typed in front of the other person's 'O' is stored behind it, and one's
 *    next letters between the two.
 * 3. After every remote change the binding second-guesses the caret's Yjs position whenever the paragraph's text
 *    differs from before (any remote typing in it does), with a content heuristic made for block moves: "the old
 *    text is a prefix of the new one, keep the old offset". With a shared first letter ('O…' and 'O…') it puts the
 *    caret after the other person's letter, in front of one's own.
 *
 * The work-around, on top of the binding (headless reproduction and proof: same-spot.test.ts; e2e: notes.spec.ts):
 * (1) an empty text block this browser creates gets its empty Y.XmlText at once (one stored that way gets it when a
 * caret enters it), so both people type into the same Y.Text, where Yjs keeps each run contiguous; (2) plain typing is
 * written to that Y.Text at the caret before the binding compares texts; (3) after a remote change the caret is put
 * where its Yjs relative positions say, captured before the change, whenever those point into a text that still
 * exists (a block moved by drag and drop is a new one: the binding's own recovery then stands).
 */

type Binding = { mapping: Map<unknown, unknown> } | undefined;
const bindingOf = (state: EditorState): Binding => ySyncPluginKey.getState(state)?.binding;

/**
 * The empty text blocks (Y.XmlElements of a text block type with no child) that `tr` created under the types it
 * changed: only new items are visited, so a keystroke in a long note costs nothing.
 */
function newEmptyTextblocks(tr: Y.Transaction, changed: Iterable<unknown>, schema: Schema): Y.XmlElement[] {
  const empty: Y.XmlElement[] = [];
  const isNew = (el: Y.XmlElement) => !!el._item && el._item.id.clock >= (tr.beforeState.get(el._item.id.client) ?? 0);
  const visitNew = (el: Y.XmlElement) => {
    if (el.length === 0 && schema.nodes[el.nodeName]?.isTextblock) empty.push(el);
    else for (const child of el.toArray()) if (child instanceof Y.XmlElement) visitNew(child);
  };
  for (const parent of changed) {
    if (!(parent instanceof Y.XmlElement || parent instanceof Y.XmlFragment)) continue;
    for (const child of parent.toArray()) if (child instanceof Y.XmlElement && isNew(child)) visitNew(child);
  }
  return empty;
}

const key = new PluginKey('sameSpotTyping');

/** The ProseMirror plugin (exported for the headless test); `fragment` is the Y.XmlFragment the editor is bound to. */
export function sameSpotTypingPlugin(fragment: Y.XmlFragment, schema: Schema): Plugin {
  const doc = fragment.doc;
  if (!doc) throw new Error('the fragment is not in a Y.Doc');
  let view: { state: EditorState } | null = null;
  let before: { anchor: Y.RelativePosition; head: Y.RelativePosition } | null = null;

  const capture = () => {
    const state = view?.state;
    if (before || !state || !(state.selection instanceof TextSelection)) return;
    const binding = bindingOf(state);
    if (!binding) return;
    before = {
      anchor: absolutePositionToRelativePosition(state.selection.anchor, fragment, binding.mapping as never),
      head: absolutePositionToRelativePosition(state.selection.head, fragment, binding.mapping as never),
    };
  };
  const release = () => {
    before = null;
  };
  /** Local edits only (the binding writes with origin ySyncPluginKey): the block's creator adds its text, nobody else. */
  const fill = (tr: Y.Transaction) => {
    if (!tr.local || tr.origin !== ySyncPluginKey) return;
    const changed = [...tr.changed.keys()].filter((t) => (t as unknown) === fragment || Y.isParentOf(fragment, t._item));
    const empty = newEmptyTextblocks(tr, changed, schema);
    if (!empty.length) return;
    doc.transact(() => {
      for (const el of empty) if (el.length === 0) el.insert(0, [new Y.XmlText()]);
    }, key);
  };

  /** Where the caret's captured relative position is now, if it points into a text that still exists. */
  const resolve = (rel: Y.RelativePosition, next: EditorState): number | null => {
    const at = Y.createAbsolutePositionFromRelativePosition(rel, doc);
    if (!at || !(at.type instanceof Y.XmlText) || at.type._item?.deleted) return null;
    const binding = bindingOf(next);
    if (!binding) return null;
    const pos = relativePositionToAbsolutePosition(doc, fragment, rel, binding.mapping as never);
    if (pos === null || pos < 0 || pos > next.doc.content.size) return null;
    return next.doc.resolve(pos).parent.isTextblock ? pos : null;
  };

  /**
   * A caret in an empty text block that has no Y.XmlText (a note written before this work-around): this browser adds
   * it now, before anyone types there. Written inside the binding's mutex: the editor's document does not change.
   * While the binding renders a remote change the mutex is taken: then it is done right after (`pending`).
   */
  let pending = false;
  const prepare = (target: { state: EditorState; editable: boolean; hasFocus: () => boolean }) => {
    pending = false;
    const { state } = target;
    if (!target.editable || !target.hasFocus()) return;
    const block = state.selection.$head.parent;
    if (!block.isTextblock || block.content.size > 0) return;
    const binding = bindingOf(state) as (Binding & { mux: (f: () => void, g?: () => void) => void }) | undefined;
    if (!binding) return;
    for (const [type, node] of binding.mapping) {
      if (node !== block) continue;
      if (type instanceof Y.XmlElement && type.length === 0 && Y.isParentOf(fragment, type._item)) {
        const add = () => doc.transact(() => type.insert(0, [new Y.XmlText()]), key);
        binding.mux(add, () => {
          pending = true;
        });
      }
      return;
    }
  };

  /**
   * Typing, written to the Y.XmlText where it was typed, before the binding's own sync (this plugin's view comes first)
   * finds nothing left to do. The binding works out what changed by comparing the old and new text of the block
   * (simpleDiff), which cannot tell which of two equal letters was typed: after 'O' from the other person, one's own
   * 'O' typed in front of it was stored behind it, and one's next letters in between. Only plain typing is written
   * here (a caret moved forward by exactly the inserted text, in a block of text alone held by one Y.XmlText); anything
   * else is left to the binding.
   */
  const writeTyping = (prev: EditorState, next: EditorState) => {
    const { selection: before } = prev;
    const { selection: after } = next;
    if (!before.empty || !after.empty || !after.$head.parent.isTextblock) return;
    const oldBlock = before.$head.parent;
    const newBlock = after.$head.parent;
    if (before.$head.start() !== after.$head.start() || oldBlock.type !== newBlock.type) return;
    const from = before.$head.parentOffset;
    const to = after.$head.parentOffset;
    const oldText = oldBlock.textContent;
    const newText = newBlock.textContent;
    if (to <= from || newText.length - oldText.length !== to - from) return;
    if (oldBlock.content.size !== oldText.length || newBlock.content.size !== newText.length) return;
    const typed = newText.slice(from, to);
    if (newText !== oldText.slice(0, from) + typed + oldText.slice(from)) return;
    const binding = bindingOf(prev) as (Binding & { mux: (f: () => void) => void }) | undefined;
    if (!binding) return;
    let element: Y.XmlElement | null = null;
    for (const [type, node] of binding.mapping) {
      if (node === oldBlock && type instanceof Y.XmlElement) {
        element = type;
        break;
      }
    }
    const children = element?.toArray() ?? [];
    const text = children[0];
    if (children.length !== 1 || !(text instanceof Y.XmlText)) return;
    const stored = (text.toDelta() as { insert: unknown }[]).map((d) => (typeof d.insert === 'string' ? d.insert : '\ufffc'));
    if (stored.join('') !== oldText) return;
    binding.mux(() => doc.transact(() => text.insert(from, typed), ySyncPluginKey));
  };

  return new Plugin({
    key,
    view(editorView) {
      view = editorView;
      doc.on('beforeAllTransactions', capture);
      doc.on('afterAllTransactions', release);
      doc.on('afterTransaction', fill);
      return {
        update(v, prev) {
          const remote = !!ySyncPluginKey.getState(v.state)?.isChangeOrigin;
          if (prev.doc !== v.state.doc && !remote) writeTyping(prev, v.state);
          if (pending || !prev.selection.eq(v.state.selection) || prev.doc !== v.state.doc) prepare(v);
          if (pending) queueMicrotask(() => pending && view === v && prepare(v));
        },
        destroy() {
          doc.off('beforeAllTransactions', capture);
          doc.off('afterAllTransactions', release);
          doc.off('afterTransaction', fill);
          view = null;
        },
      };
    },
    appendTransaction(trs, _old, next) {
      if (!before || !trs.some((tr) => tr.docChanged && tr.getMeta(ySyncPluginKey)?.isChangeOrigin)) return null;
      const anchor = resolve(before.anchor, next);
      const head = resolve(before.head, next);
      if (anchor === null || head === null) return null;
      if (next.selection.anchor === anchor && next.selection.head === head) return null;
      return next.tr
        .setSelection(TextSelection.create(next.doc, anchor, head))
        .setMeta(ySyncPluginKey, { isChangeOrigin: true })
        .setMeta('addToHistory', false);
    },
  });
}

/** The work-around as a Tiptap extension, beside Collaboration (same document and field). */
export const SameSpotTyping = Extension.create<{ fragment: Y.XmlFragment | null }>({
  name: 'sameSpotTyping',
  // Before Collaboration (1000): this plugin's view must write typing before the binding's view syncs.
  priority: 1001,
  addOptions() {
    return { fragment: null };
  },
  addProseMirrorPlugins() {
    return this.options.fragment ? [sameSpotTypingPlugin(this.options.fragment, this.editor.schema)] : [];
  },
});
