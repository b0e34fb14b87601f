import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import { STORAGE_KEYS } from '../../domain/constants';

interface SidebarState {
  collapsed: boolean;
  setCollapsed: (collapsed: boolean) => void;
  toggle: () => void;
}

/** The sidebar's collapsed flag, persisted (spec §4). */
export const useSidebarStore = create<SidebarState>()(
  persist(
    (set) => ({
      collapsed: false,
      setCollapsed: (collapsed) => set({ collapsed }),
      toggle: () => set((s) => ({ collapsed: !s.collapsed })),
    }),
    { name: STORAGE_KEYS.sidebar },
  ),
);

interface QuickAddState {
  isOpen: boolean;
  setOpen: (isOpen: boolean) => void;
}

/** Quick Add in the sidebar opens the New Task form, wherever the user is. */
export const useQuickAddStore = create<QuickAddState>()((set) => ({
  isOpen: false,
  setOpen: (isOpen) => set({ isOpen }),
}));
