// Bundles the server and the CLI with esbuild (npm packages stay external), with the migrations
// and the common-password list beside them. `npm run build` writes dist/server; the bench imports buildServer() to bundle the
// same way into a folder of its own.
import { cpSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

/** Builds into `outdir` (emptied first) and returns the path of the server's entry, main.js. */
export async function buildServer(outdir = 'dist/server') {
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
  cpSync('src/server/db/migrations', join(outdir, 'migrations'), { recursive: true });
  // Read at run time beside the bundle (modules/auth/password-policy.ts): data, not code.
  cpSync('src/server/modules/auth/common-passwords.txt', join(outdir, 'common-passwords.txt'));
  return join(outdir, 'main.js');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await buildServer();
  console.log('server built to dist/server');
}
