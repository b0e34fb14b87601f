import { useQuery } from '@tanstack/react-query';
import { FileText, Pin, PinOff, Search, Trash2, X } from 'lucide-react';
import { useCallback, useState } from 'react';
import { Link } from 'react-router';
import { relativeTime } from '../../../../domain/dates';
import type { NoteDto, NoteListQuery } from '../../../../domain/schemas/note';
import { Button } from '../../../components/ui/button';
import { CreateButton } from '../../../components/ui/create-button';
import { EmptyState } from '../../../components/ui/empty-state';
import { named, OptionsSelect } from '../../../components/ui/options-select';
import { PageHeader } from '../../../components/ui/page-header';
import { SearchField } from '../../../components/ui/search-field';
import { Spinner } from '../../../components/ui/spinner';
import { cn } from '../../../lib/cn';
import { toastError } from '../../../lib/errors';
import { projectsQueryOptions } from '../../../lib/queries/projects';
import { teamsQueryOptions } from '../../../lib/queries/teams';
import { useUrlSearchBox } from '../../../lib/use-debounced-value';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useWorkRights } from '../../../lib/use-work-rights';
import { useOpenOnNewFlag, useUrlParams } from '../../../lib/use-url-params';
import { useNotes, useUpdateNote } from '../api/notes';
import { DeleteNoteDialog } from './delete-note-dialog';
import { NewNoteDialog } from './new-note-dialog';

/** Filters live in the URL so they survive a reload: ?team=&project=&q= */
function useNoteFilters() {
  const [params, setParams] = useUrlParams();
  const filters: NoteListQuery = {
    teamId: params.get('team') || undefined,
    projectId: params.get('project') || undefined,
    q: params.get('q')?.trim() || undefined,
  };
  const set = useCallback((changes: Record<string, string | undefined | null>) => setParams(changes), [setParams]);
  return { filters, rawQ: params.get('q') ?? '', set };
}

/** /notes: the notes of my teams, pinned first, then by last edit (issue 25). */
export function NotesPage() {
  useDocumentTitle('Notes');
  const { filters, rawQ, set } = useNoteFilters();
  const [search, setSearch] = useUrlSearchBox(rawQ, (q) => set({ q }));
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<NoteDto | null>(null);
  const notes = useNotes(filters);
  const teams = useQuery({ ...teamsQueryOptions(), select: (list) => list.map(({ id, name }) => ({ id, name })) });
  const projects = useQuery({ ...projectsQueryOptions({ teamId: filters.teamId }), enabled: Boolean(filters.teamId) });
  const openCreate = useCallback(() => setCreating(true), []);
  // A viewer or a guest of every team writes no notes (issue 41).
  const canCreate = useWorkRights().canAddToTeam();
  useOpenOnNewFlag(openCreate);
  const hasFilters = Boolean(filters.teamId || filters.projectId || filters.q);
  const now = new Date();

  const list = notes.data ?? [];
  return (
    <div className="space-y-6">
      <PageHeader
        title="Notes"
        subtitle="Your teams' documents: specs, meeting notes and runbooks, written together"
        actions={canCreate && <CreateButton onClick={openCreate}>New Note</CreateButton>}
      />

      <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <OptionsSelect
          label="Team"
          srOnlyLabel
          className="sm:w-52"
          emptyOption="All Teams"
          options={named(teams.data ?? [])}
          value={filters.teamId ?? ''}
          onChange={(e) => set({ team: e.target.value || undefined, project: null })}
        />
        <OptionsSelect
          label="Project"
          srOnlyLabel
          className="sm:w-52"
          emptyOption={filters.teamId ? 'All Projects' : 'Pick a team first'}
          disabled={!filters.teamId}
          options={named(projects.data ?? [])}
          value={filters.projectId ?? ''}
          onChange={(e) => set({ project: e.target.value || undefined })}
        />
        <SearchField
          label="Search notes"
          placeholder="Search notes..."
          value={search}
          onValueChange={setSearch}
          className="flex-1"
        />
        {(hasFilters || search) && (
          <Button
            variant="secondary"
            onClick={() => {
              setSearch('');
              set({ team: null, project: null, q: null });
            }}
          >
            <X className="h-4 w-4" aria-hidden />
            Clear Filters
          </Button>
        )}
      </div>

      {notes.isError ? (
        <EmptyState
          title="Failed to load notes"
          message="Check your connection and try again."
          action={
            <Button variant="secondary" onClick={() => void notes.refetch()}>
              Try again
            </Button>
          }
        />
      ) : notes.isPending ? (
        <Spinner label="Loading notes..." />
      ) : list.length === 0 && !hasFilters ? (
        <EmptyState
          icon={<FileText className="h-10 w-10" />}
          title="No notes yet"
          message="Write your team's specs, meeting notes and runbooks together, next to your tasks."
          action={canCreate && <CreateButton onClick={openCreate}>New Note</CreateButton>}
        />
      ) : list.length === 0 ? (
        <EmptyState
          icon={<Search className="h-10 w-10" />}
          title="No notes found"
          message="Try adjusting your search or filters"
        />
      ) : (
        <ul
          aria-label="Notes"
          className="divide-y divide-slate-200 overflow-hidden rounded-xl border border-slate-200 bg-white dark:divide-slate-700 dark:border-slate-700 dark:bg-slate-900"
        >
          {list.map((note) => (
            <NoteRow key={note.id} note={note} now={now} onDelete={() => setDeleting(note)} />
          ))}
        </ul>
      )}

      {creating && (
        <NewNoteDialog
          teams={teams.data ?? []}
          defaultTeamId={filters.teamId}
          defaultProjectId={filters.projectId}
          onClose={() => setCreating(false)}
        />
      )}
      <DeleteNoteDialog note={deleting} onClose={() => setDeleting(null)} />
    </div>
  );
}

/** The editor's chunk (Tiptap, Yjs), fetched when a note is about to be opened: a dynamic import, not a dependency. */
const prefetchEditor = () => {
  void import('./note-page').catch(() => {});
};

function NoteRow({ note, now, onDelete }: { note: NoteDto; now: Date; onDelete: () => void }) {
  const update = useUpdateNote();
  const togglePin = () =>
    update.mutate(
      { id: note.id, pinned: !note.pinned },
      { onError: (error) => toastError(error, note.pinned ? 'Failed to unpin the note' : 'Failed to pin the note') },
    );
  const edited = new Date(note.updatedAt);
  return (
    <li className="flex items-start gap-3 px-4 py-3">
      <FileText className="mt-0.5 h-5 w-5 shrink-0 text-slate-500 dark:text-slate-400" aria-hidden />
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center gap-x-2">
          <Link
            to={`/notes/${note.id}`}
            onPointerEnter={prefetchEditor}
            onFocus={prefetchEditor}
            className="truncate font-semibold text-slate-900 hover:text-brand-700 hover:underline dark:text-slate-100 dark:hover:text-indigo-300"
          >
            {note.title}
          </Link>
          {note.pinned && (
            <span className="inline-flex items-center gap-1 text-xs font-medium text-amber-800 dark:text-amber-200">
              <Pin className="h-3 w-3" aria-hidden />
              Pinned
            </span>
          )}
        </div>
        <p className="text-xs text-slate-600 dark:text-slate-300">
          {note.teamName}
          {note.projectName && ` · ${note.projectName}`}
        </p>
        {note.excerpt && (
          <p className="mt-1 line-clamp-2 whitespace-pre-line text-sm text-slate-700 dark:text-slate-200">{note.excerpt}</p>
        )}
        <p className="mt-1 text-xs text-slate-600 dark:text-slate-300">
          Edited{' '}
          <time dateTime={note.updatedAt} title={edited.toLocaleString()}>
            {relativeTime(edited, now).replace(/^Just now$/, 'just now')}
          </time>
          {note.lastEditedBy && ` by ${note.lastEditedBy.fullName}`}
        </p>
      </div>
      <div className="flex shrink-0 items-center gap-1">
        <button
          type="button"
          onClick={togglePin}
          aria-label={note.pinned ? 'Unpin note' : 'Pin note'}
          title={note.pinned ? 'Unpin note' : 'Pin note'}
          className={cn(
            'inline-flex h-9 w-9 items-center justify-center rounded-md hover:bg-slate-100 dark:hover:bg-slate-800',
            note.pinned ? 'text-amber-700 dark:text-amber-300' : 'text-slate-600 dark:text-slate-300',
          )}
        >
          {note.pinned ? <PinOff className="h-4 w-4" aria-hidden /> : <Pin className="h-4 w-4" aria-hidden />}
        </button>
        {note.canDelete && (
          <button
            type="button"
            onClick={onDelete}
            aria-label={`Delete ${note.title}`}
            title="Delete note"
            className="inline-flex h-9 w-9 items-center justify-center rounded-md text-slate-600 hover:bg-red-50 hover:text-red-700 dark:text-slate-300 dark:hover:bg-red-950 dark:hover:text-red-300"
          >
            <Trash2 className="h-4 w-4" aria-hidden />
          </button>
        )}
      </div>
    </li>
  );
}
