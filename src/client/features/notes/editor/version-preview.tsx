import Collaboration from '@tiptap/extension-collaboration';
import { EditorContent, useEditor } from '@tiptap/react';
import { useEffect, useMemo } from 'react';
import * as Y from 'yjs';
import { NOTE_FRAGMENT } from '../../../../domain/schemas/note';
import { noteExtensions } from './extensions';
import './editor.css';

const fromBase64 = (b64: string) => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));

/** A version's content, read-only: its Yjs state in a throw-away document, shown with the note's own schema. */
export function VersionPreview({ state, label }: { state: string; label: string }) {
  const doc = useMemo(() => {
    const d = new Y.Doc();
    Y.applyUpdate(d, fromBase64(state));
    return d;
  }, [state]);
  useEffect(() => () => doc.destroy(), [doc]);
  const editor = useEditor(
    {
      editable: false,
      immediatelyRender: true,
      extensions: [...noteExtensions(), Collaboration.configure({ document: doc, field: NOTE_FRAGMENT })],
      editorProps: {
        attributes: { class: 'note-prose px-4 py-3', role: 'document', 'aria-label': label },
      },
    },
    [doc],
  );
  return <EditorContent editor={editor} />;
}
