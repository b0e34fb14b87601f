import { useQuery } from '@tanstack/react-query';
import Collaboration from '@tiptap/extension-collaboration';
import CollaborationCaret from '@tiptap/extension-collaboration-caret';
import { Placeholder } from '@tiptap/extensions';
import { type Editor, EditorContent, useEditor } from '@tiptap/react';
import { useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import type * as Y from 'yjs';
import { NOTE_FRAGMENT } from '../../../../domain/schemas/note';
import { HIGHLIGHT_END, HIGHLIGHT_START, type SearchResultDto } from '../../../../domain/schemas/search';
import { StatusIcon, statusText } from '../../../components/task-visuals';
import { api } from '../../../lib/api-client';
import { defaultLookOf } from '../../../lib/default-column';
import { toastError } from '../../../lib/errors';
import { teamQueryOptions } from '../../../lib/queries/teams';
import { NOTE_POLICY, sanitizeHtml } from '../../../lib/sanitize-policy';
import { uploadNoteImage } from '../api/upload-image';
import type { NoteConnection } from '../collab';
import { noteImageReference } from './image-links';
import { LinkDialog } from './link-dialog';
import { noteExtensions } from './extensions';
import { looksLikeMarkdown, markdownToHtml } from './markdown-paste';
import { SameSpotTyping } from './same-spot';
import { type SuggestionItem, suggestionRender } from './suggestion-menu';
import { Toolbar } from './toolbar';
import './editor.css';

/** Who this browser is in the note (awareness): the others see this name and colour at this caret. */
export interface CollabUser {
  id: string;
  name: string;
  color: string;
}

export interface NoteEditorProps {
  noteId: string;
  teamId: string;
  doc: Y.Doc;
  connection: NoteConnection;
  user: CollabUser;
  /** False once the connection stopped for good (no longer a member, the note deleted). */
  editable: boolean;
  /** Called once with the editor (tests and the page's focus handling). */
  onReady?: (editor: Editor) => void;
}

const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];
const imageFiles = (list: FileList | null | undefined) => [...(list ?? [])].filter((f) => IMAGE_TYPES.includes(f.type));

/** `#` offers the tasks of the note's team only (the search covers all the caller's teams). */
async function searchTasks(teamId: string, query: string, signal: AbortSignal): Promise<SuggestionItem[]> {
  const q = query.trim();
  if (!q) return [];
  const res = await api.get<SearchResultDto>('/api/search', { query: { q, kinds: 'task', limit: 10 }, signal });
  return res.groups.task
    .filter((hit) => hit.teamId === teamId)
    .slice(0, 8)
    .map((hit) => ({
      hit,
      look: hit.status && hit.statusCategory ? defaultLookOf({ status: hit.status, statusCategory: hit.statusCategory }) : null,
    }))
    .map(({ hit, look }) => ({
      id: hit.id,
      label: hit.title.split(HIGHLIGHT_START).join('').split(HIGHLIGHT_END).join(''),
      detail: [hit.context, look ? statusText(look) : null].filter(Boolean).join(' · ') || null,
      icon: look ? <StatusIcon status={look} className="mt-1" /> : undefined,
    }));
}

/**
 * The collaborative editor: Tiptap on the note's Y.Doc (field NOTE_FRAGMENT) with the others' carets, `@` mentions of
 * teammates, `#` task chips, tables, checklists, images (uploaded, then linked), and paste that is sanitised first
 * (HTML through NOTE_POLICY, lib/sanitize-policy.ts; Markdown-looking text through marked, then NOTE_POLICY).
 */
export function NoteEditor({ noteId, teamId, doc, connection, user, editable, onReady }: NoteEditorProps) {
  const team = useQuery(teamQueryOptions(teamId));
  const members = useRef<SuggestionItem[]>([]);
  members.current = (team.data?.members ?? [])
    .filter((m) => m.userId !== user.id)
    .map((m) => ({ id: m.userId, label: m.user.fullName, detail: m.user.email }));
  const [linkOpen, setLinkOpen] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const editorRef = useRef<Editor | null>(null);

  const insertImages = async (files: File[], at?: number) => {
    for (const file of files) {
      try {
        const src = await uploadNoteImage(noteId, file);
        const e = editorRef.current;
        if (!e || e.isDestroyed) return;
        // The document keeps the image's stable path; its expiring signature is added when shown (image-links.ts).
        const alt = file.name.replace(/\.[a-z0-9]+$/i, '') || 'Image';
        const node = { type: 'image', attrs: { src: noteImageReference(src), alt } };
        if (at === undefined) e.chain().focus().insertContent(node).run();
        else e.chain().focus().insertContentAt(at, node).run();
      } catch (error) {
        toastError(error, 'Failed to upload the image');
      }
    }
  };
  const insertImagesRef = useRef(insertImages);
  insertImagesRef.current = insertImages;

  const editor = useEditor(
    {
      editable,
      // Render at once (no flash of nothing): the document is local, the socket fills it.
      immediatelyRender: true,
      shouldRerenderOnTransaction: false,
      extensions: [
        ...noteExtensions({
          mention: {
            char: '@',
            items: ({ query }) => {
              const q = query.trim().toLowerCase();
              return members.current
                .filter(
                  (m) =>
                    !q ||
                    m.label
                      .toLowerCase()
                      .split(/\s+/)
                      .some((w) => w.startsWith(q)) ||
                    m.detail?.toLowerCase().startsWith(q),
                )
                .slice(0, 8);
            },
            render: suggestionRender('Teammates', (q) => (q ? `No teammate matches “${q}”` : 'No teammates to mention')),
          },
          task: {
            items: ({ query, signal }) => searchTasks(teamId, query, signal),
            debounce: 150,
            render: suggestionRender('Tasks', (q) =>
              q ? `No task of this team matches “${q}”` : 'Type to search this team’s tasks',
            ),
          },
        }),
        Placeholder.configure({ placeholder: 'Write something… Type @ to mention a teammate, # to link a task.' }),
        Collaboration.configure({ document: doc, field: NOTE_FRAGMENT }),
        // Two people typing at the same spot keep their runs whole (same-spot.ts: a work-around for the binding).
        SameSpotTyping.configure({ fragment: doc.getXmlFragment(NOTE_FRAGMENT) }),
        CollaborationCaret.configure({ provider: connection.provider, user }),
      ],
      editorProps: {
        attributes: {
          class: 'note-prose px-4 py-4 sm:px-6',
          role: 'textbox',
          'aria-multiline': 'true',
          'aria-label': 'Note content',
        },
        transformPastedHTML: (html) => sanitizeHtml(html, NOTE_POLICY),
        handlePaste: (_view, event) => {
          const data = event.clipboardData;
          const images = imageFiles(data?.files);
          if (images.length) {
            void insertImagesRef.current(images);
            return true;
          }
          const html = data?.getData('text/html');
          const text = data?.getData('text/plain') ?? '';
          if (!html && text && looksLikeMarkdown(text)) {
            editorRef.current?.commands.insertContent(sanitizeHtml(markdownToHtml(text), NOTE_POLICY));
            return true;
          }
          return false;
        },
        handleDrop: (view, event, _slice, moved) => {
          if (moved) return false;
          const images = imageFiles(event.dataTransfer?.files);
          if (!images.length) return false;
          event.preventDefault();
          const at = view.posAtCoords({ left: event.clientX, top: event.clientY })?.pos;
          void insertImagesRef.current(images, at);
          return true;
        },
      },
    },
    [doc, connection],
  );
  editorRef.current = editor;

  useEffect(() => {
    if (editor && !editor.isDestroyed) editor.setEditable(editable);
  }, [editor, editable]);

  useEffect(() => {
    if (editor) onReady?.(editor);
  }, [editor, onReady]);

  if (!editor) return null;
  return (
    <div className="overflow-hidden rounded-xl border border-slate-200 bg-white dark:border-slate-700 dark:bg-slate-900">
      <Toolbar
        editor={editor}
        disabled={!editable}
        actions={{ onLink: () => setLinkOpen(true), onImage: () => fileInput.current?.click() }}
      />
      <input
        ref={fileInput}
        type="file"
        accept={IMAGE_TYPES.join(',')}
        multiple
        className="sr-only"
        tabIndex={-1}
        aria-label="Upload an image"
        onChange={(e) => {
          const files = imageFiles(e.target.files);
          e.target.value = '';
          if (files.length) void insertImages(files);
          else if (e.target.files?.length) toast.error('Only PNG, JPEG, GIF and WebP images can be added');
        }}
      />
      <EditorContent editor={editor} />
      {linkOpen && <LinkDialog editor={editor} onClose={() => setLinkOpen(false)} />}
    </div>
  );
}
