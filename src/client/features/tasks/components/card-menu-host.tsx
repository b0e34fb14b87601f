import {
  createContext,
  type KeyboardEvent,
  lazy,
  type MouseEvent,
  type ReactNode,
  Suspense,
  useCallback,
  useContext,
  useState,
} from 'react';
import type { TaskDto } from '../../../../domain/schemas/task';
import type { CardMenuRequest } from './card-menu';

/**
 * A card's menu (issue 39: 'Start timer' / 'Stop timer', 'Open task'), one for the whole board: a card asks for it on
 * right-click or on the keyboard's menu keys (Shift+F10, the context-menu key), the host draws it. Its code (the menu,
 * the timer's hooks) loads the first time one opens, and nothing subscribes to the timer while none is open: a board
 * of hundreds of cards pays one context read per card.
 */

/** The keys that open a card's menu, as aria-keyshortcuts spells them. */
export const CARD_MENU_KEYS = 'Shift+F10 ContextMenu';
/** Read with the card's instructions. */
export const CARD_MENU_HINT = "Press Shift+F10 for the task's menu.";

const CardMenu = lazy(() => import('./card-menu').then((m) => ({ default: m.CardMenu })));

type OpenCardMenu = (request: CardMenuRequest) => void;
const CardMenuContext = createContext<OpenCardMenu | null>(null);

/** Gives the cards inside it a menu (without it, a card has none). */
export function CardMenuProvider({ children }: { children: ReactNode }) {
  const [request, setRequest] = useState<(CardMenuRequest & { id: number }) | null>(null);
  // The start of a timer is said here (the host stays when the menu goes; the stop says it in a toast).
  const [status, setStatus] = useState('');
  const open = useCallback<OpenCardMenu>((r) => setRequest((prev) => ({ ...r, id: (prev?.id ?? 0) + 1 })), []);
  // Only if it is still the one shown: a right-click on another card closes this menu after the next one opened.
  const done = useCallback((id: number) => setRequest((prev) => (prev?.id === id ? null : prev)), []);
  return (
    <CardMenuContext.Provider value={open}>
      {children}
      <p role="status" className="sr-only">
        {status}
      </p>
      {request && (
        <Suspense fallback={null}>
          <CardMenu key={request.id} request={request} onDone={() => done(request.id)} onAnnounce={setStatus} />
        </Suspense>
      )}
    </CardMenuContext.Provider>
  );
}

const isMenuKey = (e: KeyboardEvent) => e.key === 'ContextMenu' || (e.key === 'F10' && e.shiftKey);

/**
 * A card's handlers for its menu (none outside a CardMenuProvider): right-click opens it at the pointer, the menu keys at
 * the card; neither while a drag is under way. `onKeyDown` returns whether it took the key.
 */
export function useCardMenuTrigger(task: TaskDto, onOpen: (task: TaskDto) => void, isDragActive: () => boolean) {
  const open = useContext(CardMenuContext);
  if (!open) return null;
  return {
    onContextMenu: (e: MouseEvent<HTMLElement>) => {
      if (isDragActive()) return;
      e.preventDefault();
      // A keyboard's contextmenu (where the browser makes one) has no point: the menu goes by the card.
      const at = e.clientX || e.clientY ? { x: e.clientX, y: e.clientY } : null;
      open({ task, card: e.currentTarget, at, onOpen });
    },
    onKeyDown: (e: KeyboardEvent<HTMLElement>): boolean => {
      if (!isMenuKey(e) || isDragActive()) return false;
      // Also keeps the browser from sending its own contextmenu for the key.
      e.preventDefault();
      open({ task, card: e.currentTarget, at: null, onOpen });
      return true;
    },
  };
}
