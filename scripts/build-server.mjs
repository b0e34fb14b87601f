// Bundles the server and the CLI into dist/server with esbuild; npm packages stay external.
import { cpSync, mkdirSync, rmSync } from 'node:fs';
import { build } from 'esbuild';

const outdir = 'dist/server';
rmSync(outdir, { recursive: true, force: true });
mkdirSync(outdir, { recursive: true });
await build({
  entryPoints: { main: 'src/server/main.ts', cli: 'src/server/cli.ts' },
  outdir,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
});
cpSync('src/server/db/migrations', `${outdir}/migrations`, { recursive: true });
console.log('server built to dist/server');
