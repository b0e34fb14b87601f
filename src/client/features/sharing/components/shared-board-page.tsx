import { CheckSquare, GitBranch, User } from 'lucide-react';
import { type ComponentType, lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { useParams } from 'react-router';
import { priorityTone, TASK_PRIORITY_LABELS } from '../../../../domain/constants';
import { formatShortDate } from '../../../../domain/dates';
import { SHARE_NOT_FOUND } from '../../../../domain/outside-texts';
import type { SharedBoardDto, SharedCardDto } from '../../../../domain/schemas/outside';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Logo } from '../../../components/ui/logo';
import { Spinner } from '../../../components/ui/spinner';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { backoffDelay } from '../../../lib/sse';
import { followSharedBoard } from '../shared-board-stream';
import { SHARE_TEXT as T } from './share-texts';

// Descriptions are Markdown, rendered by the app's sanitizing renderer: its chunk loads only when a card has one.
const Markdown = lazy(() => import('../../../components/markdown').then((m) => ({ default: m.Markdown })));

type Load = { kind: 'loading' } | { kind: 'ready'; board: SharedBoardDto } | { kind: 'gone' } | { kind: 'failed' };

/** `<meta name="robots" content="noindex">` while the page is shown (the server also sends X-Robots-Tag). */
function useNoIndex() {
  useEffect(() => {
    const meta = document.createElement('meta');
    meta.name = 'robots';
    meta.content = 'noindex';
    document.head.appendChild(meta);
    return () => meta.remove();
  }, []);
}

/**
 * /share/:token (issue 40): a project's board, read-only, for anyone with the link, signed in or not. Read with plain
 * fetch (no session, no query cache: this page loads without the app shell), and again on each `changed` of its
 * event stream. A link turned off or reset shows SHARE_NOT_FOUND.
 */
export function SharedBoardPage() {
  const { token = '' } = useParams();
  const [load, setLoad] = useState<Load>({ kind: 'loading' });
  useNoIndex();
  useDocumentTitle(load.kind === 'ready' ? load.board.project.name : load.kind === 'gone' ? 'Link not found' : 'Shared board');

  // One read at a time; a change during a read asks for one more after it. A refresh that failed (429 from a busy
  // address, a network break) keeps the board shown and is tried again after a growing wait, not at the next change.
  const reading = useRef<{
    busy: boolean;
    again: boolean;
    failures: number;
    stopped: boolean;
    retry?: ReturnType<typeof setTimeout>;
  }>({ busy: false, again: false, failures: 0, stopped: false });
  const read = useCallback(async () => {
    const r = reading.current;
    if (r.busy) {
      r.again = true;
      return;
    }
    r.busy = true;
    clearTimeout(r.retry);
    let failed = false;
    try {
      do {
        r.again = false;
        failed = false;
        try {
          const res = await fetch(`/api/share/${encodeURIComponent(token)}`, {
            headers: { accept: 'application/json' },
            cache: 'no-store',
          });
          if (res.status === 404 || res.status === 400) setLoad({ kind: 'gone' });
          else if (res.ok) setLoad({ kind: 'ready', board: (await res.json()) as SharedBoardDto });
          else failed = true;
        } catch {
          failed = true;
        }
        // A failed first read says so (with 'Try again'); a failed refresh keeps the board.
        if (failed) setLoad((l) => (l.kind === 'ready' ? l : { kind: 'failed' }));
      } while (r.again);
    } finally {
      r.busy = false;
    }
    r.failures = failed ? r.failures + 1 : 0;
    if (failed && !r.stopped) r.retry = setTimeout(() => void read(), backoffDelay(r.failures + 2));
  }, [token]);

  useEffect(() => {
    reading.current.stopped = false;
    void read();
    const abort = new AbortController();
    void followSharedBoard(token, { onChanged: () => void read(), onGone: () => setLoad({ kind: 'gone' }) }, abort.signal);
    const r = reading.current;
    return () => {
      abort.abort();
      r.stopped = true;
      clearTimeout(r.retry);
    };
  }, [token, read]);

  return (
    <div className="flex min-h-screen flex-col bg-slate-50 text-slate-900 dark:bg-slate-950 dark:text-slate-100">
      <header className="border-b border-slate-200 bg-white px-4 py-3 sm:px-6 dark:border-slate-800 dark:bg-slate-900">
        <Logo />
      </header>
      <main id="main" className="flex-1 px-4 py-6 sm:px-6">
        {load.kind === 'loading' ? (
          <Spinner label={T.loading} />
        ) : load.kind === 'gone' ? (
          <div className="mx-auto mt-16 max-w-md rounded-xl border border-dashed border-slate-300 px-6 py-12 text-center dark:border-slate-700">
            <h1 className="text-lg font-semibold">{SHARE_NOT_FOUND}</h1>
          </div>
        ) : load.kind === 'failed' ? (
          <div className="mx-auto mt-16 max-w-md text-center">
            <h1 className="text-lg font-semibold">{T.loadBoardFailed}</h1>
            <Button
              className="mt-4"
              variant="secondary"
              onClick={() => {
                setLoad({ kind: 'loading' });
                void read();
              }}
            >
              {T.retry}
            </Button>
          </div>
        ) : (
          <Board board={load.board} />
        )}
      </main>
      <footer className="px-4 pb-4 text-xs text-slate-600 sm:px-6 dark:text-slate-300">{T.poweredBy}</footer>
    </div>
  );
}

function Board({ board }: { board: SharedBoardDto }) {
  return (
    <>
      <div className="mb-5">
        <h1 className="text-2xl font-bold tracking-tight">{board.project.name}</h1>
        <p className="text-sm text-slate-600 dark:text-slate-300">{T.readOnly}</p>
      </div>
      {/* Side by side from the small breakpoint (scrolling sideways, reachable by keyboard); stacked below it. */}
      <section
        aria-label={board.project.name}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard (WCAG 2.1.1)
        tabIndex={0}
        className="flex flex-col gap-4 rounded-lg pb-2 sm:flex-row sm:items-start sm:overflow-x-auto"
      >
        {board.columns.map((column) => {
          const cards = board.tasks.filter((t) => t.status === column.key);
          return (
            <section
              key={column.key}
              aria-label={column.name}
              className="flex w-full shrink-0 flex-col rounded-xl bg-slate-100 p-3 sm:w-72 dark:bg-slate-900"
            >
              <h2 className="mb-3 flex items-center gap-2 text-sm font-semibold">
                <span aria-hidden className="h-2.5 w-2.5 rounded-full" style={{ backgroundColor: column.color }} />
                <span>{column.name}</span>
                <span className="ml-auto rounded-full bg-white px-2 text-xs font-medium text-slate-700 dark:bg-slate-800 dark:text-slate-200">
                  <span className="sr-only">, </span>
                  {cards.length}
                  <span className="sr-only"> {cards.length === 1 ? 'task' : 'tasks'}</span>
                </span>
              </h2>
              {cards.length === 0 ? (
                <p className="px-1 py-2 text-sm text-slate-600 dark:text-slate-300">{T.empty}</p>
              ) : (
                <ul className="space-y-2">
                  {cards.map((card) => (
                    <li key={card.id}>
                      <Card card={card} showPeople={board.showPeople} />
                    </li>
                  ))}
                </ul>
              )}
            </section>
          );
        })}
      </section>
    </>
  );
}

function Card({ card, showPeople }: { card: SharedCardDto; showPeople: boolean }) {
  return (
    <article className="rounded-lg border border-slate-200 bg-white p-3 shadow-sm dark:border-slate-700 dark:bg-slate-800">
      <h3 className="text-sm font-medium break-words">{card.title}</h3>
      <div className="mt-2 flex flex-wrap items-center gap-2 text-xs text-slate-700 dark:text-slate-200">
        <Badge tone={priorityTone(card.priority)}>{TASK_PRIORITY_LABELS[card.priority]}</Badge>
        {card.dueDate && (
          <span>
            {T.due} <time dateTime={card.dueDate}>{formatShortDate(card.dueDate)}</time>
          </span>
        )}
        <Progress icon={CheckSquare} label={T.checklist} {...card.checklist} />
        <Progress icon={GitBranch} label={T.subtasks} {...card.subtasks} />
      </div>
      {card.tags.length > 0 && (
        <ul className="mt-2 flex flex-wrap gap-1" aria-label={T.tags}>
          {card.tags.map((tag) => (
            <li
              key={tag}
              className="rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-700 dark:bg-slate-700 dark:text-slate-100"
            >
              {tag}
            </li>
          ))}
        </ul>
      )}
      {card.description && (
        <Suspense fallback={null}>
          <Markdown source={card.description} className="mt-2 text-sm" />
        </Suspense>
      )}
      {showPeople && (
        <p className="mt-2 inline-flex items-center gap-1 text-xs text-slate-700 dark:text-slate-200">
          <User className="h-3.5 w-3.5" aria-hidden />
          {card.assigneeName ?? T.unassigned}
        </p>
      )}
    </article>
  );
}

/** A card's checklist or sub-task progress ('Checklist: 1/3' to a screen reader), when it has any. */
function Progress({
  icon: Icon,
  label,
  done,
  total,
}: {
  icon: ComponentType<{ className?: string; 'aria-hidden'?: boolean }>;
  label: string;
  done: number;
  total: number;
}) {
  if (total === 0) return null;
  return (
    <span className="inline-flex items-center gap-1" title={label}>
      <Icon className="h-3.5 w-3.5" aria-hidden />
      <span className="sr-only">{label}: </span>
      {done}/{total}
    </span>
  );
}
