import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { ExternalLink, Play, Square } from 'lucide-react';
import { useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { MenuItem, MenuSeparator } from '../../../components/ui/menu';
import { useStartTimer, useStopTimer, useTimer } from '../../../lib/queries/time';
import { useWorkRights } from '../../../lib/use-work-rights';
import type { TaskDto } from '../../../../domain/schemas/task';

/** What a card asks for: its task, the card (where focus returns), and the pointer's point (none: the keyboard's). */
export interface CardMenuRequest {
  task: TaskDto;
  card: HTMLElement;
  at: { x: number; y: number } | null;
  /** 'Open task': what a click on the card does. */
  onOpen: (task: TaskDto) => void;
}

/**
 * Where the menu stands, inside the card (so that it follows the card as the board scrolls or shifts): at the pointer,
 * or (opened by keyboard) under the card's title, from its left.
 */
function anchorStyle({ at, card }: CardMenuRequest) {
  if (!at) return { left: 0, top: 0, width: '100%', height: Math.min(card.offsetHeight, KEYBOARD_ANCHOR_PX) };
  const r = card.getBoundingClientRect();
  return { left: at.x - r.left, top: at.y - r.top, width: 0, height: 0 };
}
/** Opened by keyboard, the menu hangs this far below the card's top (over the card, not past a tall one). */
const KEYBOARD_ANCHOR_PX = 40;

interface CardMenuProps {
  request: CardMenuRequest;
  /** The menu has closed and focus is back (or elsewhere, after a click outside). */
  onDone: () => void;
  /** Said through the host's status line (the menu has gone by then). */
  onAnnounce: (text: string) => void;
}

/**
 * The card's menu, on Radix's dropdown (the app's other menus) with an invisible trigger in the card, at the pointer or its top:
 * the card stays the one focusable element, so the board keeps one tab stop per card and its keyboard drag. Closed by
 * Escape or a choice, focus goes back to the card; 'Open task' runs after that, so its dialog returns focus there too.
 */
export function CardMenu({ request, onDone, onAnnounce }: CardMenuProps) {
  const { task, card } = request;
  // Time is logged on a task one may change (issue 41: not by a viewer, nor by a guest on another's task).
  const canTime = useWorkRights().canEditTask(task);
  const [open, setOpen] = useState(true);
  const [anchor] = useState(() => anchorStyle(request));
  const outside = useRef(false);
  const entered = useRef(false);
  const after = useRef<(() => void) | null>(null);
  const onCloseAutoFocus = (e: Event) => {
    e.preventDefault();
    if (!outside.current && card.isConnected) card.focus();
    after.current?.();
    onDone();
  };
  return (
    <DropdownMenu.Root open={open} onOpenChange={setOpen} modal={false}>
      {createPortal(
        <DropdownMenu.Trigger asChild>
          <span aria-hidden className="pointer-events-none absolute" style={anchor} />
        </DropdownMenu.Trigger>,
        card,
      )}
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          aria-label={`Task ${task.title}`}
          // Named for its task, not by the invisible trigger.
          aria-labelledby={undefined}
          align="start"
          sideOffset={4}
          collisionPadding={8}
          onFocus={(e) => {
            // Opened by keyboard, the first item takes focus as the menu gets it (Radix tells keyboard use by the keys
            // it heard, and this menu mounted after the key); by pointer, the menu itself keeps it (Radix's own).
            if (request.at || e.target !== e.currentTarget || entered.current) return;
            entered.current = true;
            e.currentTarget.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
          }}
          onCloseAutoFocus={onCloseAutoFocus}
          onInteractOutside={() => {
            outside.current = true;
          }}
          // A right-click on the menu is not a second request for one.
          onContextMenu={(e) => e.preventDefault()}
          className="z-50 min-w-48 rounded-xl border border-slate-200 bg-white p-1 text-slate-900 shadow-lg dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
          data-testid="card-menu"
        >
          {canTime && (
            <>
              <TimerItem request={request} onAnnounce={onAnnounce} />
              <MenuSeparator />
            </>
          )}
          <MenuItem
            onSelect={() => {
              after.current = () => request.onOpen(task);
            }}
          >
            <ExternalLink className="h-4 w-4" aria-hidden /> Open task
          </MenuItem>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}

/**
 * 'Start timer', or 'Stop timer' when this card's task is the running one: read while the menu is open (the top bar
 * keeps the timer's query loaded). The toasts are the hooks' own, as on the task page.
 */
function TimerItem({ request: { task }, onAnnounce }: Pick<CardMenuProps, 'request' | 'onAnnounce'>) {
  const timer = useTimer();
  const start = useStartTimer();
  const stop = useStopTimer();
  const running = timer.data?.taskId === task.id;
  // A failure is the hooks' toast; the promise is only for what to say when it worked.
  const quiet = () => {};
  if (running) {
    return (
      <MenuItem onSelect={() => void stop.mutateAsync().then(() => onAnnounce(''), quiet)}>
        <Square className="h-4 w-4" aria-hidden /> Stop timer
      </MenuItem>
    );
  }
  return (
    <MenuItem onSelect={() => void start.mutateAsync(task.id).then(() => onAnnounce(`Timer started on ${task.title}`), quiet)}>
      <Play className="h-4 w-4" aria-hidden /> Start timer
    </MenuItem>
  );
}
