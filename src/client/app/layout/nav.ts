import {
  BarChart3,
  Calendar,
  CheckSquare,
  FolderKanban,
  GanttChart,
  LayoutDashboard,
  type LucideIcon,
  Settings,
  Shield,
  StickyNote,
  Users,
} from 'lucide-react';

export interface NavItem {
  label: string;
  to: string;
  icon: LucideIcon;
}

export const MAIN_NAV: NavItem[] = [
  { label: 'Dashboard', to: '/dashboard', icon: LayoutDashboard },
  { label: 'Tasks', to: '/tasks', icon: CheckSquare },
  { label: 'Projects', to: '/projects', icon: FolderKanban },
  { label: 'Teams', to: '/teams', icon: Users },
  { label: 'Notes', to: '/notes', icon: StickyNote },
  { label: 'Calendar', to: '/calendar', icon: Calendar },
  { label: 'Timeline', to: '/timeline', icon: GanttChart },
  { label: 'Analytics', to: '/analytics', icon: BarChart3 },
];

export const SETTINGS_NAV: NavItem = { label: 'Settings', to: '/settings', icon: Settings };
export const ADMIN_NAV: NavItem = { label: 'Admin Panel', to: '/admin', icon: Shield };

/** An entry is highlighted when the path equals its route or starts with the route plus a slash. */
export function isNavActive(pathname: string, to: string): boolean {
  return pathname === to || pathname.startsWith(`${to}/`);
}
