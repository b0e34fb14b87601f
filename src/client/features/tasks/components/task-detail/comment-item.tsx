import { useId, useMemo, useState } from 'react';
import type { CommentDto, PersonDto } from '../../../../../domain/schemas/task-detail';
import { Markdown } from '../../../../components/markdown';
import { Button } from '../../../../components/ui/button';
import { toastError } from '../../../../lib/errors';
import { useDeleteComment, useEditComment } from '../../api/save-comment';
import { actorName } from './activity-text';
import { CommentBox } from './comment-box';
import { mentionNames, toMentionDisplay } from './mentions';
import { PersonAvatar } from './person-avatar';
import { TimeAgo } from './time-ago';

export interface CommentItemProps {
  taskId: string;
  comment: CommentDto;
  canEdit: boolean;
  canDelete: boolean;
  people: readonly PersonDto[] | undefined;
}

/** One comment in the task's activity: author, avatar, time ('edited' when it was), the rendered body, and its actions. */
export function CommentItem({ taskId, comment, canEdit, canDelete, people }: CommentItemProps) {
  const nameId = useId();
  const [mode, setMode] = useState<'view' | 'edit' | 'confirm-delete'>('view');
  const edit = useEditComment(taskId);
  const remove = useDeleteComment(taskId);
  const names = useMemo(() => mentionNames(comment.mentions), [comment.mentions]);
  const author = actorName(comment.author);

  return (
    <article aria-labelledby={nameId} className="flex gap-3">
      <PersonAvatar person={comment.author} />
      <div className="min-w-0 flex-1 rounded-lg border border-slate-200 bg-white px-3 py-2 dark:border-slate-700 dark:bg-slate-900">
        <header className="flex flex-wrap items-baseline gap-x-2 gap-y-1 text-sm">
          <span id={nameId} className="font-semibold text-slate-900 dark:text-slate-100">
            {author}
          </span>
          <span className="text-xs text-slate-600 dark:text-slate-400">
            <TimeAgo at={comment.createdAt} />
            {comment.editedAt && (
              <>
                {' · '}
                <span title={`Edited ${new Date(comment.editedAt).toLocaleString()}`}>edited</span>
              </>
            )}
          </span>
          {mode === 'view' && (canEdit || canDelete) && (
            <span className="ml-auto flex gap-1">
              {canEdit && <CommentAction label="Edit" onClick={() => setMode('edit')} />}
              {canDelete && <CommentAction label="Delete" onClick={() => setMode('confirm-delete')} />}
            </span>
          )}
        </header>
        {mode === 'edit' ? (
          <div className="mt-2">
            <CommentBox
              label="Edit comment"
              srOnlyLabel
              submitLabel="Save"
              initialText={toMentionDisplay(comment.body, names)}
              initialPeople={comment.mentions}
              people={people}
              isSaving={edit.isPending}
              autoFocus
              onCancel={() => setMode('view')}
              onSave={(input) =>
                edit.mutateAsync({ id: comment.id, input }).then(
                  () => {
                    setMode('view');
                    return true;
                  },
                  (error: unknown) => {
                    toastError(error, 'Failed to save the comment');
                    return false;
                  },
                )
              }
            />
          </div>
        ) : (
          <Markdown source={comment.body} mentions={names} className="mt-1" />
        )}
        {mode === 'confirm-delete' && (
          <div
            role="group"
            aria-label="Confirm deletion"
            className="mt-2 flex flex-wrap items-center gap-2 rounded-md bg-red-50 px-3 py-2 text-sm text-red-800 dark:bg-red-950/60 dark:text-red-200"
          >
            <span className="mr-auto">Delete this comment?</span>
            <Button variant="secondary" size="sm" onClick={() => setMode('view')}>
              Cancel
            </Button>
            <Button
              variant="danger"
              size="sm"
              isLoading={remove.isPending}
              autoFocus
              onClick={() =>
                remove.mutate(comment.id, {
                  onError: (error) => {
                    toastError(error, 'Failed to delete the comment');
                    setMode('view');
                  },
                })
              }
            >
              Yes, delete
            </Button>
          </div>
        )}
      </div>
    </article>
  );
}

/** Edit or Delete in a comment's header. */
function CommentAction({ label, onClick }: { label: 'Edit' | 'Delete'; onClick: () => void }) {
  return (
    <Button variant="ghost" size="sm" className="h-7 px-2 text-xs" aria-label={`${label} comment`} onClick={onClick}>
      {label}
    </Button>
  );
}
