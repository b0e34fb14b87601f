// npm start: builds if needed, then runs the server (which migrates and listens).
import { spawnSync } from 'node:child_process';
import { needsBuild } from './build-state.mjs';

if (needsBuild()) {
  console.log('Building Crewboard…');
  const result = spawnSync('npm', ['run', 'build'], { stdio: 'inherit', shell: process.platform === 'win32' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
await import('../dist/server/main.js');
