import type { SuggestionKeyDownProps, SuggestionOptions, SuggestionProps } from '@tiptap/suggestion';
import { ReactRenderer } from '@tiptap/react';
import { forwardRef, type ReactNode, useImperativeHandle, useState } from 'react';
import { cn } from '../../../lib/cn';

/** One choice of an `@` or `#` menu. */
export interface SuggestionItem {
  id: string;
  label: string;
  /** A second line (an email, a task's project and status). */
  detail?: string | null;
  icon?: ReactNode;
}

interface MenuProps {
  items: SuggestionItem[];
  loading: boolean;
  query: string;
  /** The list's name for screen readers ('Teammates', 'Tasks'). */
  label: string;
  /** What to show with nothing to offer. */
  empty: (query: string) => string;
  onPick: (item: SuggestionItem) => void;
}

export interface MenuHandle {
  onKeyDown: (event: KeyboardEvent) => boolean;
}

/** The menu under the caret while typing `@name` or `#task`: arrows move, Enter or Tab picks, Escape closes. */
const SuggestionMenu = forwardRef<MenuHandle, MenuProps>(function SuggestionMenu(
  { items, loading, query, label, empty, onPick },
  ref,
) {
  const [active, setActive] = useState(0);
  // New items (the query changed): back to the first.
  const [shownItems, setShownItems] = useState(items);
  if (shownItems !== items) {
    setShownItems(items);
    setActive(0);
  }
  useImperativeHandle(ref, () => ({
    onKeyDown: (event) => {
      if (items.length === 0) return false;
      if (event.key === 'ArrowDown') {
        setActive((i) => (i + 1) % items.length);
        return true;
      }
      if (event.key === 'ArrowUp') {
        setActive((i) => (i - 1 + items.length) % items.length);
        return true;
      }
      if (event.key === 'Enter' || event.key === 'Tab') {
        const item = items[active];
        if (item) onPick(item);
        return true;
      }
      return false;
    },
  }));

  return (
    <div className="w-72 max-w-[calc(100vw-2rem)] overflow-hidden rounded-lg border border-slate-200 bg-white text-sm shadow-lg dark:border-slate-700 dark:bg-slate-900">
      {items.length === 0 ? (
        <p className="px-3 py-2 text-slate-600 dark:text-slate-300" role="status">
          {loading ? 'Searching…' : empty(query)}
        </p>
      ) : (
        <div role="listbox" aria-label={label} className="max-h-64 overflow-y-auto py-1">
          {items.map((item, i) => (
            <div
              key={item.id}
              role="option"
              aria-selected={i === active}
              tabIndex={-1}
              // Keep the editor's focus and selection: the pick happens on mousedown.
              onMouseDown={(e) => {
                e.preventDefault();
                onPick(item);
              }}
              onMouseEnter={() => setActive(i)}
              className={cn(
                'flex cursor-pointer items-start gap-2 px-3 py-1.5',
                i === active
                  ? 'bg-brand-50 text-indigo-900 dark:bg-indigo-950 dark:text-indigo-100'
                  : 'text-slate-800 dark:text-slate-100',
              )}
            >
              {item.icon}
              <span className="min-w-0">
                <span className="block truncate font-medium">{item.label}</span>
                {item.detail && <span className="block truncate text-xs text-slate-600 dark:text-slate-300">{item.detail}</span>}
              </span>
            </div>
          ))}
        </div>
      )}
    </div>
  );
});

/** The `render` of a Tiptap suggestion: our menu, mounted and positioned by the suggestion plugin. */
export function suggestionRender(label: string, empty: (query: string) => string): SuggestionOptions<SuggestionItem>['render'] {
  return () => {
    let renderer: ReactRenderer<MenuHandle, MenuProps> | null = null;
    let unmount: (() => void) | null = null;
    const propsOf = (p: SuggestionProps<SuggestionItem>): MenuProps => ({
      items: p.items,
      loading: p.loading,
      query: p.query,
      label,
      empty,
      onPick: (item) => p.command(item),
    });
    return {
      onStart: (p) => {
        renderer = new ReactRenderer(SuggestionMenu, { props: propsOf(p), editor: p.editor });
        renderer.element.style.zIndex = '60';
        unmount = p.mount(renderer.element);
      },
      onUpdate: (p) => renderer?.updateProps(propsOf(p)),
      // Escape is the plugin's own (it closes the menu and calls onExit).
      onKeyDown: ({ event }: SuggestionKeyDownProps) => renderer?.ref?.onKeyDown(event) ?? false,
      onExit: () => {
        unmount?.();
        unmount = null;
        renderer?.destroy();
        renderer = null;
      },
    };
  };
}
