import * as Dialog from '@radix-ui/react-dialog';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Command } from 'cmdk';
import { CheckSquare, FileText, FolderKanban, type LucideIcon, MessageSquare, Search, User, Users } from 'lucide-react';
import { type ComponentType, useEffect, useMemo, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { canUseAdminArea } from '../../../../domain/permissions';
import type { SearchHit, SearchKind } from '../../../../domain/schemas/search';
import { cn } from '../../../lib/cn';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { useOffersNewTask } from '../../../lib/use-work-rights';
import { useAuthStore } from '../../../stores/auth-store';
import { useThemeStore } from '../../../stores/theme-store';
import { useQuickAddStore } from '../../../stores/ui-store';
import { searchQueryOptions } from '../api/search';
import { type CommandAction, matchCommands, matchesWords } from '../commands';
import { usePaletteStore } from '../palette-store';
import { addRecent, patchRecent, type RecentItem, readRecents } from '../recents';
import { Highlighted, plainText } from './highlighted';

/** A saved view as the palette lists it (the saved-views feature's, composed in app/). */
export interface PaletteView {
  id: string;
  name: string;
  /** 'Only me', or the team it is shared with and its owner. */
  detail: string;
  /** Its query string on /tasks. */
  search: string;
}

/** What the palette shows and does from other features, handed in by app/ (a feature imports no other feature). */
export interface PaletteDeps {
  useViews: (enabled: boolean) => { views: PaletteView[] | undefined; isError: boolean };
  /** The saved views' icon (theirs: an icon used by two lazily loaded chunks would land in the start-up one). */
  viewIcon: LucideIcon;
  useSignOut: () => () => unknown;
}

/**
 * Typing pauses this long before the search is sent: short, since each new request cancels the one before it
 * (the page searches 250 ms after typing stops; the palette aims at results within 100 ms of a key).
 */
const PALETTE_DEBOUNCE_MS = 20;

const KIND_HEADINGS: Record<SearchKind, string> = {
  task: 'Tasks',
  project: 'Projects',
  team: 'Teams',
  person: 'People',
  comment: 'Comments',
  note: 'Notes',
};
const KIND_ICONS: Record<SearchKind, LucideIcon> = {
  task: CheckSquare,
  project: FolderKanban,
  team: Users,
  person: User,
  comment: MessageSquare,
  note: FileText,
};

interface Row {
  value: string;
  icon: LucideIcon;
  /** With highlight markers for server hits. */
  title: string;
  detail?: string | null;
  badge?: string | null;
  onSelect: () => void;
}
interface Group {
  heading: string;
  rows: Row[];
}

/** Where a hit opens, and the recent item it becomes (tasks and projects only). */
function hitTarget(hit: SearchHit): { to: string; recent?: RecentItem } {
  const title = plainText(hit.title);
  switch (hit.kind) {
    case 'task':
      return { to: `/tasks/${hit.id}`, recent: { kind: 'task', id: hit.id, title, context: hit.context } };
    case 'comment':
      return hit.taskId
        ? { to: `/tasks/${hit.taskId}`, recent: { kind: 'task', id: hit.taskId, title, context: hit.context } }
        : { to: '/tasks' };
    case 'project':
      return { to: `/tasks?project=${hit.id}`, recent: { kind: 'project', id: hit.id, title, context: hit.context } };
    case 'team':
      return { to: '/teams' };
    case 'person':
      return { to: `/my-work?user=${hit.id}` };
    case 'note':
      return { to: `/notes/${hit.id}` };
  }
}

const recentTarget = (r: RecentItem, views: PaletteView[] | undefined): string => {
  if (r.kind === 'task') return `/tasks/${r.id}`;
  if (r.kind === 'project') return `/tasks?project=${r.id}`;
  return `/tasks?${views?.find((v) => v.id === r.id)?.search ?? r.search ?? ''}`;
};

const focusedElement = () => (document.activeElement instanceof HTMLElement ? document.activeElement : null);

const count = (n: number) => (n === 0 ? 'No results' : n === 1 ? '1 result' : `${n} results`);

/** The palette with what it needs from other features bound in (called once, by app/). */
export function composePalette(deps: PaletteDeps): ComponentType {
  return function ComposedPalette() {
    useRecordTaskPages();
    return <CommandPalette deps={deps} />;
  };
}

const TASK_PAGE = /^\/tasks\/([0-9a-f-]{36})\/?$/i;

/**
 * A task's own page (opened from the board, a link, a notification) becomes a recent item, titled from the task as
 * the page loads it into the query cache (whichever query holds it: the cache is read, not the tasks feature).
 */
function useRecordTaskPages() {
  const { pathname } = useLocation();
  const userId = useAuthStore((s) => s.user?.id);
  const qc = useQueryClient();
  useEffect(() => {
    const taskId = TASK_PAGE.exec(pathname)?.[1]?.toLowerCase();
    if (!taskId || !userId) return;
    addRecent(userId, { kind: 'task', id: taskId, title: '' });
    const cache = qc.getQueryCache();
    const found = (data: unknown) => {
      const task = data as { id?: unknown; title?: unknown } | undefined;
      if (task?.id !== taskId || typeof task.title !== 'string') return false;
      patchRecent(userId, { kind: 'task', id: taskId }, { title: task.title });
      return true;
    };
    if (cache.getAll().some((q) => found(q.state.data))) return;
    const stop = cache.subscribe((event) => found(event.query.state.data) && stop());
    return stop;
  }, [pathname, userId, qc]);
}

/**
 * Ctrl/Cmd+K: search everything the caller may see (server results, grouped by kind, matches highlighted), the
 * commands whose words match, and the saved views; with an empty field, the recent items and every command. A
 * combobox over a listbox (cmdk): arrows move, Enter opens, Escape closes and gives focus back.
 */
function CommandPalette({ deps }: { deps: PaletteDeps }) {
  const { isOpen: open, initialQuery, close: onClose } = usePaletteStore();
  const navigate = useNavigate();
  const user = useAuthStore((s) => s.user);
  const userId = user?.id ?? '';
  const theme = useThemeStore((s) => s.theme);
  // Someone who only views, or is only a guest, adds no work (issue 41): no New Task, New Project or New Note command.
  const offersNewTask = useOffersNewTask();
  const signOut = deps.useSignOut();
  const [query, setQuery] = useState(initialQuery);
  const [recents, setRecents] = useState(() => readRecents(userId));
  // Where focus was when it opened: Escape gives it back. Read while rendering: by the effects, the field has it.
  const [opener, setOpener] = useState(() => (open ? focusedElement() : null));
  const [wasOpen, setWasOpen] = useState(open);
  if (open !== wasOpen) {
    setWasOpen(open);
    if (open) {
      setOpener(focusedElement());
      setQuery(initialQuery);
      setRecents(readRecents(userId));
    }
  }

  const typed = query.trim();
  const settled = useDebouncedValue(typed, PALETTE_DEBOUNCE_MS);
  const search = useQuery({ ...searchQueryOptions(settled), enabled: open && settled !== '' });
  // The request leaves when the pause ends, not a render and a paint later (when the query above would send it; it
  // then takes the answer on its way, and cancels the previous text's request as it moves on).
  const qc = useQueryClient();
  const pause = useRef<ReturnType<typeof setTimeout>>(undefined);
  const type = (value: string) => {
    setQuery(value);
    clearTimeout(pause.current);
    const q = value.trim();
    if (q) pause.current = setTimeout(() => void qc.prefetchQuery(searchQueryOptions(q)), PALETTE_DEBOUNCE_MS);
  };
  const isCurrent = typed !== '' && settled === typed && search.isSuccess && !search.isPlaceholderData;
  const isSearching = typed !== '' && !isCurrent && !search.isError;
  const { views } = deps.useViews(open);

  // What to do once the dialog has closed: give focus back (Escape, a theme), or leave it to the page just opened.
  const closing = useRef<{ restore: boolean; then?: () => void }>({ restore: true });
  const finish = (restore: boolean, then?: () => void) => {
    closing.current = { restore, then };
    onClose();
  };
  const go = (to: string, recent?: RecentItem) => {
    if (recent && userId) addRecent(userId, recent);
    navigate(to);
    finish(false);
  };
  const run = (action: CommandAction) => {
    if ('go' in action) return go(action.go);
    if ('theme' in action) return finish(true, () => useThemeStore.getState().setTheme(action.theme));
    if (action.act === 'new-task') return finish(true, () => useQuickAddStore.getState().setOpen(true));
    finish(true, () => void signOut());
  };

  // While a new answer is on its way, the last one stays if it was for the same word typed on (or back).
  const lastQ = search.data?.q.toLowerCase() ?? '';
  const isRelated = typed.toLowerCase().startsWith(lastQ) || lastQ.startsWith(typed.toLowerCase());
  const hits = isCurrent || isRelated ? search.data?.groups : undefined;

  // go and run read the latest render's values when called; the rows change only with what they show.
  // biome-ignore lint/correctness/useExhaustiveDependencies: see above
  const groups = useMemo((): Group[] => {
    const out: Group[] = [];
    if (typed) {
      for (const kind of Object.keys(KIND_HEADINGS) as SearchKind[]) {
        const ofKind = hits?.[kind] ?? [];
        if (ofKind.length === 0) continue;
        out.push({
          heading: KIND_HEADINGS[kind],
          rows: ofKind.map((hit) => {
            const { to, recent } = hitTarget(hit);
            return {
              value: `${kind}:${hit.id}`,
              icon: KIND_ICONS[kind],
              title: hit.title,
              detail: [hit.context, hit.snippet].filter(Boolean).join(' · ') || null,
              badge: hit.statusName,
              onSelect: () => go(to, recent),
            };
          }),
        });
      }
      const matching = (views ?? []).filter((v) => matchesWords(typed, v.name));
      if (matching.length > 0) {
        out.push({
          heading: 'Saved views',
          rows: matching.map((v) => ({
            value: `view:${v.id}`,
            icon: deps.viewIcon,
            title: v.name,
            detail: v.detail,
            onSelect: () =>
              go(`/tasks?${v.search}`, { kind: 'view', id: v.id, title: v.name, context: v.detail, search: v.search }),
          })),
        });
      }
    } else {
      const shown = recents.filter((r) => r.title);
      if (shown.length > 0) {
        out.push({
          heading: 'Recent',
          rows: shown.map((r) => ({
            value: `recent:${r.kind}:${r.id}`,
            icon: r.kind === 'view' ? deps.viewIcon : KIND_ICONS[r.kind],
            title: r.title,
            detail: r.context,
            onSelect: () => go(recentTarget(r, views), r),
          })),
        });
      }
    }
    for (const command of matchCommands(typed, canUseAdminArea(user?.role), offersNewTask)) {
      const group = out.find((g) => g.heading === command.group) ?? out[out.push({ heading: command.group, rows: [] }) - 1]!;
      const isCurrentTheme = 'theme' in command.action && command.action.theme === theme;
      group.rows.push({
        value: `command:${command.id}`,
        icon: command.icon,
        title: command.label,
        badge: isCurrentTheme ? 'Current' : null,
        onSelect: () => run(command.action),
      });
    }
    return out;
  }, [typed, hits, views, recents, theme, user?.role, offersNewTask]);

  const rows = groups.flatMap((g) => g.rows);
  const firstValue = rows[0]?.value ?? '';
  const signature = rows.map((r) => r.value).join(' ');
  // A new list selects its first row (cmdk keeps a selection that is still there, even when it is no longer first);
  // set while rendering, so the new rows show with their selection in one commit.
  const [selection, setSelection] = useState({ signature, value: firstValue });
  if (selection.signature !== signature) setSelection({ signature, value: firstValue });
  const selected = selection.signature === signature ? selection.value : firstValue;

  const announcement = !typed ? '' : search.isError ? 'Search failed' : isCurrent ? count(rows.length) : '';

  return (
    <Dialog.Root open={open} onOpenChange={(next) => !next && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-slate-900/60 backdrop-blur-[1px]" />
        <Dialog.Content
          className="fixed left-1/2 top-4 z-50 flex max-h-[70vh] w-[calc(100vw-2rem)] max-w-2xl -translate-x-1/2 flex-col overflow-hidden rounded-xl bg-white shadow-xl sm:top-[12vh] dark:bg-slate-900 dark:ring-1 dark:ring-slate-700"
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            const { restore, then } = closing.current;
            closing.current = { restore: true };
            if (restore && opener?.isConnected) opener.focus();
            else if (!restore && document.activeElement === document.body) {
              document.getElementById('main')?.focus({ preventScroll: true });
            }
            then?.();
          }}
        >
          <Dialog.Title className="sr-only">Search</Dialog.Title>
          <Dialog.Description className="sr-only">
            Search tasks, projects, teams, people and comments, or type a command. Arrow keys move through the results, Enter
            opens one, Escape closes.
          </Dialog.Description>
          <Command
            label="Search or type a command"
            shouldFilter={false}
            loop
            vimBindings={false}
            value={selected}
            onValueChange={(value) => setSelection({ signature, value })}
            className="flex min-h-0 flex-1 flex-col"
          >
            <div className="flex items-center gap-3 border-b border-slate-200 px-4 dark:border-slate-700">
              <Search className="h-5 w-5 shrink-0 text-slate-500 dark:text-slate-400" aria-hidden />
              <Command.Input
                value={query}
                onValueChange={type}
                placeholder="Search or type a command..."
                className="h-14 min-w-0 flex-1 rounded-md bg-transparent text-base focus-visible:-outline-offset-2 text-slate-900 placeholder:text-slate-500 dark:text-slate-100 dark:placeholder:text-slate-400"
              />
              {isSearching && (
                <span
                  className="h-4 w-4 shrink-0 animate-spin rounded-full border-2 border-brand-600 border-t-transparent"
                  aria-hidden
                />
              )}
            </div>
            {search.isError && typed && (
              <p className="flex items-center gap-2 border-b border-slate-200 px-4 py-2 text-sm text-red-700 dark:border-slate-700 dark:text-red-400">
                Search failed.
                <button
                  type="button"
                  className="font-medium text-brand-700 underline underline-offset-2 dark:text-brand-100"
                  onClick={() => void search.refetch()}
                >
                  Try again
                </button>
              </p>
            )}
            <Command.List label="Results" className="min-h-0 flex-1 overflow-y-auto p-2">
              {groups.map((group) => (
                <Command.Group
                  key={group.heading}
                  heading={
                    <span className="block px-3 pb-2 pt-2 text-xs font-semibold text-slate-600 dark:text-slate-400">
                      {group.heading}
                    </span>
                  }
                >
                  {group.rows.map((row) => (
                    <PaletteRow key={row.value} row={row} />
                  ))}
                </Command.Group>
              ))}
            </Command.List>
            {rows.length === 0 && (
              <p className="px-4 pb-4 pt-2 text-center text-sm text-slate-600 dark:text-slate-300">
                {isSearching ? 'Searching...' : `No results for “${typed}”`}
              </p>
            )}
            <div
              className="hidden items-center gap-4 border-t border-slate-200 px-4 py-2 text-xs text-slate-600 sm:flex dark:border-slate-700 dark:text-slate-400"
              aria-hidden
            >
              <span>↑↓ to move</span>
              <span>Enter to open</span>
              <span>Esc to close</span>
            </div>
          </Command>
          <div role="status" aria-live="polite" aria-atomic className="sr-only">
            {announcement}
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function PaletteRow({ row }: { row: Row }) {
  const Icon = row.icon;
  return (
    <Command.Item
      value={row.value}
      onSelect={row.onSelect}
      className={cn(
        'flex cursor-pointer select-none items-center gap-3 rounded-lg px-3 py-2 text-sm text-slate-900 dark:text-slate-100',
        'data-[selected=true]:bg-slate-100 dark:data-[selected=true]:bg-slate-800',
      )}
    >
      <Icon className="h-4 w-4 shrink-0 text-slate-500 dark:text-slate-400" aria-hidden />
      <span className="min-w-0 flex-1">
        <span className="block truncate font-medium">
          <Highlighted text={row.title} />
        </span>
        {row.detail && (
          <span className="block truncate text-xs text-slate-600 dark:text-slate-400">
            <Highlighted text={row.detail} />
          </span>
        )}
      </span>
      {row.badge && <span className="shrink-0 text-xs text-slate-600 dark:text-slate-400">{row.badge}</span>}
    </Command.Item>
  );
}
