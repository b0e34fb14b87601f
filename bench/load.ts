// One load run with autocannon on 127.0.0.1: a warm-up, then the measured run, sampling the
// server's RSS meanwhile.
import { request } from 'node:http';
import { gzipSync } from 'node:zlib';
import autocannon from 'autocannon';

export interface RequestSpec {
  method: 'GET' | 'POST' | 'PATCH';
  /** A fixed path, paths taken in turn, or one made per request. */
  path: string | string[] | (() => string);
  /** A JSON body made per request. */
  body?: () => unknown;
}

export interface LoadResult {
  connections: number;
  seconds: number;
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  max: number;
  /** Average response size on the wire, headers included (reads ask for gzip/br like a browser). */
  wireBytes: number;
  non2xx: number;
  errors: number;
  statusCodes: Record<string, number>;
  rssMaxMb: number;
  /** The server process's own CPU time per request (user + system), whatever else loads the machine. */
  cpuMsPerRequest: number;
}

/** Samples `read` (the server's RSS) every 200 ms; `stop` ends it and answers the largest value read. */
export function peakSampler(read: () => number): { stop(): number } {
  let max = read();
  const timer = setInterval(() => {
    max = Math.max(max, read());
  }, 200);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(max, read());
    },
  };
}

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! : Number.NaN;

export function pathOf(spec: RequestSpec, n = 0): string {
  if (typeof spec.path === 'function') return spec.path();
  if (Array.isArray(spec.path)) return spec.path[n % spec.path.length]!;
  return spec.path;
}

function cannonRequests(spec: RequestSpec) {
  let n = 0;
  return [
    {
      method: spec.method,
      setupRequest: (req: { method?: string; path?: string; body?: string }) => {
        req.method = spec.method;
        req.path = pathOf(spec, n++);
        if (spec.body) req.body = JSON.stringify(spec.body());
        return req;
      },
    },
  ];
}

async function once(
  url: string,
  spec: RequestSpec,
  headers: Record<string, string>,
  connections: number,
  seconds: number,
  onResponse?: (status: number, bytes: number, ms: number) => void,
) {
  const instance = autocannon({
    url,
    connections,
    duration: seconds,
    timeout: 30,
    headers: { ...headers, ...(spec.body ? { 'content-type': 'application/json' } : {}) },
    requests: cannonRequests(spec),
  });
  if (onResponse) {
    instance.on('response', (_client: unknown, status: number, bytes: number, ms: number) => onResponse(status, bytes, ms));
  }
  return await instance;
}

export async function runLoad(opts: {
  url: string;
  spec: RequestSpec;
  headers: Record<string, string>;
  connections: number;
  seconds: number;
  warmupSeconds: number;
  rssMb: () => number;
  cpuMs: () => number;
}): Promise<LoadResult> {
  if (opts.warmupSeconds > 0) await once(opts.url, opts.spec, opts.headers, opts.connections, opts.warmupSeconds);
  const latencies: number[] = [];
  const statusCodes: Record<string, number> = {};
  let bytes = 0;
  let rssMaxMb = opts.rssMb();
  const sampler = setInterval(() => {
    rssMaxMb = Math.max(rssMaxMb, opts.rssMb());
  }, 200);
  const cpu0 = opts.cpuMs();
  const started = performance.now();
  const result = await once(opts.url, opts.spec, opts.headers, opts.connections, opts.seconds, (status, b, ms) => {
    latencies.push(ms);
    statusCodes[status] = (statusCodes[status] ?? 0) + 1;
    bytes += b;
  });
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  rssMaxMb = Math.max(rssMaxMb, opts.rssMb());
  latencies.sort((a, b) => a - b);
  const ok = Object.entries(statusCodes)
    .filter(([s]) => s.startsWith('2'))
    .reduce((n, [, c]) => n + c, 0);
  return {
    connections: opts.connections,
    seconds,
    requests: latencies.length,
    rps: ok / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: latencies[latencies.length - 1] ?? Number.NaN,
    wireBytes: latencies.length ? bytes / latencies.length : 0,
    non2xx: latencies.length - ok,
    errors: result.errors + result.timeouts,
    statusCodes,
    rssMaxMb,
    cpuMsPerRequest: (opts.cpuMs() - cpu0) / Math.max(1, latencies.length),
  };
}

export interface Probe {
  status: number;
  /** JSON body size, uncompressed. */
  bytes: number;
  /** What the server sent for `accept-encoding: gzip, deflate, br` and the encoding it chose. */
  wireBytes: number;
  encoding: string;
  /** For comparison: the body gzipped at the default level. */
  gzipBytes: number;
  items: number | null;
}

/** One request per path, to record the response size plain and compressed (summed over the paths). */
export async function probe(url: string, spec: RequestSpec, headers: Record<string, string>): Promise<Probe> {
  const paths = Array.isArray(spec.path) ? spec.path : [pathOf(spec)];
  const total: Probe = { status: 0, bytes: 0, wireBytes: 0, encoding: 'identity', gzipBytes: 0, items: null };
  for (const path of paths) {
    const one = await probeOne(url, path, spec, headers);
    total.status = Math.max(total.status, one.status);
    total.bytes += one.bytes;
    total.wireBytes += one.wireBytes;
    total.gzipBytes += one.gzipBytes;
    total.encoding = one.encoding;
    if (one.items !== null) total.items = (total.items ?? 0) + one.items;
  }
  return total;
}

async function probeOne(url: string, path: string, spec: RequestSpec, headers: Record<string, string>): Promise<Probe> {
  const init = {
    method: spec.method,
    headers: { ...headers, ...(spec.body ? { 'content-type': 'application/json' } : {}) },
    body: spec.body ? JSON.stringify(spec.body()) : undefined,
  };
  const plain = await fetch(url + path, { ...init, headers: { ...init.headers, 'accept-encoding': 'identity' } });
  const text = await plain.text();
  let items: number | null = null;
  try {
    const json = JSON.parse(text) as { tasks?: unknown[]; columns?: Record<string, unknown[]> };
    // A list page has `tasks`; a board has `columns` of tasks.
    if (Array.isArray(json.tasks)) items = json.tasks.length;
    else if (json.columns && typeof json.columns === 'object')
      items = Object.values(json.columns).reduce((n, c) => n + c.length, 0);
  } catch {
    items = null;
  }
  let wireBytes = Buffer.byteLength(text);
  let encoding = 'identity';
  if (spec.method === 'GET') {
    // Raw bytes on the wire: node's fetch would decompress, so use http directly.
    const result = await new Promise<{ n: number; enc: string }>((resolve, reject) => {
      const req = request(
        url + path,
        { method: 'GET', headers: { ...headers, 'accept-encoding': 'gzip, deflate, br' } },
        (res) => {
          let n = 0;
          res.on('data', (c: Buffer) => {
            n += c.length;
          });
          res.on('end', () => resolve({ n, enc: String(res.headers['content-encoding'] ?? 'identity') }));
        },
      );
      req.on('error', reject);
      req.end();
    });
    wireBytes = result.n;
    encoding = result.enc;
  }
  return { status: plain.status, bytes: Buffer.byteLength(text), wireBytes, encoding, gzipBytes: gzipSync(text).length, items };
}
