import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/**
 * Writes a .br (quality 11) and a .gz (level 9) copy beside each built script and stylesheet: the
 * server sends these as they are (@fastify/static preCompressed), so assets are as small as they
 * get and cost no CPU per request.
 */
function precompress(): Plugin {
  return {
    name: 'crewboard-precompress',
    apply: 'build',
    writeBundle(options, bundle) {
      for (const file of Object.keys(bundle)) {
        if (!/\.(js|css|svg)$/.test(file)) continue;
        const path = join(options.dir!, file);
        const item = bundle[file]!;
        const source = Buffer.from(item.type === 'chunk' ? item.code : item.source);
        if (source.length < 1024) continue;
        writeFileSync(`${path}.br`, brotliCompressSync(source, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
        writeFileSync(`${path}.gz`, gzipSync(source, { level: 9 }));
      }
    },
  };
}

export default defineConfig({
  plugins: [react(), tailwindcss(), precompress()],
  build: {
    outDir: process.env.CLIENT_OUT_DIR || 'dist/client',
    emptyOutDir: true,
    sourcemap: false,
    // scripts/bundle-size.mjs reads which chunks each route loads from .vite/manifest.json.
    manifest: true,
    chunkSizeWarningLimit: 600,
  },
  server: {
    port: 5173,
    proxy: { '/api': 'http://localhost:3000' },
  },
});
