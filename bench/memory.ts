// The 60 s mixed load (issue 42, "Server memory"): reads and writes at once, as a team's day puts them on one
// instance, with the server's RSS sampled every 200 ms; then, once the load has ended, what holds the memory
// (bench/memory-probe.mjs, loaded into the server: heap, external, array buffers, before and after a full GC).
import autocannon from 'autocannon';
import { type RequestSpec, pathOf, peakSampler } from './load';

export interface MixedPart {
  name: string;
  spec: RequestSpec;
  headers: Record<string, string>;
  connections: number;
}

export interface MemorySnapshot {
  rss: number;
  heapTotal: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
  spaces: Record<string, number>;
}

export interface MixedRun {
  seconds: number;
  parts: { name: string; connections: number; requests: number; rps: number; non2xx: number; errors: number }[];
  rssIdleMb: number;
  rssMaxMb: number;
  /** RSS 2 s after the load ended. */
  rssAfterMb: number;
  /** What the server holds after the load (probe: before / after a full garbage collection), when the probe answered. */
  held?: { before: MemorySnapshot; after: MemorySnapshot; handles: Record<string, number> };
}

export async function measureMixed(o: {
  url: string;
  parts: MixedPart[];
  seconds: number;
  rssMb: () => number;
  /** Asks the server's memory probe and returns its line's JSON (undefined without one). */
  held: () => Promise<MixedRun['held']>;
}): Promise<MixedRun> {
  const rssIdleMb = o.rssMb();
  const rss = peakSampler(o.rssMb);
  const started = performance.now();
  const results = await Promise.all(
    o.parts.map(async (p) => {
      let n = 0;
      const statuses: Record<string, number> = {};
      const instance = autocannon({
        url: o.url,
        connections: p.connections,
        duration: o.seconds,
        timeout: 30,
        headers: { ...p.headers, ...(p.spec.body ? { 'content-type': 'application/json' } : {}) },
        requests: [
          {
            method: p.spec.method,
            setupRequest: (req: { method?: string; path?: string; body?: string }) => {
              req.method = p.spec.method;
              req.path = pathOf(p.spec, n++);
              if (p.spec.body) req.body = JSON.stringify(p.spec.body());
              return req;
            },
          },
        ],
      });
      instance.on('response', (_c: unknown, status: number) => {
        statuses[status] = (statuses[status] ?? 0) + 1;
      });
      const r = await instance;
      const all = Object.values(statuses).reduce((a, b) => a + b, 0);
      const ok = Object.entries(statuses)
        .filter(([s]) => s.startsWith('2'))
        .reduce((a, [, c]) => a + c, 0);
      return { name: p.name, connections: p.connections, requests: all, ok, non2xx: all - ok, errors: r.errors + r.timeouts };
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const rssMaxMb = rss.stop();
  await new Promise((r) => setTimeout(r, 2000));
  const rssAfterMb = o.rssMb();
  return {
    seconds,
    parts: results.map(({ ok, ...r }) => ({ ...r, rps: ok / seconds })),
    rssIdleMb,
    rssMaxMb,
    rssAfterMb,
    held: await o.held(),
  };
}
