import { Eye, EyeOff } from 'lucide-react';
import { type ReactNode, useId, useMemo, useRef } from 'react';
import { canDeleteComment, canEditComment, type MemberRole } from '../../../../../domain/permissions';
import type { ActivityDto, ActivityListDto, CommentDto, PersonDto } from '../../../../../domain/schemas/task-detail';
import { Button } from '../../../../components/ui/button';
import { toastError } from '../../../../lib/errors';
import { useAuthStore } from '../../../../stores/auth-store';
import { useActivity } from '../../api/get-activity';
import { useComments, useMentionable } from '../../api/get-comments';
import { useAddComment } from '../../api/save-comment';
import { useSetWatching, useWatchState } from '../../api/watch-task';
import { actorName, describeActivity } from './activity-text';
import { CommentBox } from './comment-box';
import { CommentItem } from './comment-item';
import { PersonAvatar } from './person-avatar';
import { TimeAgo } from './time-ago';

const TEXT = {
  commentFailed: 'Failed to add the comment',
  commentsFailed: 'Failed to load comments',
  historyFailed: 'Failed to load the history',
  watchFailed: 'Failed to change watching',
};

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

function SectionHeading({ id, children, count }: { id: string; children: ReactNode; count?: number }) {
  return (
    <h3 id={id} className="text-base font-semibold text-slate-900 dark:text-slate-100">
      {children}
      {count ? ' ' : null}
      {count ? <span className="ml-1 text-sm font-normal text-slate-600 dark:text-slate-300">({count})</span> : null}
    </h3>
  );
}

/** The 'Comments' section: the box to write one (with @mentions). The comments themselves are in the activity. */
export function CommentsSection({ taskId }: { taskId: string }) {
  const headingId = useId();
  const comments = useComments(taskId);
  const people = useMentionable(taskId);
  const add = useAddComment(taskId);
  const box = useRef<HTMLTextAreaElement>(null);
  const count = comments.data?.length ?? 0;
  return (
    <section aria-labelledby={headingId} className="space-y-2">
      <SectionHeading id={headingId} count={count}>
        Comments
      </SectionHeading>
      <CommentBox
        label="Add a comment"
        submitLabel="Comment"
        people={people.data}
        isSaving={add.isPending}
        textareaRef={box}
        hint={`${isMac ? '⌘' : 'Ctrl'}+Enter to send · Markdown and @mentions`}
        onSave={(input) =>
          add.mutateAsync(input).then(
            () => true,
            (error: unknown) => {
              toastError(error, TEXT.commentFailed);
              return false;
            },
          )
        }
      />
    </section>
  );
}

type FeedItem =
  | { kind: 'comment'; at: string; key: string; comment: CommentDto }
  | { kind: 'change'; at: string; key: string; entry: ActivityDto }
  | { kind: 'created'; at: string; key: string; by: PersonDto | null };

/** Comments and history in one list, newest first (the creation last). */
function feedOf(comments: readonly CommentDto[] | undefined, history: ActivityListDto | undefined): FeedItem[] {
  const items: FeedItem[] = [
    ...(comments ?? []).map((comment) => ({ kind: 'comment' as const, at: comment.createdAt, key: `c${comment.id}`, comment })),
    ...(history?.activity ?? []).map((entry) => ({ kind: 'change' as const, at: entry.createdAt, key: `a${entry.id}`, entry })),
  ];
  items.sort((a, b) => Date.parse(b.at) - Date.parse(a.at));
  if (history) items.push({ kind: 'created', at: history.created.at, key: 'created', by: history.created.by });
  return items;
}

export interface ActivitySectionProps {
  taskId: string;
  /** My role in the task's team (owners and admins may delete any comment). */
  role: MemberRole;
}

/** The 'Activity' section: watching, then the comments interleaved with the task's history, newest first. */
export function ActivitySection({ taskId, role }: ActivitySectionProps) {
  const headingId = useId();
  const userId = useAuthStore((s) => s.user?.id ?? '');
  const comments = useComments(taskId);
  const history = useActivity(taskId);
  const people = useMentionable(taskId);
  const feed = useMemo(() => feedOf(comments.data, history.data), [comments.data, history.data]);

  return (
    <section aria-labelledby={headingId} className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <SectionHeading id={headingId}>Activity</SectionHeading>
        <WatchButton taskId={taskId} />
      </div>
      {comments.isError && <LoadError text={TEXT.commentsFailed} onRetry={() => void comments.refetch()} />}
      {history.isError && <LoadError text={TEXT.historyFailed} onRetry={() => void history.refetch()} />}
      {comments.isPending || history.isPending ? (
        <div className="space-y-3" role="status" aria-busy="true">
          <span className="sr-only">Loading activity...</span>
          {[0, 1].map((i) => (
            <div key={i} className="flex animate-pulse gap-3">
              <div className="h-8 w-8 rounded-full bg-slate-200 dark:bg-slate-700" />
              <div className="h-14 flex-1 rounded-lg bg-slate-100 dark:bg-slate-800" />
            </div>
          ))}
        </div>
      ) : null}
      {feed.length > 0 && (
        <ol className="space-y-3" aria-labelledby={headingId}>
          {feed.map((item) => (
            <li key={item.key}>
              {item.kind === 'comment' ? (
                <CommentItem
                  taskId={taskId}
                  comment={item.comment}
                  people={people.data}
                  canEdit={canEditComment(userId, { authorId: item.comment.author?.id ?? null })}
                  canDelete={canDeleteComment(role, userId, { authorId: item.comment.author?.id ?? null })}
                />
              ) : (
                <HistoryLine
                  person={item.kind === 'created' ? item.by : item.entry.actor}
                  text={item.kind === 'created' ? 'created this task' : describeActivity(item.entry)}
                  at={item.at}
                  // Issue 40: 'Submitted via Bug reports by jane@example.com' is a whole line, by nobody signed in.
                  whole={item.kind !== 'created' && item.entry.field === 'submitted' && !item.entry.actor}
                />
              )}
            </li>
          ))}
        </ol>
      )}
      {!comments.isPending && !history.isPending && comments.data?.length === 0 && (
        <p className="text-sm text-slate-600 dark:text-slate-400">No comments yet.</p>
      )}
    </section>
  );
}

/** 'Alex moved this from To Do to In Progress · 2 hours ago' */
function HistoryLine({ person, text, at, whole }: { person: PersonDto | null; text: string; at: string; whole?: boolean }) {
  return (
    <p className="flex items-start gap-3 text-sm text-slate-700 dark:text-slate-300">
      <PersonAvatar person={person} className="h-6 w-6 text-[0.65rem] mx-1" />
      <span className="min-w-0 pt-0.5">
        {whole ? (
          text
        ) : (
          <>
            <span className="font-medium text-slate-900 dark:text-slate-100">{actorName(person)}</span> {text}
          </>
        )}
        <span className="text-slate-600 dark:text-slate-400">
          {' · '}
          <TimeAgo at={at} />
        </span>
      </span>
    </p>
  );
}

function LoadError({ text, onRetry }: { text: string; onRetry: () => void }) {
  return (
    <div className="flex items-center justify-between gap-2 rounded-lg border border-red-200 px-3 py-2 text-sm text-red-800 dark:border-red-900 dark:text-red-300">
      <span>{text}</span>
      <Button variant="secondary" size="sm" onClick={onRetry}>
        Retry
      </Button>
    </div>
  );
}

/** Watch / Unwatch, with how many watch; the names on hover. */
function WatchButton({ taskId }: { taskId: string }) {
  const state = useWatchState(taskId);
  const set = useSetWatching(taskId);
  if (!state.data) return null;
  const { watching, watchers } = state.data;
  const count = watchers.length;
  const names = watchers.map((w) => w.fullName).join(', ');
  const action = watching ? 'Unwatch' : 'Watch';
  return (
    <Button
      variant="secondary"
      size="sm"
      isLoading={set.isPending}
      aria-label={`${action} (${count} ${count === 1 ? 'watcher' : 'watchers'})`}
      title={count ? `Watching: ${names}` : 'Nobody watches this task'}
      onClick={() => set.mutate(!watching, { onError: (error) => toastError(error, TEXT.watchFailed) })}
    >
      {watching ? <EyeOff className="h-4 w-4" aria-hidden /> : <Eye className="h-4 w-4" aria-hidden />}
      {action}
      <span className="rounded-full bg-slate-100 px-1.5 text-xs font-semibold text-slate-700 dark:bg-slate-700 dark:text-slate-100">
        {count}
      </span>
    </Button>
  );
}
