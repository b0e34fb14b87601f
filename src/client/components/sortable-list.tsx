import {
  DndContext,
  type DragEndEvent,
  PointerSensor,
  type UniqueIdentifier,
  useDraggable,
  useDroppable,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import { CSS } from '@dnd-kit/utilities';
import { ArrowDown, ArrowUp, GripVertical } from 'lucide-react';
import { type ButtonHTMLAttributes, forwardRef, type ReactNode, useCallback, useEffect, useRef, useState } from 'react';
import { cn } from '../lib/cn';
import { moveById, moveItem } from '../lib/move-item';
import { Button } from './ui/button';

/**
 * A list a person reorders (a task's checklist, a project's workflow): by dragging a row's grip (dnd-kit's pointer
 * sensor, a drop on another row takes its place) or with the row's Move up / Move down buttons, a screen reader told
 * each move. Each list keeps its own rows; this is what they share.
 */

export type MoveDirection = 'up' | 'down';

/** What the drag context tells a screen reader: the buttons are the keyboard's way. */
export const SORTABLE_INSTRUCTIONS = {
  screenReaderInstructions: { draggable: 'Drag with a pointer, or use the Move up and Move down buttons.' },
};

export interface SortableListOptions<T extends { id: string }> {
  /** The items as drawn now (focus goes back to a moved row once it is drawn in its new place). */
  items: readonly T[];
  /** The list to move within, with any change not yet drawn (defaults to `items`). */
  current?: () => readonly T[];
  /** How the announcement names an item. */
  nameOf: (item: T) => string;
  /** Sends the new order (every id, in order). */
  onReorder: (ids: string[]) => void;
}

/**
 * The list's side: the sensors and drop handler for its DndContext, `move` for the buttons, the announcement to put in
 * a status region, and `listRef` for the list element (focus returns to the button that moved a row, or to its other
 * one when that is now disabled at the top or the bottom).
 */
export function useSortableList<T extends { id: string }>({
  items,
  current = () => items,
  nameOf,
  onReorder,
}: SortableListOptions<T>) {
  const list = useRef<HTMLElement | null>(null);
  const listRef = useCallback((node: HTMLElement | null) => {
    list.current = node;
  }, []);
  const [announcement, setAnnouncement] = useState('');
  const [refocus, setRefocus] = useState<{ id: string; direction: MoveDirection; index: number } | null>(null);
  useEffect(() => {
    if (!refocus || items.findIndex((i) => i.id === refocus.id) !== refocus.index) return;
    const row = list.current?.querySelector<HTMLElement>(`[data-sortable="${refocus.id}"]`);
    const same = row?.querySelector<HTMLButtonElement>(`[data-move="${refocus.direction}"]:not(:disabled)`);
    (same ?? row?.querySelector<HTMLButtonElement>('[data-move]:not(:disabled)'))?.focus();
    setRefocus(null);
  }, [refocus, items]);

  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 4 } }));

  const reorderTo = (next: T[], moved: T) => {
    onReorder(next.map((i) => i.id));
    setAnnouncement(`Moved ${nameOf(moved)} to position ${next.findIndex((i) => i.id === moved.id) + 1} of ${next.length}`);
  };

  const move = (item: T, direction: MoveDirection) => {
    const now = current();
    const from = now.findIndex((i) => i.id === item.id);
    if (from < 0) return;
    const next = moveItem(now, from, direction === 'up' ? from - 1 : from + 1);
    if (next.every((i, at) => i.id === now[at]?.id)) return;
    reorderTo(next, item);
    setRefocus({ id: item.id, direction, index: next.findIndex((i) => i.id === item.id) });
  };

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    const now = current();
    const moved = now.find((i) => i.id === active.id);
    if (moved) reorderTo(moveById(now, String(active.id), String(over.id)), moved);
  };

  return { listRef, sensors, onDragEnd, move, announcement, setAnnouncement };
}

/** The list's element in its drag context: a named <ul> of rows (each a `useSortableRow`). */
export function SortableListFrame({
  sortable,
  label,
  children,
}: {
  sortable: Pick<ReturnType<typeof useSortableList>, 'sensors' | 'onDragEnd' | 'listRef'>;
  label: string;
  children: ReactNode;
}) {
  return (
    <DndContext sensors={sortable.sensors} onDragEnd={sortable.onDragEnd} accessibility={SORTABLE_INSTRUCTIONS}>
      <ul ref={sortable.listRef} className="space-y-1" aria-label={label}>
        {children}
      </ul>
    </DndContext>
  );
}

/**
 * A row's side: its element is a drag source (by the grip only) and a drop target. Put `rowRef`, `style` and
 * `data-sortable={id}` on the row, and <DragGrip row={…} /> in it.
 */
export function useSortableRow(id: UniqueIdentifier, canMove: boolean) {
  const { setNodeRef: setDropRef, isOver } = useDroppable({ id, disabled: !canMove });
  const drag = useDraggable({ id, disabled: !canMove });
  return {
    rowRef: (node: HTMLElement | null) => {
      setDropRef(node);
      drag.setNodeRef(node);
    },
    style: { transform: CSS.Translate.toString(drag.transform) },
    /** Another row is over this one. */
    isOver: isOver && !drag.isDragging,
    isDragging: drag.isDragging,
    canMove,
    grip: { ref: drag.setActivatorNodeRef, listeners: drag.listeners },
  };
}

/**
 * A compact row's look (a checklist item, a sub-task) and its drag states: ringed while another row is over it, lifted
 * while it is dragged.
 */
export const compactRowClass = (row: ReturnType<typeof useSortableRow>, className?: string) =>
  cn(
    'flex items-center rounded-md px-1 py-1 hover:bg-slate-50 dark:hover:bg-slate-800/60',
    className,
    row.isOver && 'ring-2 ring-brand-600 dark:ring-brand-500',
    row.isDragging && 'relative z-10 bg-white shadow-md dark:bg-slate-800',
  );

/** The row's drag handle: for pointers only (hidden from readers; the Move buttons are the keyboard's way). */
export function DragGrip({ row, className }: { row: ReturnType<typeof useSortableRow>; className?: string }) {
  return (
    <span
      ref={row.grip.ref}
      {...row.grip.listeners}
      aria-hidden
      title="Drag to reorder"
      className={cn('touch-none text-slate-500 dark:text-slate-400', row.canMove ? 'cursor-grab' : 'opacity-40', className)}
    >
      <GripVertical className="h-4 w-4" />
    </span>
  );
}

export interface RowIconButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  /** The accessible name, naming the item ('Move Buy milk up'). */
  label: string;
  /** The tooltip: the action alone. */
  hint: string;
  'data-move'?: MoveDirection;
}

/** A row's icon action: named for the item, its tooltip the action. */
export const RowIconButton = forwardRef<HTMLButtonElement, RowIconButtonProps>(function RowIconButton(
  { label, hint, className, ...rest },
  ref,
) {
  return (
    <Button
      ref={ref}
      variant="ghost"
      size="icon"
      aria-label={label}
      title={hint}
      className={cn('h-7 w-7 text-slate-600 disabled:opacity-40 dark:text-slate-300', className)}
      {...rest}
    />
  );
});

export interface MoveButtonsProps {
  /** The item's name, in the buttons' names ('Move QA up'). */
  name: string;
  isFirst: boolean;
  isLast: boolean;
  canMove: boolean;
  onMove: (direction: MoveDirection) => void;
  /** The buttons' size and their icons' (the checklist's are smaller than the workflow's). */
  className?: string;
  iconClassName?: string;
}

/** Move up / Move down: the keyboard's way to reorder. */
export function MoveButtons({
  name,
  isFirst,
  isLast,
  canMove,
  onMove,
  className,
  iconClassName = 'h-3.5 w-3.5',
}: MoveButtonsProps) {
  return (
    <>
      {(['up', 'down'] as const).map((direction) => {
        const Icon = direction === 'up' ? ArrowUp : ArrowDown;
        return (
          <RowIconButton
            key={direction}
            label={`Move ${name} ${direction}`}
            hint={`Move ${direction}`}
            data-move={direction}
            disabled={!canMove || (direction === 'up' ? isFirst : isLast)}
            onClick={() => onMove(direction)}
            className={className}
          >
            <Icon className={iconClassName} aria-hidden />
          </RowIconButton>
        );
      })}
    </>
  );
}
