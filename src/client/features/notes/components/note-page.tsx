import type { Editor } from '@tiptap/react';
import { ArrowLeft, FileQuestion, History, Trash2 } from 'lucide-react';
import { type KeyboardEvent, useCallback, useEffect, useState, useSyncExternalStore } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { toast } from 'sonner';
import * as Y from 'yjs';
import type { NoteDto } from '../../../../domain/schemas/note';
import { Button } from '../../../components/ui/button';
import { EmptyState } from '../../../components/ui/empty-state';
import { Spinner } from '../../../components/ui/spinner';
import { isError, toastError } from '../../../lib/errors';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useWorkRights } from '../../../lib/use-work-rights';
import { useAuthStore } from '../../../stores/auth-store';
import { useNote, useUpdateNote } from '../api/notes';
import { colorFor, NoteConnection } from '../collab';
import { NoteEditor } from '../editor/note-editor';
import { ConnectionStatus } from './connection-status';
import { DeleteNoteDialog } from './delete-note-dialog';
import { Presence } from './presence';
import { VersionHistory } from './version-history';

/** /notes/:id: one note in the collaborative editor (issue 25). This page's chunk is the only one with Tiptap and Yjs. */
export function NotePage() {
  const { id = '' } = useParams();
  // The socket opens beside the note's own request, not after it (one round trip less before the text shows); for a
  // note that is not there, its ticket is refused and it stops.
  const session = useNoteSession(id);
  const note = useNote(id);
  useDocumentTitle(note.data?.title ?? (note.isError ? 'Note not found' : 'Note'));

  if (note.isPending) return <Spinner label="Loading note..." />;
  if (note.isError) {
    const notFound = isError(note.error, 'not_found');
    return (
      <div>
        <BackLink />
        {notFound ? (
          <EmptyState
            icon={<FileQuestion className="h-10 w-10" />}
            title="Note not found"
            message="It may have been deleted, or it belongs to a team you are not in."
            action={
              <Link to="/notes" className="font-medium text-brand-700 underline dark:text-indigo-300">
                Back to Notes
              </Link>
            }
          />
        ) : (
          <EmptyState
            title="Failed to load the note"
            action={
              <Button variant="secondary" onClick={() => void note.refetch()}>
                Try again
              </Button>
            }
          />
        )}
      </div>
    );
  }
  return <NoteView key={note.data.id} note={note.data} session={session} />;
}

function BackLink() {
  return (
    <Link
      to="/notes"
      className="mb-3 inline-flex items-center gap-1 text-sm font-medium text-slate-700 hover:text-slate-900 dark:text-slate-300 dark:hover:text-white"
    >
      <ArrowLeft className="h-4 w-4" aria-hidden />
      Notes
    </Link>
  );
}

interface Session {
  doc: Y.Doc;
  connection: NoteConnection;
}

function useNoteSession(noteId: string): Session | null {
  const [session, setSession] = useState<Session | null>(null);
  useEffect(() => {
    const doc = new Y.Doc();
    const connection = new NoteConnection(noteId, doc);
    setSession({ doc, connection });
    return () => {
      connection.destroy();
      doc.destroy();
      setSession(null);
    };
  }, [noteId]);
  return session;
}

const NO_SNAPSHOT = { state: 'connecting', stopReason: null, synced: false } as const;
const noop = () => () => {};

function NoteView({ note, session }: { note: NoteDto; session: Session | null }) {
  const me = useAuthStore((s) => s.user);
  const snapshot = useSyncExternalStore(
    session?.connection.subscribe ?? noop,
    session?.connection.getSnapshot ?? (() => NO_SNAPSHOT),
  );
  const [historyOpen, setHistoryOpen] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const navigate = useNavigate();
  const stopped = snapshot.state === 'stopped';
  // A viewer or a guest of the note's team reads it and changes nothing (issue 41; the server refuses their edits).
  const readOnly = !useWorkRights().canAddToTeam(note.teamId);
  const user = { id: me?.id ?? 'anonymous', name: me?.fullName ?? 'Someone', color: colorFor(me?.id ?? '') };

  // Tests and the perf probe read the editor from here.
  const onReady = useCallback((editor: Editor) => {
    (window as unknown as { __noteEditor?: Editor }).__noteEditor = editor;
  }, []);

  return (
    <div className="mx-auto max-w-4xl">
      <BackLink />
      <div className="mb-3 flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0 flex-1">
          <h1 className="sr-only">{note.title}</h1>
          <TitleInput note={note} disabled={stopped || readOnly} />
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">
            {note.teamName}
            {note.projectName && ` · ${note.projectName}`}
          </p>
        </div>
        <div className="flex shrink-0 flex-wrap items-center gap-2">
          <Button variant="secondary" size="sm" onClick={() => setHistoryOpen(true)}>
            <History className="h-4 w-4" aria-hidden />
            Version history
          </Button>
          {note.canDelete && (
            <Button variant="secondary" size="sm" onClick={() => setConfirmDelete(true)}>
              <Trash2 className="h-4 w-4" aria-hidden />
              Delete
            </Button>
          )}
        </div>
      </div>
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <ConnectionStatus snapshot={snapshot} />
        {session && <Presence awareness={session.connection.provider.awareness} selfId={user.id} />}
      </div>
      {session ? (
        <NoteEditor
          key={note.id}
          noteId={note.id}
          teamId={note.teamId}
          doc={session.doc}
          connection={session.connection}
          user={user}
          editable={!stopped && !readOnly}
          onReady={onReady}
        />
      ) : (
        <Spinner label="Opening the editor..." />
      )}
      {historyOpen && <VersionHistory noteId={note.id} canEdit={!stopped && !readOnly} onClose={() => setHistoryOpen(false)} />}
      <DeleteNoteDialog
        note={confirmDelete ? note : null}
        onClose={() => setConfirmDelete(false)}
        onDeleted={() => navigate('/notes', { replace: true })}
      />
    </div>
  );
}

/** The title, edited in place: saved on blur or Enter, Escape puts the saved one back. */
function TitleInput({ note, disabled }: { note: NoteDto; disabled: boolean }) {
  const [value, setValue] = useState(note.title);
  const update = useUpdateNote();
  useEffect(() => setValue(note.title), [note.title]);

  const save = async () => {
    const title = value.trim();
    if (title === note.title) return;
    if (!title) {
      setValue(note.title);
      toast.error('Title is required');
      return;
    }
    try {
      await update.mutateAsync({ id: note.id, title });
    } catch (error) {
      setValue(note.title);
      toastError(error, 'Failed to rename the note');
    }
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      e.currentTarget.blur();
    } else if (e.key === 'Escape') {
      setValue(note.title);
    }
  };
  return (
    <input
      aria-label="Note title"
      value={value}
      maxLength={200}
      disabled={disabled}
      onChange={(e) => setValue(e.target.value)}
      onBlur={() => void save()}
      onKeyDown={onKeyDown}
      className="-mx-2 w-full rounded-md border border-transparent bg-transparent px-2 py-1 text-2xl font-bold tracking-tight hover:border-slate-300 focus-visible:border-brand-600 dark:hover:border-slate-600"
    />
  );
}
