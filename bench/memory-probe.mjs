// Loaded into the bench's server with `node --import` (bench/memory.ts): on SIGUSR2 it writes one line
// `[memory] {json}` to stderr with what holds the process's memory, before and after a full garbage collection,
// so that the bench can tell live data (heap, external, array buffers) from garbage not yet collected.
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc');
const mb = (n) => Math.round((n / 2 ** 20) * 10) / 10;

function snapshot() {
  const m = process.memoryUsage();
  const spaces = Object.fromEntries(getHeapSpaceStatistics().map((s) => [s.space_name, mb(s.space_used_size)]));
  return {
    rss: mb(m.rss),
    heapTotal: mb(m.heapTotal),
    heapUsed: mb(m.heapUsed),
    external: mb(m.external),
    arrayBuffers: mb(m.arrayBuffers),
    spaces,
  };
}

process.on('SIGUSR2', () => {
  const before = snapshot();
  gc();
  const after = snapshot();
  const handles = {};
  for (const r of process.getActiveResourcesInfo()) handles[r] = (handles[r] ?? 0) + 1;
  process.stderr.write(`[memory] ${JSON.stringify({ before, after, handles })}\n`);
});
