import {
  BarChart3,
  Bell,
  Calendar,
  CheckSquare,
  FolderKanban,
  LayoutDashboard,
  ListChecks,
  LogOut,
  type LucideIcon,
  Monitor,
  Moon,
  Plus,
  Settings,
  Shield,
  StickyNote,
  Sun,
  UserPlus,
  Users,
} from 'lucide-react';
import type { Theme } from '../../../domain/constants';

/**
 * What a command does: open a page, or act (after the palette has closed and given focus back). New Project and New
 * Team open their page with `?new=1`, which asks the page for its form (the forms live in those pages' chunks).
 */
export type CommandAction = { go: string } | { act: 'new-task' | 'sign-out' } | { theme: Theme };

export interface PaletteCommand {
  id: string;
  group: 'Pages' | 'Create' | 'Theme' | 'Account';
  label: string;
  /** Other words it answers to. */
  keywords?: string;
  icon: LucideIcon;
  action: CommandAction;
  /** Super admins only. */
  isAdmin?: boolean;
  /** Adds work to a team (New Task, New Project, New Note): only for someone offered it (not a mere viewer or guest, issue 41). */
  addsWork?: boolean;
}

const page = (label: string, to: string, icon: LucideIcon, keywords?: string, isAdmin?: boolean): PaletteCommand => ({
  id: `go:${to}`,
  group: 'Pages',
  label: `Go to ${label}`,
  keywords,
  icon,
  action: { go: to },
  isAdmin,
});

/** Every command, in the order shown. The pages mirror the sidebar and the user menu. */
export const COMMANDS: readonly PaletteCommand[] = [
  page('Dashboard', '/dashboard', LayoutDashboard, 'home overview'),
  page('Tasks', '/tasks', CheckSquare, 'board list kanban'),
  page('My work', '/my-work', ListChecks, 'assigned mine me'),
  page('Projects', '/projects', FolderKanban),
  page('Teams', '/teams', Users, 'members people'),
  page('Notes', '/notes', StickyNote),
  page('Calendar', '/calendar', Calendar, 'due dates schedule'),
  page('Analytics', '/analytics', BarChart3, 'reports charts'),
  page('Notifications', '/notifications', Bell, 'inbox alerts'),
  page('Settings', '/settings', Settings, 'profile account preferences password'),
  page('Admin Panel', '/admin', Shield, 'administration users', true),
  {
    id: 'new-task',
    group: 'Create',
    label: 'New Task',
    keywords: 'create add',
    icon: Plus,
    action: { act: 'new-task' },
    addsWork: true,
  },
  {
    id: 'new-project',
    group: 'Create',
    label: 'New Project',
    keywords: 'create add',
    icon: Plus,
    action: { go: '/projects?new=1' },
    addsWork: true,
  },
  {
    id: 'new-note',
    group: 'Create',
    label: 'New Note',
    keywords: 'create add document',
    icon: Plus,
    action: { go: '/notes?new=1' },
    addsWork: true,
  },
  { id: 'new-team', group: 'Create', label: 'New Team', keywords: 'create add', icon: UserPlus, action: { go: '/teams?new=1' } },
  {
    id: 'theme:light',
    group: 'Theme',
    label: 'Light theme',
    keywords: 'switch appearance mode',
    icon: Sun,
    action: { theme: 'light' },
  },
  {
    id: 'theme:dark',
    group: 'Theme',
    label: 'Dark theme',
    keywords: 'switch appearance mode',
    icon: Moon,
    action: { theme: 'dark' },
  },
  {
    id: 'theme:system',
    group: 'Theme',
    label: 'System theme',
    keywords: 'switch appearance mode auto',
    icon: Monitor,
    action: { theme: 'system' },
  },
  {
    id: 'sign-out',
    group: 'Account',
    label: 'Sign out',
    keywords: 'log out logout exit',
    icon: LogOut,
    action: { act: 'sign-out' },
  },
];

const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
const words = (s: string) =>
  fold(s)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);

/** Every word typed starts a word of the text (any order, any case, accents ignored): 'go proj' finds 'Go to Projects'. */
export function matchesWords(query: string, text: string): boolean {
  const typed = words(query);
  const own = words(text);
  return typed.every((t) => own.some((w) => w.startsWith(t)));
}

/**
 * The commands for this query (all of them for an empty one), without the admin's unless `isAdmin`, nor New Task, New
 * Project and New Note unless `offersWork`.
 */
export function matchCommands(query: string, isAdmin: boolean, offersWork = true): PaletteCommand[] {
  return COMMANDS.filter(
    (c) => (isAdmin || !c.isAdmin) && (offersWork || !c.addsWork) && matchesWords(query, `${c.label} ${c.keywords ?? ''}`),
  );
}
