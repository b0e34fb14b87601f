import { create } from 'zustand';
import { createPersistedStore } from './persisted-store';

interface SidebarState {
  collapsed: boolean;
  setCollapsed: (collapsed: boolean) => void;
  toggle: () => void;
}

/** The sidebar's collapsed flag, persisted (spec §4). */
export const useSidebarStore = createPersistedStore<SidebarState>('sidebar', (set) => ({
  collapsed: false,
  setCollapsed: (collapsed) => set({ collapsed }),
  toggle: () => set((s) => ({ collapsed: !s.collapsed })),
}));

/** What a New Task form opened from elsewhere starts with (the calendar's day: its date, its project filter). */
export interface NewTaskPreset {
  dueDate?: string;
  projectId?: string;
}

interface QuickAddState {
  isOpen: boolean;
  preset: NewTaskPreset | null;
  setOpen: (isOpen: boolean) => void;
  /** Opens the form with these values filled in. */
  openWith: (preset: NewTaskPreset) => void;
}

/** Quick Add in the sidebar opens the New Task form, wherever the user is. */
export const useQuickAddStore = create<QuickAddState>()((set) => ({
  isOpen: false,
  preset: null,
  // Closing keeps the preset (the form shows it while it fades out); a plain open starts empty.
  setOpen: (isOpen) => set(isOpen ? { isOpen, preset: null } : { isOpen }),
  openWith: (preset) => set({ isOpen: true, preset }),
}));
