import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  CreateNoteInput,
  NoteDto,
  NoteListDto,
  NoteListQuery,
  NoteSocketTicketDto,
  NoteVersionDetailDto,
  NoteVersionDto,
  NoteVersionListDto,
  UpdateNoteInput,
} from '../../../../domain/schemas/note';
import { api } from '../../../lib/api-client';
import { isError } from '../../../lib/errors';
import { noteKeys } from './note-keys';

/** GET /api/notes: the caller's teams' notes, pinned first, then by last edit (ordered and filtered on the server). */
export const getNotes = (filters: NoteListQuery, signal?: AbortSignal) =>
  api.get<NoteListDto>('/api/notes', { query: { ...filters }, signal }).then((r) => r.notes);

export const notesQueryOptions = (filters: NoteListQuery) =>
  queryOptions({ queryKey: noteKeys.list(filters), queryFn: ({ signal }) => getNotes(filters, signal) });

export const useNotes = (filters: NoteListQuery) => useQuery(notesQueryOptions(filters));

export const getNote = (id: string, signal?: AbortSignal) => api.get<NoteDto>(`/api/notes/${id}`, { signal });

export const useNote = (id: string) =>
  useQuery({
    queryKey: noteKeys.detail(id),
    queryFn: ({ signal }) => getNote(id, signal),
    // A 404 is an answer (the "Note not found" state), not a hiccup to retry.
    retry: (count, error) => count < 2 && !isError(error, 'not_found'),
  });

export const createNote = (input: CreateNoteInput) => api.post<NoteDto>('/api/notes', input);

export function useCreateNote() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: createNote,
    onSuccess: (note) => {
      qc.setQueryData(noteKeys.detail(note.id), note);
      void qc.invalidateQueries({ queryKey: noteKeys.lists() });
    },
  });
}

export const updateNote = ({ id, ...input }: UpdateNoteInput & { id: string }) => api.patch<NoteDto>(`/api/notes/${id}`, input);

/** PATCH a note (title, pin): the list shows a pin at once and rolls back if the server refuses. */
export function useUpdateNote() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: updateNote,
    onMutate: async ({ id, ...change }) => {
      await qc.cancelQueries({ queryKey: noteKeys.lists() });
      const lists = qc.getQueriesData<NoteDto[]>({ queryKey: noteKeys.lists() });
      for (const [key, notes] of lists) {
        if (notes)
          qc.setQueryData(
            key,
            notes.map((n) => (n.id === id ? { ...n, ...definedOnly(change) } : n)),
          );
      }
      return { lists };
    },
    onError: (_error, _input, context) => {
      for (const [key, notes] of context?.lists ?? []) qc.setQueryData(key, notes);
    },
    onSuccess: (note) => qc.setQueryData(noteKeys.detail(note.id), note),
    onSettled: () => qc.invalidateQueries({ queryKey: noteKeys.lists() }),
  });
}

const definedOnly = <T extends object>(o: T): Partial<T> =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;

export const deleteNote = (id: string) => api.delete(`/api/notes/${id}`);

export function useDeleteNote() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: deleteNote,
    onSuccess: (_r, id) => {
      qc.removeQueries({ queryKey: noteKeys.detail(id) });
      void qc.invalidateQueries({ queryKey: noteKeys.lists() });
    },
  });
}

/** A short-lived ticket that opens the note's socket (the bearer token never goes into a URL). */
export const getSocketTicket = (id: string) => api.post<NoteSocketTicketDto>(`/api/notes/${id}/socket-ticket`);

export const getVersions = (id: string, signal?: AbortSignal) =>
  api.get<NoteVersionListDto>(`/api/notes/${id}/versions`, { signal }).then((r) => r.versions);

export const useVersions = (id: string, enabled: boolean) =>
  useQuery({ queryKey: noteKeys.versions(id), queryFn: ({ signal }) => getVersions(id, signal), enabled });

export const getVersion = (id: string, versionId: string, signal?: AbortSignal) =>
  api.get<NoteVersionDetailDto>(`/api/notes/${id}/versions/${versionId}`, { signal });

export const useVersion = (id: string, versionId: string | null) =>
  useQuery({
    queryKey: noteKeys.version(id, versionId ?? ''),
    queryFn: ({ signal }) => getVersion(id, versionId!, signal),
    enabled: versionId !== null,
    // A version never changes.
    staleTime: Number.POSITIVE_INFINITY,
  });

export function useSaveVersion(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<NoteVersionDto>(`/api/notes/${id}/versions`),
    onSettled: () => qc.invalidateQueries({ queryKey: noteKeys.versions(id) }),
  });
}

export function useRestoreVersion(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (versionId: string) => api.post<unknown>(`/api/notes/${id}/versions/${versionId}/restore`),
    onSettled: () => qc.invalidateQueries({ queryKey: noteKeys.versions(id) }),
  });
}
