import { useEffect, useRef, useState } from 'react';

/** How long typing in a search box pauses before the search is sent. */
export const SEARCH_DEBOUNCE_MS = 250;

/** `value` once it has stopped changing for `ms`: a search box's text becomes one request, not one per key. */
export function useDebouncedValue<T>(value: T, ms = SEARCH_DEBOUNCE_MS): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

/**
 * A search box that mirrors a URL parameter: the typed text reaches the URL (`commit`) once typing pauses,
 * and a change of the URL itself (Clear All, the back button) resets the box. Only a new settled text is
 * committed, so a URL change is never undone by an older one.
 */
export function useUrlSearchBox(urlValue: string, commit: (text: string) => void, ms = SEARCH_DEBOUNCE_MS) {
  const [text, setText] = useState(urlValue);
  useEffect(() => setText(urlValue), [urlValue]);
  const settled = useDebouncedValue(text, ms);
  const latest = useRef({ urlValue, commit });
  useEffect(() => {
    latest.current = { urlValue, commit };
  });
  useEffect(() => {
    if (settled !== latest.current.urlValue) latest.current.commit(settled);
  }, [settled]);
  return [text, setText] as const;
}
