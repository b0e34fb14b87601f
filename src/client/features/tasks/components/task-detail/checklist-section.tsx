import { Pencil, Trash2 } from 'lucide-react';
import { type FormEvent, type RefObject, useEffect, useId, useRef, useState } from 'react';
import { TASK_DETAIL_LIMITS } from '../../../../../domain/constants';
import type { ChecklistItemDto } from '../../../../../domain/schemas/task-detail';
import {
  compactRowClass,
  DragGrip,
  type MoveDirection,
  MoveButtons,
  RowIconButton,
  SortableListFrame,
  useSortableList,
  useSortableRow,
} from '../../../../components/sortable-list';
import { Button } from '../../../../components/ui/button';
import { inputClass } from '../../../../components/ui/field';
import { ProgressBar } from '../../../../components/ui/progress-bar';
import { cn } from '../../../../lib/cn';
import { useChecklist } from '../../api/get-checklist';
import { isPendingItem, useChecklistChange } from '../../api/save-checklist';
import { checklistProgress } from './checklist-order';

export interface ChecklistSectionProps {
  taskId: string;
}

/**
 * The task's checklist: add (Enter), tick, rename in place, delete, and reorder by dragging the grip or with the
 * Move up / Move down buttons. Every change shows at once and is undone if the server refuses it.
 */
export function ChecklistSection({ taskId }: ChecklistSectionProps) {
  const headingId = useId();
  const { data, isPending, isError, refetch } = useChecklist(taskId);
  const change = useChecklistChange(taskId);
  const items = data?.items ?? [];
  const { done, total } = checklistProgress(items);
  const addRef = useRef<HTMLInputElement>(null);
  const sortable = useSortableList({
    items,
    current: change.current,
    nameOf: (i) => i.title,
    onReorder: change.reorder,
  });

  const hasPending = items.some(isPendingItem);

  return (
    <section aria-labelledby={headingId} className="space-y-3">
      <div className="flex items-center justify-between gap-2">
        <h3 id={headingId} className="text-base font-semibold text-slate-900 dark:text-slate-100">
          Checklist
        </h3>
        {total > 0 && (
          <span className="text-sm tabular-nums text-slate-600 dark:text-slate-300" data-testid="checklist-progress">
            <span aria-hidden>
              {done}/{total}
            </span>
            <span className="sr-only">
              {done} of {total} checklist items done
            </span>
          </span>
        )}
      </div>
      {total > 0 && <ProgressBar value={(done / total) * 100} label="Checklist progress" />}

      {isPending ? (
        <div className="space-y-2" role="status">
          <span className="sr-only">Loading checklist…</span>
          {[0, 1, 2].map((i) => (
            <div key={i} aria-hidden className="flex animate-pulse items-center gap-2 py-1">
              <div className="h-4 w-4 rounded bg-slate-200 dark:bg-slate-700" />
              <div className="h-3 w-2/3 rounded bg-slate-200 dark:bg-slate-700" />
            </div>
          ))}
        </div>
      ) : isError ? (
        <div className="flex items-center gap-3 text-sm text-slate-700 dark:text-slate-200">
          <p>Could not load the checklist.</p>
          <Button variant="secondary" size="sm" onClick={() => void refetch()}>
            Retry
          </Button>
        </div>
      ) : items.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-300">No items yet. Break the task into steps below.</p>
      ) : (
        <SortableListFrame sortable={sortable} label="Checklist items">
          {items.map((item, index) => (
            <ChecklistRow
              key={item.id}
              item={item}
              isFirst={index === 0}
              isLast={index === items.length - 1}
              canMove={!hasPending}
              onToggle={(next) => change.update(item.id, { done: next })}
              onRename={(title) => change.update(item.id, { title })}
              onDelete={() => {
                change.remove(item.id);
                sortable.setAnnouncement(`Deleted ${item.title}`);
                addRef.current?.focus();
              }}
              onMove={(direction) => sortable.move(item, direction)}
            />
          ))}
        </SortableListFrame>
      )}

      <AddItemForm inputRef={addRef} onAdd={change.add} disabled={isPending || isError} />
      <p role="status" className="sr-only">
        {sortable.announcement}
      </p>
    </section>
  );
}

function AddItemForm({
  inputRef,
  onAdd,
  disabled,
}: {
  inputRef: RefObject<HTMLInputElement | null>;
  onAdd: (title: string) => void;
  disabled: boolean;
}) {
  const [title, setTitle] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const trimmed = title.trim();
    if (!trimmed) return;
    onAdd(trimmed);
    setTitle('');
  };
  return (
    <form onSubmit={submit} className="flex gap-2">
      <input
        ref={inputRef}
        type="text"
        aria-label="Add an item"
        placeholder="Add an item"
        value={title}
        maxLength={TASK_DETAIL_LIMITS.checklistItemMax}
        onChange={(e) => setTitle(e.target.value)}
        disabled={disabled}
        className={cn(inputClass, 'h-9 py-1.5')}
      />
      <Button type="submit" variant="secondary" size="sm" className="h-9 shrink-0" disabled={disabled || !title.trim()}>
        Add
      </Button>
    </form>
  );
}

interface ChecklistRowProps {
  item: ChecklistItemDto;
  isFirst: boolean;
  isLast: boolean;
  canMove: boolean;
  onToggle: (done: boolean) => void;
  onRename: (title: string) => void;
  onDelete: () => void;
  onMove: (direction: MoveDirection) => void;
}

function ChecklistRow({ item, isFirst, isLast, canMove, onToggle, onRename, onDelete, onMove }: ChecklistRowProps) {
  const checkboxId = useId();
  // What was just ticked or typed shows at once: the cache's optimistic write comes a moment later (after the
  // mutation's first await), and a controlled checkbox would flick back meanwhile. Any new copy of the item (the
  // optimistic one, the server's, a rollback) replaces this.
  const [local, setLocal] = useState<Partial<Pick<ChecklistItemDto, 'done' | 'title'>>>({});
  const [localFor, setLocalFor] = useState(item);
  if (localFor !== item) {
    setLocalFor(item);
    setLocal({});
  }
  const shown = { ...item, ...local };
  const isPending = isPendingItem(item);
  const [isEditing, setEditing] = useState(false);
  const [draft, setDraft] = useState(shown.title);
  const renameRef = useRef<HTMLButtonElement>(null);
  const disabled = isPending;
  const row = useSortableRow(item.id, canMove && !isPending);

  const editingRef = useRef(false);
  const editRef = useRef<HTMLInputElement>(null);
  const finish = (save: boolean) => {
    if (!editingRef.current) return;
    editingRef.current = false;
    setEditing(false);
    const trimmed = draft.trim();
    if (save && trimmed && trimmed !== shown.title) {
      setLocal((l) => ({ ...l, title: trimmed }));
      onRename(trimmed);
    } else setDraft(shown.title);
    // Back to the button that opened the field (after it renders again).
    requestAnimationFrame(() => renameRef.current?.focus());
  };

  // Escape leaves the field, not the dialog: the dialog listens on the document in the capture phase, so this
  // listens before it, on the window.
  const finishRef = useRef(finish);
  finishRef.current = finish;
  useEffect(() => {
    if (!isEditing) return;
    const onKeyDown = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.target !== editRef.current) return;
      e.stopPropagation();
      e.preventDefault();
      finishRef.current(false);
    };
    window.addEventListener('keydown', onKeyDown, { capture: true });
    return () => window.removeEventListener('keydown', onKeyDown, { capture: true });
  }, [isEditing]);

  return (
    <li
      ref={row.rowRef}
      data-item={item.id}
      data-sortable={item.id}
      style={row.style}
      className={compactRowClass(row, 'group gap-2')}
    >
      <DragGrip row={row} />
      <input
        id={checkboxId}
        type="checkbox"
        checked={shown.done}
        disabled={disabled}
        onChange={(e) => {
          const done = e.target.checked;
          setLocal((l) => ({ ...l, done }));
          onToggle(done);
        }}
        className="h-4 w-4 shrink-0 accent-brand-600"
      />
      {isEditing ? (
        <input
          ref={editRef}
          type="text"
          aria-label={`Rename ${shown.title}`}
          value={draft}
          maxLength={TASK_DETAIL_LIMITS.checklistItemMax}
          autoFocus
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              finish(true);
            }
          }}
          onBlur={() => finish(true)}
          className={cn(inputClass, 'h-8 min-w-0 flex-1 py-1')}
        />
      ) : (
        <label
          htmlFor={checkboxId}
          className={cn(
            'min-w-0 flex-1 cursor-pointer break-words text-sm text-slate-900 dark:text-slate-100',
            shown.done && 'text-slate-600 line-through dark:text-slate-400',
          )}
        >
          {shown.title}
        </label>
      )}
      <div className="flex shrink-0 items-center">
        <RowIconButton
          ref={renameRef}
          label={`Rename ${shown.title}`}
          hint="Rename"
          disabled={disabled || isEditing}
          onClick={() => {
            setDraft(shown.title);
            editingRef.current = true;
            setEditing(true);
          }}
        >
          <Pencil className="h-3.5 w-3.5" aria-hidden />
        </RowIconButton>
        <MoveButtons name={shown.title} isFirst={isFirst} isLast={isLast} canMove={canMove} onMove={onMove} />
        <RowIconButton label={`Delete ${shown.title}`} hint="Delete" disabled={disabled} onClick={onDelete}>
          <Trash2 className="h-3.5 w-3.5" aria-hidden />
        </RowIconButton>
      </div>
    </li>
  );
}
