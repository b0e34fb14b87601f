import { create } from 'zustand';

interface PaletteState {
  isOpen: boolean;
  /** Its code is wanted (the browser went idle after start-up, the top bar's box got focus): load it, closed. */
  isWarm: boolean;
  /** What the field starts with (a key typed into the top bar's box). */
  initialQuery: string;
  open: (initialQuery?: string) => void;
  close: () => void;
  warm: () => void;
}

/** The command palette's state: Ctrl/Cmd+K, `/` and the top bar's search box all open the one palette. */
export const usePaletteStore = create<PaletteState>()((set) => ({
  isOpen: false,
  isWarm: false,
  initialQuery: '',
  open: (initialQuery = '') => set({ isOpen: true, initialQuery }),
  close: () => set({ isOpen: false }),
  warm: () => set({ isWarm: true }),
}));
