// npm run cli -- <command>: runs the built CLI (building first if needed).
import { spawnSync } from 'node:child_process';
import { needsBuild } from './build-state.mjs';

if (needsBuild()) {
  const result = spawnSync('npm', ['run', 'build'], { stdio: ['ignore', 'ignore', 'inherit'] });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
await import('../dist/server/cli.js');
