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

export default defineConfig(({ command }) => ({
  plugins: [react(), tailwindcss(), precompress()],
  resolve: {
    // react-router's package.json sends every import to its development build (remix-run/react-router#12532, #14102),
    // which a production build would ship: its production build is the same code without the development warnings.
    alias:
      command === 'build'
        ? [{ find: /^react-router$/, replacement: join(import.meta.dirname, 'node_modules/react-router/dist/production/index.mjs') }]
        : [],
  },
  build: {
    outDir: process.env.CLIENT_OUT_DIR || 'dist/client',
    emptyOutDir: true,
    sourcemap: !!process.env.SOURCEMAP,
    // PROFILE_BUILD=1: readable function names in browser CPU profiles (tests/e2e/tasks-perf.spec.ts).
    minify: process.env.PROFILE_BUILD ? false : undefined,
    // scripts/bundle-size.mjs reads which chunks each route loads from .vite/manifest.json.
    manifest: true,
    // The note editor (Tiptap, ProseMirror, Yjs: 634 KB raw, 193 KB gzip) is one chunk that only /notes/:id loads.
    chunkSizeWarningLimit: 700,
    rolldownOptions: {
      output: {
        // What the entry needs stays in the entry; code that two or more lazy routes share goes into one 'shared'
        // chunk instead of a score of small ones (icons, date-fns pieces): a cold load of /tasks fetched 20
        // scripts over HTTP/1.1's six connections, the last 0.4 s after the first; now 4 (measured in 0009).
        codeSplitting: {
          groups: [
            // zod and the schemas built with it: only the forms need them, and they load with the forms. The
            // schemas' own imports (constants, messages) stay where they are: the entry needs those.
            { name: 'zod', test: /[\\/]node_modules[\\/]zod[\\/]/, priority: 4 },
            // Markdown (descriptions, comments) renders in the task modal and notes only: marked and DOMPurify load
            // with them, never with /login or the board's first screen. The renderer and its sanitizing policy too: two
            // lazy pages share them, which put them in 'shared', whose import of this chunk /tasks then loaded at
            // start-up (25.7 KB gzip, found when custom fields took /tasks over its budget).
            {
              name: 'markdown',
              test: /[\\/]node_modules[\\/](marked|dompurify)[\\/]|[\\/]src[\\/]client[\\/](components[\\/]markdown\.tsx|lib[\\/]sanitize-policy\.ts)$/,
              priority: 4,
              includeDependenciesRecursively: false,
            },
            { name: 'schemas', test: /[\\/]src[\\/]domain[\\/]schemas[\\/]/, priority: 3, includeDependenciesRecursively: false },
            // The sign-in, sign-up, reset and password forms' schemas: a chunk of their own, loaded with those forms, so
            // that sharing them between two pages does not put them (and zod) into 'shared', which every page loads.
            { name: 'auth-forms', test: /[\\/]src[\\/]domain[\\/]auth-forms\.ts$/, priority: 3, includeDependenciesRecursively: false },
            // Toasts: sonner and the Toaster (app/toaster.tsx). Not in the start-up script: Providers loads the Toaster
            // beside the first render, and the start-up code's toasts reach sonner through lib/toast.ts. A chunk of
            // its own, so that the sign-in page does not fetch 'shared' for it.
            {
              name: 'toasts',
              test: /[\\/]node_modules[\\/]sonner[\\/]|[\\/]src[\\/]client[\\/]app[\\/]toaster\.tsx$/,
              priority: 4,
              includeDependenciesRecursively: false,
            },
            // The calendar's date grid and its team/project selects, shared by /calendar and /timeline only: a chunk of
            // their own, so that 'shared' (which /tasks loads) does not carry them.
            {
              name: 'planning',
              test: /[\\/]src[\\/](domain[\\/]calendar\.ts|client[\\/]features[\\/]calendar[\\/]components[\\/]calendar-filters\.tsx)$/,
              priority: 3,
              includeDependenciesRecursively: false,
            },
            { name: 'boot', tags: ['$initial'], priority: 2 },
            { name: 'shared', minShareCount: 2, priority: 1 },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: { '/api': 'http://localhost:3000' },
  },
}));
