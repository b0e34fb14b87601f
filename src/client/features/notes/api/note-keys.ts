import type { NoteListQuery } from '../../../../domain/schemas/note';
import { rootKey } from '../../../lib/query-keys';

/**
 * The notes feature's query keys. Realtime refreshes the 'notes' root on note.created/updated/deleted; a task chip's
 * query lives under 'tasks' instead, so that the task events refresh the chips' live titles and statuses.
 */
export const noteKeys = {
  all: rootKey('notes'),
  lists: () => [...noteKeys.all, 'list'] as const,
  list: (filters: NoteListQuery) => [...noteKeys.lists(), filters] as const,
  detail: (id: string) => [...noteKeys.all, 'detail', id] as const,
  versions: (id: string) => [...noteKeys.all, 'versions', id] as const,
  version: (id: string, versionId: string) => [...noteKeys.versions(id), versionId] as const,
  /** A task linked from a note (its chip): under the tasks root. */
  taskChip: (taskId: string) => [...rootKey('tasks'), 'note-chip', taskId] as const,
};
