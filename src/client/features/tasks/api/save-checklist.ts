import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  ChecklistDto,
  ChecklistItemDto,
  ChecklistItemInput,
  ChecklistItemUpdate,
} from '../../../../domain/schemas/task-detail';
import { api } from '../../../lib/api-client';
import { toastError } from '../../../lib/errors';
import { taskPartKeys } from './get-attachments';
import { invalidateTasks } from './prefetch-board';

export const addChecklistItem = (taskId: string, input: ChecklistItemInput) =>
  api.post<ChecklistItemDto>(`/api/tasks/${taskId}/checklist`, input);
export const updateChecklistItem = (taskId: string, id: string, input: ChecklistItemUpdate) =>
  api.patch<ChecklistItemDto>(`/api/tasks/${taskId}/checklist/${id}`, input);
export const deleteChecklistItem = (taskId: string, id: string) => api.delete(`/api/tasks/${taskId}/checklist/${id}`);
export const reorderChecklist = (taskId: string, ids: string[]) =>
  api.put<ChecklistDto>(`/api/tasks/${taskId}/checklist/order`, { ids });

/** An item added here that the server has not confirmed yet: shown, but not yet ticked, renamed or moved. */
export const PENDING_PREFIX = 'pending-';
export const isPendingItem = (item: Pick<ChecklistItemDto, 'id'>) => item.id.startsWith(PENDING_PREFIX);
let nextPending = 0;

type Change =
  | { kind: 'add'; title: string; pendingId: string }
  | { kind: 'update'; id: string; input: ChecklistItemUpdate }
  | { kind: 'delete'; id: string }
  | { kind: 'reorder'; ids: string[] };

const mutationKey = (taskId: string) => ['checklist', taskId] as const;

function apply(data: ChecklistDto, change: Change, taskId: string): ChecklistDto {
  switch (change.kind) {
    case 'add': {
      const position = Math.max(0, ...data.items.map((i) => i.position)) + 1;
      const item = {
        id: change.pendingId,
        taskId,
        title: change.title,
        done: false,
        position,
        createdAt: new Date().toISOString(),
      };
      return { items: [...data.items, item] };
    }
    case 'update':
      return { items: data.items.map((i) => (i.id === change.id ? { ...i, ...change.input } : i)) };
    case 'delete':
      return { items: data.items.filter((i) => i.id !== change.id) };
    case 'reorder': {
      const byId = new Map(data.items.map((i) => [i.id, i]));
      const ordered = change.ids.flatMap((id) => byId.get(id) ?? []);
      return { items: [...ordered, ...data.items.filter((i) => !change.ids.includes(i.id))] };
    }
  }
}

async function send(taskId: string, change: Change): Promise<ChecklistItemDto | ChecklistDto | undefined> {
  switch (change.kind) {
    case 'add':
      return addChecklistItem(taskId, { title: change.title });
    case 'update':
      return updateChecklistItem(taskId, change.id, change.input);
    case 'delete':
      await deleteChecklistItem(taskId, change.id);
      return undefined;
    case 'reorder':
      return reorderChecklist(taskId, change.ids);
  }
}

const FAILED: Record<Change['kind'], string> = {
  add: 'Failed to add the item',
  update: 'Failed to update the item',
  delete: 'Failed to delete the item',
  reorder: 'Failed to reorder the checklist',
};

/** Refresh the list (and the board's counts) once the last of a burst of changes is in, so none is overwritten. */
function settle(qc: QueryClient, taskId: string) {
  if (qc.isMutating({ mutationKey: mutationKey(taskId) }) <= 1) void invalidateTasks(qc);
}

/**
 * Every checklist change, optimistic: the list changes at once, synchronously (a snapshot taken first), so a second
 * key press right after the first already sees the first's result; the changes reach the server one at a time, in
 * order; the server's answer is written in; a failure restores the snapshot with a toast. The board's '2/5' follows
 * once the server has it.
 */
export function useChecklistChange(taskId: string) {
  const qc = useQueryClient();
  const key = taskPartKeys.checklist(taskId);
  const mutation = useMutation({
    mutationKey: mutationKey(taskId),
    // One at a time, in order: two quick moves must reach the server as made.
    scope: { id: `checklist:${taskId}` },
    mutationFn: ({ change }: { change: Change; snapshot?: ChecklistDto }) => send(taskId, change),
    onSuccess: (answer, { change }) => {
      // With more changes queued, their optimistic state is newer than this answer: only swap a new item's id in.
      const isLatest = qc.isMutating({ mutationKey: mutationKey(taskId) }) <= 1;
      qc.setQueryData<ChecklistDto>(key, (data) => {
        if (!data || !answer) return data;
        if (!isLatest && change.kind !== 'add') return data;
        if (change.kind === 'reorder') return answer as ChecklistDto;
        const saved = answer as ChecklistItemDto;
        const id = change.kind === 'add' ? change.pendingId : saved.id;
        return { items: data.items.map((i) => (i.id === id ? saved : i)) };
      });
    },
    onError: (error, { change, snapshot }) => {
      if (snapshot) qc.setQueryData(key, snapshot);
      toastError(error, FAILED[change.kind]);
    },
    onSettled: () => settle(qc, taskId),
  });
  const run = (change: Change) => {
    // Cancelling a refetch in flight puts back the data it started from, at once: write after it.
    void qc.cancelQueries({ queryKey: key });
    const snapshot = qc.getQueryData<ChecklistDto>(key);
    if (snapshot) qc.setQueryData<ChecklistDto>(key, apply(snapshot, change, taskId));
    mutation.mutate({ change, snapshot });
  };
  return {
    /** The list as it is now, optimistic changes included (newer than a render's copy right after a change). */
    current: (): ChecklistItemDto[] => qc.getQueryData<ChecklistDto>(key)?.items ?? [],
    add: (title: string) => run({ kind: 'add', title, pendingId: `${PENDING_PREFIX}${++nextPending}` }),
    update: (id: string, input: ChecklistItemUpdate) => run({ kind: 'update', id, input }),
    remove: (id: string) => run({ kind: 'delete', id }),
    reorder: (ids: string[]) => run({ kind: 'reorder', ids }),
  };
}
