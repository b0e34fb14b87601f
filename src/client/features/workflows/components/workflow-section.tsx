import { DndContext } from '@dnd-kit/core';
import { Info } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import type { StatusDto } from '../../../../domain/schemas/workflow';
import { inWorkflowOrder, WORKFLOW_TEXT } from '../../../../domain/workflow';
import { SORTABLE_INSTRUCTIONS, useSortableList } from '../../../components/sortable-list';
import { Button } from '../../../components/ui/button';
import { PageSection } from '../../../components/ui/page-section';
import { useProjectStatuses } from '../../../lib/queries/statuses';
import { useStatusTaskCounts } from '../api/get-status-task-counts';
import { useReorderStatuses } from '../api/save-status';
import { WORKFLOW_MSG } from '../workflow-edit';
import { AddStatusForm } from './add-status-form';
import { DeleteStatusDialog } from './delete-status-dialog';
import { ReadOnlyStatusRow, StatusRow, WorkflowHeader } from './status-row';

export interface WorkflowSectionProps {
  projectId: string;
  /** The project's editors (canEditProject) change it; everyone else reads it. */
  canEdit: boolean;
}

/**
 * The project settings' 'Workflow' (issue 36): the project's statuses in board order, each edited in place, added,
 * reordered (drag by the grip, or Move up / Move down) and deleted (its tasks moved to another status first).
 */
export function WorkflowSection({ projectId, canEdit }: WorkflowSectionProps) {
  const headingId = useId();
  const query = useProjectStatuses(projectId);
  const counts = useStatusTaskCounts(projectId);
  const reorder = useReorderStatuses(projectId);
  const statuses = inWorkflowOrder(query.data ?? []);
  const [deleting, setDeleting] = useState<StatusDto | null>(null);
  const countOf = (s: StatusDto) => (counts.data ? (counts.data[s.key] ?? 0) : undefined);
  // Moves are taken while an order is being sent (they queue: useReorderStatuses), so the buttons never turn disabled
  // under the keyboard's focus.
  const sortable = useSortableList({
    items: statuses,
    nameOf: (s) => s.name,
    onReorder: (ids) => reorder.mutate(ids),
  });
  const listRef = useRef<HTMLOListElement>(null);

  return (
    <PageSection
      headingId={headingId}
      title={WORKFLOW_TEXT.workflow}
      description="The statuses of this project's tasks, in the board's order. A status's category is what it means to progress, the dashboard and analytics; its key, which the API and imports use, never changes."
    >
      {!canEdit && (
        <p className="flex items-start gap-2 rounded-lg border border-slate-200 bg-slate-50 px-3 py-2 text-sm text-slate-700 dark:border-slate-700 dark:bg-slate-800/60 dark:text-slate-200">
          <Info className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
          {WORKFLOW_MSG.readOnly}
        </p>
      )}
      {query.isPending ? (
        <div role="status" className="space-y-2">
          <span className="sr-only">Loading statuses…</span>
          {[0, 1, 2, 3].map((i) => (
            <div key={i} aria-hidden className="h-16 animate-pulse rounded-lg bg-slate-100 dark:bg-slate-800" />
          ))}
        </div>
      ) : query.isError ? (
        <div className="flex flex-wrap items-center gap-3 text-sm text-slate-700 dark:text-slate-200">
          <p>{WORKFLOW_MSG.loadFailed}</p>
          <Button variant="secondary" size="sm" onClick={() => void query.refetch()}>
            Try again
          </Button>
        </div>
      ) : canEdit ? (
        <DndContext sensors={sortable.sensors} onDragEnd={sortable.onDragEnd} accessibility={SORTABLE_INSTRUCTIONS}>
          <div className="@container space-y-2">
            <WorkflowHeader />
            {/* Focus comes here when the focused row is gone (deleted). */}
            <ol
              ref={(node) => {
                listRef.current = node;
                sortable.listRef(node);
              }}
              aria-label="Statuses"
              tabIndex={-1}
              className="space-y-2 rounded-lg"
            >
              {statuses.map((status, index) => (
                <StatusRow
                  key={status.id}
                  projectId={projectId}
                  status={status}
                  statuses={statuses}
                  taskCount={countOf(status)}
                  isFirst={index === 0}
                  isLast={index === statuses.length - 1}
                  canMove
                  onMove={(direction) => sortable.move(status, direction)}
                  onDelete={() => setDeleting(status)}
                />
              ))}
            </ol>
          </div>
        </DndContext>
      ) : (
        <ol aria-label="Statuses" className="space-y-2">
          {statuses.map((status) => (
            <ReadOnlyStatusRow key={status.id} status={status} taskCount={countOf(status)} />
          ))}
        </ol>
      )}
      {canEdit && query.isSuccess && (
        <AddStatusForm projectId={projectId} onAdded={(name) => sortable.setAnnouncement(`Added ${name} at the end`)} />
      )}
      {deleting && (
        <DeleteStatusDialog
          projectId={projectId}
          status={deleting}
          statuses={statuses}
          taskCount={countOf(deleting)}
          onDeleted={(name) => {
            sortable.setAnnouncement(`Deleted ${name}`);
            // After the dialog has closed (it gives focus back to its opener only while that is on the page).
            requestAnimationFrame(() => listRef.current?.focus());
          }}
          onClose={() => setDeleting(null)}
        />
      )}
      <p role="status" className="sr-only">
        {sortable.announcement}
      </p>
    </PageSection>
  );
}
