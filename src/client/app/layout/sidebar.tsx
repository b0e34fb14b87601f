import { ChevronsLeft, ChevronsRight, Plus } from 'lucide-react';
import type { MouseEvent } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { LIMITS } from '../../../domain/constants';
import { canUseAdminArea } from '../../../domain/permissions';
import { Logo } from '../../components/ui/logo';
import { cn } from '../../lib/cn';
import { useOffersNewTask } from '../../lib/use-work-rights';
import { useAuthStore } from '../../stores/auth-store';
import { useQuickAddStore, useSidebarStore } from '../../stores/ui-store';
import { ADMIN_NAV, isNavActive, MAIN_NAV, type NavItem, SETTINGS_NAV } from './nav';
import { SidebarToggle } from './sidebar-toggle';

const isNarrow = () => window.innerWidth < LIMITS.sidebarBreakpointPx;
const toggleClass = 'rounded-md p-1.5 text-slate-600 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800';

export function Sidebar() {
  const collapsed = useSidebarStore((s) => s.collapsed);
  const setCollapsed = useSidebarStore((s) => s.setCollapsed);
  const role = useAuthStore((s) => s.user?.role);
  const openQuickAdd = useQuickAddStore((s) => s.setOpen);
  // Someone who only views, or is only a guest, adds no tasks (issue 41): no Quick Add.
  const offersNewTask = useOffersNewTask();
  const { pathname } = useLocation();
  const navigate = useNavigate();

  /** On narrow screens, collapse first and navigate 150 ms later (spec §2). */
  const go = (e: MouseEvent<HTMLAnchorElement>, to: string) => {
    if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
    e.preventDefault();
    if (isNarrow() && !collapsed) {
      setCollapsed(true);
      window.setTimeout(() => navigate(to), LIMITS.sidebarNavDelayMs);
    } else {
      navigate(to);
    }
  };

  const link = (item: NavItem) => {
    const active = isNavActive(pathname, item.to);
    const Icon = item.icon;
    return (
      <li key={item.to}>
        <a
          href={item.to}
          onClick={(e) => go(e, item.to)}
          aria-current={active ? 'page' : undefined}
          title={collapsed ? item.label : undefined}
          className={cn(
            'flex items-center gap-3 rounded-lg px-3 py-2 text-sm font-medium transition-colors',
            active
              ? 'bg-brand-50 text-brand-700 dark:bg-indigo-950 dark:text-indigo-200'
              : 'text-slate-700 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800',
            collapsed && 'justify-center px-2',
          )}
        >
          <Icon className="h-5 w-5 shrink-0" aria-hidden />
          <span className={cn(collapsed && 'sr-only')}>{item.label}</span>
        </a>
      </li>
    );
  };

  return (
    <aside
      className={cn(
        'flex h-full shrink-0 flex-col border-r border-slate-200 bg-white transition-[width] duration-200 dark:border-slate-800 dark:bg-slate-900',
        collapsed ? 'w-20' : 'w-64',
      )}
      aria-label="Sidebar"
    >
      <div
        className={cn(
          'flex h-(--top-bar-height) items-center border-b border-slate-200 px-4 dark:border-slate-800',
          collapsed ? 'justify-center' : 'justify-between',
        )}
      >
        <Logo collapsed={collapsed} showEdition />
        {!collapsed && <SidebarToggle label="Collapse sidebar" icon={ChevronsLeft} className={toggleClass} />}
      </div>
      {collapsed && <SidebarToggle label="Expand sidebar" icon={ChevronsRight} className={`mx-auto mt-2 ${toggleClass}`} />}
      {offersNewTask && (
        <div className="px-3 pt-4">
          <button
            type="button"
            onClick={() => openQuickAdd(true)}
            className={cn(
              'flex w-full items-center justify-center gap-2 rounded-lg bg-brand-600 py-2 text-sm font-medium text-white hover:bg-brand-700',
            )}
            aria-label="Quick Add"
            title="Quick Add"
          >
            <Plus className="h-4 w-4" aria-hidden />
            {!collapsed && <span>Quick Add</span>}
          </button>
        </div>
      )}
      <nav aria-label="Main" className="flex-1 overflow-y-auto px-3 py-4">
        <ul className="space-y-1">{MAIN_NAV.map(link)}</ul>
      </nav>
      <nav aria-label="Account" className="border-t border-slate-200 px-3 py-3 dark:border-slate-800">
        <ul className="space-y-1">
          {link(SETTINGS_NAV)}
          {canUseAdminArea(role) && link(ADMIN_NAV)}
        </ul>
      </nav>
    </aside>
  );
}
