import { useCallback, useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';

/**
 * The page's query parameters, and a function that sets or (with null, undefined or '') removes some of
 * them, replacing the history entry. React Router's setSearchParams does not queue functional updates:
 * two changes before the next render (two filters picked in one moment) would both start from the same
 * URL, and the second would undo the first. Here each change starts from the last one asked for, until
 * the URL has caught up.
 */
export function useUrlParams() {
  const [params, setParams] = useSearchParams();
  const current = useRef(params);
  const asked = useRef<URLSearchParams | null>(null);
  useEffect(() => {
    current.current = params;
    asked.current = null;
  }, [params]);

  const update = useCallback(
    (changes: Record<string, string | readonly string[] | null | undefined>) => {
      const next = new URLSearchParams(asked.current ?? current.current);
      for (const [k, v] of Object.entries(changes)) {
        next.delete(k);
        // An array repeats its parameter (the custom field filters, `cf`); an empty one clears it.
        if (Array.isArray(v)) for (const item of v) next.append(k, item);
        else if (v) next.set(k, v as string);
      }
      asked.current = next;
      setParams(next, { replace: true });
    },
    [setParams],
  );
  return [params, update] as const;
}

/**
 * `?new=1` in the page's URL (the command palette's 'New Project', 'New Team'): calls `open` once, then drops the flag,
 * so a reload or Back does not open the form again.
 */
export function useOpenOnNewFlag(open: () => void) {
  const [params, setParams] = useUrlParams();
  const wanted = params.get('new') === '1';
  const opened = useRef(open);
  opened.current = open;
  useEffect(() => {
    if (!wanted) return;
    opened.current();
    setParams({ new: null });
  }, [wanted, setParams]);
}
