import { type ComponentType, useEffect, useState } from 'react';
import { toast } from '../../../lib/toast';
import { usePaletteStore } from '../palette-store';

export type PaletteLoader = () => Promise<ComponentType>;

/** Typing goes to these: `/` is a character there, not a shortcut. */
const isTyping = (target: EventTarget | null) =>
  target instanceof Element && target.matches('input,textarea,select,[contenteditable]');

/**
 * The always-loaded, small part of the palette: the shortcuts (Ctrl/Cmd+K anywhere, `/` outside a text field), and
 * the palette itself (`load`: its code, composed in app/), fetched when first opened or warmed (the browser idle a
 * little after start-up, the top bar's box focused), so that the first Ctrl+K finds it ready and it records task
 * pages as recent items, and never with the page's own start-up.
 */
export function PaletteHost({ load }: { load: PaletteLoader }) {
  const isOpen = usePaletteStore((s) => s.isOpen);
  const isWarm = usePaletteStore((s) => s.isWarm);
  const [Palette, setPalette] = useState<ComponentType | null>(null);

  useEffect(() => {
    if (Palette || !(isOpen || isWarm)) return;
    // A failed fetch (offline, a new deployment) is said if the palette was asked for, and tried again next time.
    load().then(
      (loaded) => setPalette(() => loaded),
      () => {
        const state = usePaletteStore.getState();
        if (state.isOpen) toast.error('Search could not be opened.');
        state.close();
      },
    );
  }, [isOpen, isWarm, Palette, load]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const state = usePaletteStore.getState();
      if (e.defaultPrevented || e.isComposing) return;
      if (e.key.toLowerCase() === 'k' && (e.metaKey || e.ctrlKey) && !e.altKey && !e.shiftKey) {
        e.preventDefault();
        if (state.isOpen) state.close();
        else state.open();
      } else if (e.key === '/' && !e.ctrlKey && !e.metaKey && !e.altKey && !isTyping(e.target)) {
        e.preventDefault();
        state.open();
      }
    };
    window.addEventListener('keydown', onKey);
    const warm = usePaletteStore.getState().warm;
    const idle = setTimeout(() => (typeof requestIdleCallback === 'function' ? requestIdleCallback(warm) : warm()), 3_000);
    return () => {
      window.removeEventListener('keydown', onKey);
      clearTimeout(idle);
    };
  }, []);

  return Palette && <Palette />;
}
