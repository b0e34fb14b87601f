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

interface QuickAddState {
  isOpen: boolean;
  setOpen: (isOpen: boolean) => void;
}

/** Quick Add in the sidebar opens the New Task form, wherever the user is. */
export const useQuickAddStore = create<QuickAddState>()((set) => ({
  isOpen: false,
  setOpen: (isOpen) => set({ isOpen }),
}));
