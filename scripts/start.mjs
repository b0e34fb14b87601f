// npm start: builds if needed, then runs the server (which migrates and listens).
import { spawnSync } from 'node:child_process';
import { needsBuild } from './build-state.mjs';

if (needsBuild()) {
  console.log('Building Crewboard…');
  const result = spawnSync('npm', ['run', 'build'], { stdio: 'inherit', shell: process.platform === 'win32' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
// `npm start` is the production server: without NODE_ENV it checked every answer against its schema (config.ts
// checkResponses), which cost the 500-task page half its throughput from outside (issue 42: 62 → 138 req/s).
// The test servers (e2e, integration) keep the check; NODE_ENV set by the caller wins.
process.env.NODE_ENV ??= 'production';
// package.json starts this with `--max-old-space-size=1024` (issue 42, bench/results/baseline.md): with the default
// ceiling (a quarter of the machine's memory) V8 let the old space grow to 3–4× the live heap before a full collection,
// and the server's RSS passed 300 MB under the bench's mixed load; at 1 GB it collects sooner, at the same throughput.
await import('../dist/server/main.js');
