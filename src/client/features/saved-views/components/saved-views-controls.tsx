import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { useQueryClient } from '@tanstack/react-query';
import { Bookmark, BookmarkPlus, Check, ChevronDown, Pencil, Save, Trash2 } from 'lucide-react';
import { lazy, type ReactNode, Suspense, useRef, useState } from 'react';
import { toast } from 'sonner';
import type { SavedViewDto } from '../../../../domain/schemas/saved-view';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { Menu, MenuContent, MenuSeparator, MenuTrigger } from '../../../components/ui/menu';
import { cn } from '../../../lib/cn';
import { toastError } from '../../../lib/errors';
import { useUrlParams } from '../../../lib/use-url-params';
import { useAuthStore } from '../../../stores/auth-store';
import { savedViewsQueryOptions, sharingText, useDeleteSavedView, useSavedViews, useUpdateSavedView } from '../api/saved-views';
import { configFromParams, paramsFromConfig, SAVED_VIEW_PARAM, sameConfig } from '../view-url';

// The palette's list of views comes from this module too (app/ loads it for both): one chunk, not a shared one.
export { usePaletteViews } from '../api/saved-views';
export const VIEW_ICON = Bookmark;

// The form (and zod with it) loads when first wanted, never with the board.
const loadDialog = () => import('./view-dialog');
const ViewDialog = lazy(() => loadDialog().then((m) => ({ default: m.ViewDialog })));

type Open = { mode: 'save' } | { mode: 'rename' | 'delete'; view: SavedViewDto } | null;

const itemClass =
  'flex cursor-pointer select-none items-center gap-2 rounded-lg px-3 py-2 text-sm outline-none data-[disabled]:cursor-default data-[highlighted]:bg-slate-100 data-[disabled]:text-slate-500 dark:data-[highlighted]:bg-slate-800 dark:data-[disabled]:text-slate-400';

/**
 * Beside the Tasks page's filters: the 'Views' menu (my views and those shared with my teams; choosing one sets the
 * page's URL to it; the view last chosen can be updated with the current filters, renamed or deleted by whoever may
 * edit it) and 'Save view'. Composed into the page by app/ and loaded after the board.
 */
export function SavedViewsControls() {
  const [params, update] = useUrlParams();
  const activeId = params.get(SAVED_VIEW_PARAM);
  const myId = useAuthStore((s) => s.user?.id);
  const qc = useQueryClient();
  const [isMenuOpen, setMenuOpen] = useState(false);
  const [open, setOpen] = useState<Open>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const views = useSavedViews(isMenuOpen || Boolean(activeId));
  const updateView = useUpdateSavedView();
  const deleteView = useDeleteSavedView();

  const active = views.data?.find((v) => v.id === activeId);
  const current = configFromParams(params);
  const warm = () => {
    void qc.prefetchQuery(savedViewsQueryOptions());
  };
  // A dialog opened from the menu gives focus back to the menu's button (the item it was opened from is gone).
  const closeToMenu = () => {
    setOpen(null);
    requestAnimationFrame(() => trigger.current?.focus());
  };

  const saveActive = async (view: SavedViewDto) => {
    try {
      await updateView.mutateAsync({ id: view.id, input: { config: current } });
      toast.success(`View “${view.name}” updated`);
    } catch (error) {
      toastError(error, 'Failed to update view');
    }
  };
  const remove = async (view: SavedViewDto) => {
    try {
      await deleteView.mutateAsync(view.id);
      toast.success(`View “${view.name}” deleted`);
      if (activeId === view.id) update({ [SAVED_VIEW_PARAM]: null });
    } catch (error) {
      toastError(error, 'Failed to delete view');
    }
    closeToMenu();
  };

  const personal = views.data?.filter((v) => v.teamId === null) ?? [];
  const shared = views.data?.filter((v) => v.teamId !== null) ?? [];
  const viewItem = (view: SavedViewDto) => (
    <DropdownMenu.RadioItem
      key={view.id}
      value={view.id}
      className={itemClass}
      onSelect={() => update(paramsFromConfig(view.config, view.id))}
    >
      <span className="flex w-4 shrink-0 justify-center">
        <DropdownMenu.ItemIndicator>
          <Check className="h-4 w-4" aria-hidden />
        </DropdownMenu.ItemIndicator>
      </span>
      <span className="min-w-0 flex-1">
        <span className="block truncate font-medium">{view.name}</span>
        {view.teamId !== null && (
          <span className="block truncate text-xs text-slate-600 dark:text-slate-400">{sharingText(view, myId)}</span>
        )}
      </span>
    </DropdownMenu.RadioItem>
  );

  let list: ReactNode;
  if (views.isPending) list = <Note>Loading views...</Note>;
  else if (views.isError)
    list = (
      <>
        <Note>The views could not be loaded.</Note>
        <DropdownMenu.Item className={itemClass} onSelect={() => void views.refetch()}>
          Try again
        </DropdownMenu.Item>
      </>
    );
  else if (views.data.length === 0)
    list = (
      <Note>
        <span className="block font-medium text-slate-900 dark:text-slate-100">No saved views yet</span>
        Set filters, then choose 'Save view' to keep them.
      </Note>
    );
  else
    list = (
      <DropdownMenu.RadioGroup value={activeId ?? ''}>
        {personal.length > 0 && <Heading>My views</Heading>}
        {personal.map(viewItem)}
        {shared.length > 0 && <Heading>Shared with my teams</Heading>}
        {shared.map(viewItem)}
      </DropdownMenu.RadioGroup>
    );

  return (
    <div className="flex gap-2">
      <Menu open={isMenuOpen} onOpenChange={setMenuOpen}>
        <MenuTrigger asChild>
          <Button ref={trigger} variant="secondary" onPointerEnter={warm} onFocus={warm}>
            <Bookmark className="h-4 w-4" aria-hidden />
            <span className="max-w-32 truncate">{active ? `Views: ${active.name}` : 'Views'}</span>
            <ChevronDown className="h-4 w-4" aria-hidden />
          </Button>
        </MenuTrigger>
        <MenuContent align="start" className="max-h-[70vh] w-64 overflow-y-auto">
          {list}
          {active?.canEdit && (
            <>
              <MenuSeparator />
              <Heading>
                <span className="block truncate">{active.name}</span>
              </Heading>
              <DropdownMenu.Item
                className={itemClass}
                disabled={sameConfig(active.config, current)}
                onSelect={() => void saveActive(active)}
              >
                <Save className="h-4 w-4" aria-hidden /> Update with current filters
              </DropdownMenu.Item>
              <DropdownMenu.Item className={itemClass} onSelect={() => setOpen({ mode: 'rename', view: active })}>
                <Pencil className="h-4 w-4" aria-hidden /> Rename
              </DropdownMenu.Item>
              <DropdownMenu.Item
                className={cn(itemClass, 'text-red-700 dark:text-red-400')}
                onSelect={() => setOpen({ mode: 'delete', view: active })}
              >
                <Trash2 className="h-4 w-4" aria-hidden /> Delete
              </DropdownMenu.Item>
            </>
          )}
        </MenuContent>
      </Menu>
      <Button variant="secondary" onClick={() => setOpen({ mode: 'save' })} onPointerEnter={() => void loadDialog()}>
        <BookmarkPlus className="h-4 w-4" aria-hidden />
        Save view
      </Button>

      <Suspense fallback={null}>
        {open?.mode === 'save' && (
          <ViewDialog
            config={current}
            onSaved={(view) => update({ [SAVED_VIEW_PARAM]: view.id })}
            onClose={() => setOpen(null)}
          />
        )}
        {open?.mode === 'rename' && <ViewDialog view={open.view} config={open.view.config} onClose={closeToMenu} />}
      </Suspense>
      <ConfirmDialog
        open={open?.mode === 'delete'}
        title="Delete view"
        message={`Delete the view “${open?.mode === 'delete' ? open.view.name : ''}”?${open?.mode === 'delete' && open.view.teamId ? ' Its team loses it too.' : ''}`}
        confirmLabel="Delete"
        isLoading={deleteView.isPending}
        onConfirm={() => open?.mode === 'delete' && void remove(open.view)}
        onCancel={closeToMenu}
      />
    </div>
  );
}

const Heading = ({ children }: { children: ReactNode }) => (
  <DropdownMenu.Label className="px-3 pb-2 pt-2 text-xs font-semibold text-slate-600 dark:text-slate-400">
    {children}
  </DropdownMenu.Label>
);

const Note = ({ children }: { children: ReactNode }) => (
  <DropdownMenu.Label className="px-3 py-3 text-sm font-normal text-slate-600 dark:text-slate-300">{children}</DropdownMenu.Label>
);
