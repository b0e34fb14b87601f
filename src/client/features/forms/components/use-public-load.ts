import { useEffect, useState } from 'react';

export type PublicLoad<T> = { state: 'loading' } | { state: 'done'; data: T } | { state: 'failed'; error: unknown };

/**
 * One read of a public page's data (no TanStack Query there: the public pages run outside the app shell and its
 * QueryClientProvider, and stay light). Aborted when the page goes or the key changes.
 */
export function usePublicLoad<T>(key: string, load: (signal: AbortSignal) => Promise<T>): PublicLoad<T> {
  const [result, setResult] = useState<PublicLoad<T>>({ state: 'loading' });
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key names what is loaded; `load` is a new function each render.
  useEffect(() => {
    const abort = new AbortController();
    setResult({ state: 'loading' });
    load(abort.signal).then(
      (data) => !abort.signal.aborted && setResult({ state: 'done', data }),
      (error: unknown) => !abort.signal.aborted && setResult({ state: 'failed', error }),
    );
    return () => abort.abort();
  }, [key]);
  return result;
}
