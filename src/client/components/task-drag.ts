import {
  type Announcements,
  type CollisionDetection,
  type DndContextProps,
  type DragEndEvent,
  type DragStartEvent,
  type KeyboardCoordinateGetter,
  KeyboardSensor,
  PointerSensor,
  pointerWithin,
  rectIntersection,
  type UniqueIdentifier,
  useDraggable,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import { type KeyboardEvent, useCallback, useMemo, useRef, useState } from 'react';
import type { TaskDto } from '../../domain/schemas/task';

/**
 * Dragging tasks with dnd-kit, the same way wherever tasks are dragged (the board's columns, the calendar's days):
 * a click or Enter opens the task, a pointer drag or Space picks it up, the arrows move it (each view says where to),
 * Space or Enter drops it, Escape cancels; a screen reader is told each step.
 */

/** The task a draggable carries (its data is `{ task }`). */
export const taskOf = (data: unknown) => (data as { task?: TaskDto } | undefined)?.task;

/** The pointer decides where a mouse drop lands (outside every target: nowhere); the dragged box decides for the keyboard. */
const collisionDetection: CollisionDetection = (args) => (args.pointerCoordinates ? pointerWithin(args) : rectIntersection(args));

/** How the announcements speak of a view's drop targets. */
export interface DropTargets {
  /** The target's name, or null where `id` is none (the task is outside every target). */
  nameOf: (id: UniqueIdentifier | undefined) => string | null;
  /** Whether the task already is at the target (dropping it there changes nothing). */
  holds: (task: TaskDto, id: UniqueIdentifier) => boolean;
  /** What one target is called, with its article ('a day'). */
  one: string;
  /** Where a drop outside every target was ('the calendar'). */
  outside: string;
  /** The preposition of being at a target ('on' a day, 'in' a column). */
  at: string;
}

/** What a screen reader is told as a task is picked up, moved over the targets, dropped or put back. */
export function taskDragAnnouncements(targets: DropTargets): Announcements {
  const titleOf = (data: unknown) => taskOf(data)?.title ?? '';
  return {
    onDragStart: ({ active }) => `Picked up task ${titleOf(active.data.current)}.`,
    onDragOver: ({ active, over }) => {
      const title = titleOf(active.data.current);
      const name = targets.nameOf(over?.id);
      return name ? `Task ${title} is over ${name}.` : `Task ${title} is not over ${targets.one}.`;
    },
    onDragEnd: ({ active, over }) => {
      const task = taskOf(active.data.current);
      if (!task) return undefined;
      const name = targets.nameOf(over?.id);
      if (!over || !name) return `Task ${task.title} was dropped outside ${targets.outside} and did not move.`;
      if (targets.holds(task, over.id)) return `Task ${task.title} stayed ${targets.at} ${name}.`;
      return `Moved task ${task.title} to ${name}.`;
    },
    onDragCancel: ({ active }) => `Moving task ${titleOf(active.data.current)} was cancelled.`,
  };
}

export interface TaskDragOptions {
  /** Where each arrow key moves the dragged task (undefined: nowhere). */
  keyboardCoordinates: KeyboardCoordinateGetter;
  announcements: Announcements;
  /** Read out when a task is focused: how to pick it up, move, drop and open it. */
  instructions: string;
  onOpenTask: (task: TaskDto) => void;
  /** A drag ended over a target or none (a cancelled drag does not call it). */
  onDrop: (event: DragEndEvent) => void;
  /** Which target a drag is over (default: the pointer's target, or the keyboard's by the dragged box). */
  collisionDetection?: CollisionDetection;
}

/**
 * The drag state of a view of draggable tasks: `contextProps` go on its DndContext, `activeTask` is the one in the
 * drag overlay, `openTask` and `isDragActive` go to each draggable (see useDraggableTask).
 */
export function useTaskDrag({
  keyboardCoordinates,
  announcements,
  instructions,
  onOpenTask,
  onDrop,
  collisionDetection: detect = collisionDetection,
}: TaskDragOptions) {
  const [activeTask, setActiveTask] = useState<TaskDto | null>(null);
  const dragging = useRef(false);
  const lastDragEnd = useRef(0);

  const sensors = useSensors(
    // A few pixels of travel before a drag starts, so a click still opens the task.
    useSensor(PointerSensor, { activationConstraint: { distance: 6 } }),
    useSensor(KeyboardSensor, {
      coordinateGetter: keyboardCoordinates,
      keyboardCodes: { start: ['Space'], cancel: ['Escape'], end: ['Space', 'Enter'] },
    }),
  );

  const isDragActive = useCallback(() => dragging.current, []);
  const openTask = useCallback(
    (task: TaskDto) => {
      // The click that ends a pointer drag is not a request to open the task.
      if (dragging.current || Date.now() - lastDragEnd.current < 250) return;
      onOpenTask(task);
    },
    [onOpenTask],
  );

  const onDragStart = ({ active }: DragStartEvent) => {
    dragging.current = true;
    setActiveTask(taskOf(active.data.current) ?? null);
  };

  const endDrag = () => {
    dragging.current = false;
    lastDragEnd.current = Date.now();
    setActiveTask(null);
  };

  const contextProps = {
    sensors,
    collisionDetection: detect,
    accessibility: { announcements, screenReaderInstructions: { draggable: instructions } },
    onDragStart,
    onDragEnd: (event: DragEndEvent) => {
      endDrag();
      onDrop(event);
    },
    onDragCancel: endDrag,
  } satisfies DndContextProps;

  return { contextProps, activeTask, isDragActive, openTask };
}

/**
 * A draggable task (its data is `{ task }`): `handleProps` go on the element that is clicked, focused and dragged
 * (with role="button" and tabIndex 0 stated there, where lint can see them).
 * Enter opens the task, unless a drag is under way: then the keyboard sensor has it (and drops the task).
 */
export function useDraggableTask(
  task: TaskDto,
  onOpen: (task: TaskDto) => void,
  isDragActive: () => boolean,
  /** False for a task the caller may not change (issue 41: a viewer's, a guest's unassigned one): it opens, never moves. */
  canMove = true,
) {
  const data = useMemo(() => ({ task }), [task]);
  const { attributes, listeners, setNodeRef, isDragging } = useDraggable({ id: task.id, data, disabled: !canMove });
  const onKeyDown = useCallback(
    (e: KeyboardEvent<HTMLElement>) => {
      if (e.key === 'Enter' && !isDragActive()) {
        e.preventDefault();
        onOpen(task);
        return;
      }
      listeners?.onKeyDown?.(e);
    },
    [isDragActive, listeners, onOpen, task],
  );
  const onClick = useCallback(() => onOpen(task), [onOpen, task]);
  // A card that cannot move is a plain button: no 'draggable' role description, no drag instructions, no listeners.
  const handleProps = canMove ? { ...attributes, ...listeners, onKeyDown, onClick } : { onKeyDown, onClick };
  return { handleProps, setNodeRef, isDragging };
}
