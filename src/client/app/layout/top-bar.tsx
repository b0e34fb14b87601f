import { Clock, ListChecks, LogOut, Menu as MenuIcon, Monitor, Moon, Search, Settings, Sun, User } from 'lucide-react';
import { useNavigate } from 'react-router';
import { humanizeRole, type Theme } from '../../../domain/constants';
import { Avatar } from '../../components/ui/avatar';
import {
  Menu,
  MenuContent,
  MenuItem,
  MenuLabel,
  MenuRadioGroup,
  MenuRadioItem,
  MenuSeparator,
  MenuTrigger,
} from '../../components/ui/menu';
import { useSignOut } from '../../features/auth/use-auth';
import { NotificationsMenu } from '../../features/notifications/components/notifications-menu';
import { usePaletteStore } from '../../features/palette/palette-store';
import { TopBarTimer } from '../../features/time-tracking/components/top-bar-timer';
import { useAuthStore } from '../../stores/auth-store';
import { useThemeStore } from '../../stores/theme-store';
import { SidebarToggle } from './sidebar-toggle';

const THEME_ICON = { light: Sun, dark: Moon, system: Monitor } as const;

export function TopBar() {
  const user = useAuthStore((s) => s.user);
  const theme = useThemeStore((s) => s.theme);
  const setTheme = useThemeStore((s) => s.setTheme);
  const signOut = useSignOut();
  const navigate = useNavigate();
  const ThemeIcon = THEME_ICON[theme];
  const openPalette = usePaletteStore((s) => s.open);
  const warmPalette = usePaletteStore((s) => s.warm);

  // Below 640 px the bar packs tighter and the search drops its (decorative) icon, so that the whole
  // placeholder fits at 390 px.
  return (
    <header className="flex h-(--top-bar-height) shrink-0 items-center gap-2 border-b border-slate-200 bg-white px-3 sm:gap-3 sm:px-4 dark:border-slate-800 dark:bg-slate-900">
      <SidebarToggle
        label="Toggle sidebar"
        icon={MenuIcon}
        className="rounded-lg p-2 text-slate-700 hover:bg-slate-100 lg:hidden dark:text-slate-200 dark:hover:bg-slate-800"
      />
      <search className="relative max-w-md flex-1">
        <label htmlFor="global-search" className="sr-only">
          Search
        </label>
        <Search
          className="pointer-events-none absolute left-3 top-1/2 hidden h-4 w-4 -translate-y-1/2 text-slate-500 sm:block"
          aria-hidden
        />
        {/* Opens the palette: a click, Enter, or the first key typed (which the palette's field starts with). */}
        <input
          id="global-search"
          type="search"
          placeholder="Search tasks, projects..."
          autoComplete="off"
          aria-haspopup="dialog"
          aria-keyshortcuts="Control+K Meta+K /"
          value=""
          onChange={(e) => openPalette(e.target.value)}
          onClick={() => openPalette()}
          onKeyDown={(e) => e.key === 'Enter' && openPalette()}
          onFocus={warmPalette}
          className="h-10 w-full rounded-lg border border-slate-300 bg-slate-50 pl-3 pr-2 text-sm sm:pl-9 sm:pr-9 placeholder:text-slate-500 dark:border-slate-700 dark:bg-slate-800 dark:placeholder:text-slate-400"
        />
        <kbd
          className="pointer-events-none absolute right-3 top-1/2 hidden -translate-y-1/2 rounded border border-slate-300 px-1.5 text-xs text-slate-600 sm:block dark:border-slate-600 dark:text-slate-300"
          aria-hidden
        >
          /
        </kbd>
      </search>
      <div className="ml-auto flex min-w-0 items-center sm:gap-1">
        <TopBarTimer />
        <NotificationsMenu />
        <Menu>
          <MenuTrigger
            className="rounded-lg p-2 text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800"
            aria-label={`Theme: ${theme}`}
          >
            <ThemeIcon className="h-5 w-5" aria-hidden />
          </MenuTrigger>
          <MenuContent className="w-40">
            <MenuRadioGroup value={theme} onValueChange={(v) => setTheme(v as Theme)}>
              <MenuRadioItem value="light">
                <Sun className="h-4 w-4" aria-hidden /> Light
              </MenuRadioItem>
              <MenuRadioItem value="dark">
                <Moon className="h-4 w-4" aria-hidden /> Dark
              </MenuRadioItem>
              <MenuRadioItem value="system">
                <Monitor className="h-4 w-4" aria-hidden /> System
              </MenuRadioItem>
            </MenuRadioGroup>
          </MenuContent>
        </Menu>
        <Menu>
          <MenuTrigger
            className="flex items-center gap-2 rounded-lg p-1 hover:bg-slate-100 dark:hover:bg-slate-800"
            aria-label="User menu"
          >
            <Avatar name={user?.fullName ?? '?'} src={user?.avatar} tone="strong" label={null} />
          </MenuTrigger>
          <MenuContent className="w-64">
            <MenuLabel>
              <p className="truncate text-sm font-semibold">{user?.fullName}</p>
              <p className="truncate text-xs text-slate-600 dark:text-slate-300">{user?.email}</p>
              <p className="mt-1 text-xs capitalize text-slate-600 dark:text-slate-300">{humanizeRole(user?.role ?? '')}</p>
            </MenuLabel>
            <MenuSeparator />
            <MenuItem onSelect={() => navigate('/my-work')}>
              <ListChecks className="h-4 w-4" aria-hidden /> My work
            </MenuItem>
            <MenuItem onSelect={() => navigate('/timesheet')}>
              <Clock className="h-4 w-4" aria-hidden /> Timesheet
            </MenuItem>
            <MenuItem onSelect={() => navigate('/settings#profile')}>
              <User className="h-4 w-4" aria-hidden /> Profile
            </MenuItem>
            <MenuItem onSelect={() => navigate('/settings')}>
              <Settings className="h-4 w-4" aria-hidden /> Settings
            </MenuItem>
            <MenuSeparator />
            <MenuItem onSelect={() => void signOut()}>
              <LogOut className="h-4 w-4" aria-hidden /> Sign out
            </MenuItem>
          </MenuContent>
        </Menu>
      </div>
    </header>
  );
}
