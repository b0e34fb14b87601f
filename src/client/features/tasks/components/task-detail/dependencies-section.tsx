import { X } from 'lucide-react';
import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { DEPENDENCY_TEXT } from '../../../../../domain/dependencies';
import type { DependencyRef } from '../../../../../domain/schemas/dependencies';
import type { TaskDto } from '../../../../../domain/schemas/task';
import { RowIconButton } from '../../../../components/sortable-list';
import { TaskStatusChip, useOwnStatus } from '../../../../components/task-visuals';
import { Button } from '../../../../components/ui/button';
import { inputClass } from '../../../../components/ui/field';
import { ApiError } from '../../../../lib/api-client';
import { cn } from '../../../../lib/cn';
import { errorText, isError, toastError } from '../../../../lib/errors';
import { useDebouncedValue } from '../../../../lib/use-debounced-value';
import { useTaskProjects } from '../../api/get-projects';
import { useDependencies, useDependencyChange, useDependencySearch } from '../../api/task-dependencies';
import { TaskLink } from './task-link';

export interface DependenciesSectionProps {
  task: Pick<TaskDto, 'id' | 'projectId' | 'title'>;
}

/**
 * The task's dependencies (issue 37): 'Blocked by' and 'Blocking', each task a link with its status ('Canceled' beside a
 * canceled blocker, which still blocks until removed), a task the reader may not see as 'A task in another project'
 * without a link, a remove button per row, and 'Add dependency': a search of the team's tasks by title.
 */
export function DependenciesSection({ task }: DependenciesSectionProps) {
  const headingId = useId();
  const { data, isPending, isError: failed, refetch } = useDependencies(task.id);
  const change = useDependencyChange(task.id);
  const [announcement, setAnnouncement] = useState('');
  const blockedBy = data?.blockedBy ?? [];
  const blocking = data?.blocking ?? [];
  // Its blockers are not offered again; a task it blocks is (the server refuses the cycle, naming it).
  const linked = new Set(blockedBy.flatMap((r) => (r.id ? [r.id] : [])));

  const remove = (blocked: string, blocker: string, title: string) =>
    change.remove.mutate(
      { taskId: blocked, blockerId: blocker },
      {
        onSuccess: () => setAnnouncement(`Removed the dependency on ${title}`),
        onError: (error) => toastError(error, 'Failed to remove the dependency'),
      },
    );

  return (
    <section aria-labelledby={headingId} className="space-y-3" data-testid="dependencies-section">
      <h3 id={headingId} className="text-base font-semibold text-slate-900 dark:text-slate-100">
        Dependencies
      </h3>
      {isPending ? (
        <div role="status" className="h-4 w-1/2 animate-pulse rounded bg-slate-200 dark:bg-slate-700">
          <span className="sr-only">Loading dependencies…</span>
        </div>
      ) : failed ? (
        <div className="flex items-center gap-3 text-sm text-slate-700 dark:text-slate-200">
          <p>Could not load the dependencies.</p>
          <Button variant="secondary" size="sm" onClick={() => void refetch()}>
            Retry
          </Button>
        </div>
      ) : (
        <>
          <RefList
            label={DEPENDENCY_TEXT.blockedBy}
            refs={blockedBy}
            isBlocker
            onRemove={(ref) => remove(task.id, ref.id, ref.title)}
          />
          <RefList label={DEPENDENCY_TEXT.blocking} refs={blocking} onRemove={(ref) => remove(ref.id, task.id, ref.title)} />
        </>
      )}
      <AddDependency
        task={task}
        exclude={linked}
        onAdded={(title) => setAnnouncement(`${task.title} is now blocked by ${title}`)}
      />
      <p role="status" className="sr-only">
        {announcement}
      </p>
    </section>
  );
}

type VisibleRef = Extract<DependencyRef, { id: string }>;

function RefList({
  label,
  refs,
  isBlocker,
  onRemove,
}: {
  label: string;
  refs: DependencyRef[];
  isBlocker?: boolean;
  onRemove: (ref: VisibleRef) => void;
}) {
  const labelId = useId();
  return (
    <div className="space-y-1">
      <h4 id={labelId} className="text-sm font-medium text-slate-700 dark:text-slate-200">
        {label}
      </h4>
      {refs.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-300">None</p>
      ) : (
        <ul aria-labelledby={labelId} className="space-y-1">
          {refs.map((ref, i) =>
            ref.id === null ? (
              // biome-ignore lint/suspicious/noArrayIndexKey: a hidden task has no id, only its place in the list
              <li key={`hidden-${i}`} className="px-1 py-1 text-sm italic text-slate-600 dark:text-slate-300">
                {DEPENDENCY_TEXT.hiddenTask}
              </li>
            ) : (
              <RefRow key={ref.id} item={ref as VisibleRef} listLabel={label} isBlocker={isBlocker} onRemove={onRemove} />
            ),
          )}
        </ul>
      )}
    </div>
  );
}

function RefRow({
  item,
  listLabel,
  isBlocker,
  onRemove,
}: {
  item: VisibleRef;
  listLabel: string;
  isBlocker?: boolean;
  onRemove: (ref: VisibleRef) => void;
}) {
  const own = useOwnStatus(item);
  // 'Canceled' beside a canceled blocker (it still blocks), unless its status is already called that.
  const showCanceled = isBlocker && item.statusCategory === 'canceled' && own?.name.toLowerCase() !== 'canceled';
  return (
    <li className="flex flex-wrap items-center gap-x-2 gap-y-1 rounded-md px-1 py-1 hover:bg-slate-50 dark:hover:bg-slate-800/60">
      <TaskLink taskId={item.id} className="min-w-0 flex-1 basis-32 text-sm">
        {item.title}
      </TaskLink>
      <span className="flex shrink-0 items-center gap-2">
        <TaskStatusChip task={item} />
        {showCanceled && (
          <span
            className="text-xs font-medium text-slate-700 dark:text-slate-200"
            title="A canceled task still blocks until removed"
          >
            Canceled
          </span>
        )}
        <RowIconButton label={`Remove ${item.title} from ${listLabel}`} hint="Remove dependency" onClick={() => onRemove(item)}>
          <X className="h-3.5 w-3.5" aria-hidden />
        </RowIconButton>
      </span>
    </li>
  );
}

/**
 * 'Add dependency': a combobox over the team's tasks by title (the list route's search). Arrow keys move through the
 * matches, Enter picks one (this task becomes blocked by it), Escape closes the list. A refusal is told under it, a
 * cycle in the server's words (they name the cycle's tasks).
 */
function AddDependency({
  task,
  exclude,
  onAdded,
}: {
  task: DependenciesSectionProps['task'];
  exclude: ReadonlySet<string>;
  onAdded: (title: string) => void;
}) {
  const id = useId();
  const listId = `${id}-list`;
  const errorId = `${id}-error`;
  const inputRef = useRef<HTMLInputElement>(null);
  const [q, setQ] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const teamId = useTaskProjects().data?.find((p) => p.id === task.projectId)?.teamId;
  const search = useDebouncedValue(q.trim());
  const results = useDependencySearch(teamId, search);
  const { add } = useDependencyChange(task.id);
  const options = (results.data ?? []).filter((t) => t.id !== task.id && !exclude.has(t.id));
  const isOpen = open && q.trim().length > 0;
  const activeOption = options[Math.min(active, options.length - 1)];
  const hasList = isOpen && options.length > 0;

  // Escape closes the list, not the dialog: the dialog listens on the document in the capture phase, so this listens
  // before it, on the window.
  useEffect(() => {
    if (!isOpen) return;
    const onKeyDown = (e: globalThis.KeyboardEvent) => {
      if (e.key !== 'Escape' || e.target !== inputRef.current) return;
      e.stopPropagation();
      e.preventDefault();
      setOpen(false);
    };
    window.addEventListener('keydown', onKeyDown, { capture: true });
    return () => window.removeEventListener('keydown', onKeyDown, { capture: true });
  }, [isOpen]);

  const pick = (option: TaskDto) => {
    if (add.isPending) return;
    setOpen(false);
    setError(null);
    add.mutate(option.id, {
      onSuccess: () => {
        setQ('');
        onAdded(option.title);
      },
      onError: (e) =>
        setError(
          isError(e, 'dependency_cycle') && e instanceof ApiError ? e.message : errorText(e, 'Failed to add the dependency'),
        ),
    });
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      setOpen(true);
      if (options.length === 0) return;
      const step = e.key === 'ArrowDown' ? 1 : -1;
      setActive((a) => (Math.min(a, options.length - 1) + step + options.length) % options.length);
    } else if (e.key === 'Enter') {
      // Never submits the task form around it.
      e.preventDefault();
      if (isOpen && activeOption) pick(activeOption);
    }
  };

  return (
    <div className="relative space-y-1">
      <label htmlFor={id} className="block text-sm font-medium text-slate-700 dark:text-slate-200">
        {DEPENDENCY_TEXT.addDependency}
      </label>
      <input
        ref={inputRef}
        id={id}
        type="text"
        role="combobox"
        aria-expanded={hasList}
        aria-controls={hasList ? listId : undefined}
        aria-autocomplete="list"
        aria-activedescendant={hasList && activeOption ? `${listId}-${activeOption.id}` : undefined}
        aria-describedby={error ? errorId : undefined}
        aria-invalid={error ? true : undefined}
        placeholder="Search tasks by title"
        autoComplete="off"
        value={q}
        maxLength={200}
        disabled={!teamId}
        onChange={(e) => {
          setQ(e.target.value);
          setOpen(true);
          setActive(0);
          setError(null);
        }}
        onKeyDown={onKeyDown}
        onBlur={() => setOpen(false)}
        className={cn(inputClass, 'h-9 py-1.5')}
      />
      {isOpen && options.length === 0 && (
        <p
          role="status"
          className="absolute z-10 mt-1 w-full rounded-lg border border-slate-200 bg-white px-3 py-2 text-sm text-slate-600 shadow-lg dark:border-slate-700 dark:bg-slate-900 dark:text-slate-300"
        >
          {results.isFetching || search !== q.trim() ? 'Searching…' : 'No matching tasks'}
        </p>
      )}
      {hasList && (
        <div
          id={listId}
          role="listbox"
          aria-label="Matching tasks"
          className="absolute z-10 mt-1 max-h-60 w-full overflow-y-auto rounded-lg border border-slate-200 bg-white py-1 shadow-lg dark:border-slate-700 dark:bg-slate-900"
        >
          {options.map((option) => (
            // biome-ignore lint/a11y/useKeyWithClickEvents: the keyboard works on the field (aria-activedescendant)
            <div
              key={option.id}
              id={`${listId}-${option.id}`}
              role="option"
              tabIndex={-1}
              aria-selected={option === activeOption}
              // Keeps the focus in the field (a blur would close the list before the click lands).
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => pick(option)}
              className={cn(
                'cursor-pointer px-3 py-1.5 text-sm text-slate-900 dark:text-slate-100',
                option === activeOption && 'bg-brand-50 dark:bg-slate-800',
              )}
            >
              <span className="block break-words">{option.title}</span>
              <span className="block text-xs text-slate-600 dark:text-slate-300">{option.projectName}</span>
            </div>
          ))}
        </div>
      )}
      {error && (
        <p id={errorId} role="alert" className="text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
    </div>
  );
}
