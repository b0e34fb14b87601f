// The cost of per-request logging at the server's default level: the board read on a server started at `info` (one
// line a request) and on one started at `warn` (none), alternating, each measured as the main scenarios are.
import { type LoadResult, type RequestSpec, runLoad } from './load';
import { startServer } from './server';

export interface LoggingRun {
  level: 'info' | 'warn';
  loads: LoadResult[];
}

export async function measureLogging(opts: {
  entry: string;
  env: NodeJS.ProcessEnv;
  spec: RequestSpec;
  /** Signs in on a started server; the headers each request sends. */
  headersFor: (url: string) => Promise<Record<string, string>>;
  connections: number[];
  seconds: number;
  warmupSeconds: number;
  /** warn, info, warn, info, … (two rounds in the full run, one in the smoke run). */
  rounds: number;
  log: (message: string) => void;
}): Promise<LoggingRun[]> {
  const runs: LoggingRun[] = [];
  for (let round = 0; round < opts.rounds; round++) {
    for (const level of ['warn', 'info'] as const) {
      const server = await startServer(opts.entry, { ...opts.env, LOG_LEVEL: level });
      try {
        const headers = await opts.headersFor(server.url);
        const loads: LoadResult[] = [];
        for (const connections of opts.connections) {
          const r = await runLoad({
            url: server.url,
            spec: opts.spec,
            headers,
            connections,
            seconds: opts.seconds,
            warmupSeconds: opts.warmupSeconds,
            rssMb: server.rssMb,
            cpuMs: server.cpuMs,
          });
          loads.push(r);
          opts.log(
            `  logging at ${level} ×${connections}: ${r.rps.toFixed(0)} req/s, p99 ${r.p99.toFixed(1)} ms, server CPU ${r.cpuMsPerRequest.toFixed(2)} ms/req`,
          );
        }
        runs.push({ level, loads });
      } finally {
        await server.stop();
      }
    }
  }
  return runs;
}

/** Per connection count: the median over rounds of info against warn (server CPU a request, and throughput). */
export function loggingCost(
  runs: LoggingRun[],
): { connections: number; cpuInfo: number; cpuWarn: number; rpsInfo: number; rpsWarn: number }[] {
  const median = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
  };
  const counts = [...new Set(runs.flatMap((r) => r.loads.map((l) => l.connections)))];
  const of = (level: string, connections: number) =>
    runs.filter((r) => r.level === level).flatMap((r) => r.loads.filter((l) => l.connections === connections));
  return counts.map((connections) => ({
    connections,
    cpuInfo: median(of('info', connections).map((l) => l.cpuMsPerRequest)),
    cpuWarn: median(of('warn', connections).map((l) => l.cpuMsPerRequest)),
    rpsInfo: median(of('info', connections).map((l) => l.rps)),
    rpsWarn: median(of('warn', connections).map((l) => l.rps)),
  }));
}
