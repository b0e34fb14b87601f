/**
 * A Web Storage kept in memory: for the unit tests, which run in Node (no localStorage or sessionStorage there), to
 * stub the browser's with (`vi.stubGlobal('localStorage', memoryStorage())`).
 */
export function memoryStorage(): Storage {
  const map = new Map<string, string>();
  return {
    get length() {
      return map.size;
    },
    clear: () => map.clear(),
    getItem: (k) => map.get(k) ?? null,
    key: (i) => [...map.keys()][i] ?? null,
    removeItem: (k) => void map.delete(k),
    setItem: (k, v) => void map.set(k, v),
  };
}
