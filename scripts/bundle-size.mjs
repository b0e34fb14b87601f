// Bundle-size budget: the gzipped JS each route loads at start-up (CSS reported beside it), worked out from the Vite
// build manifest (the entry, the route's lazy chunks, and every chunk they import statically).
// Exits 1 when a route is over its budget.
//
//   npm run size                 builds the client into node_modules/.cache/crewboard-size and checks it
//   node scripts/bundle-size.mjs --dir dist/client   checks an existing build (npm run build does this)
//   add --json for a machine-readable report
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';

/**
 * Each route: the source modules it loads lazily on top of the entry, and its JS budget in KB (gzip) —
 * the 'JS at start-up' targets (bench/results/baseline.md, the targets table). CSS is one shared stylesheet, reported, not budgeted.
 */
export const ROUTES = {
  '/login': { modules: [], budgetKb: 120 },
  '/tasks': {
    modules: ['src/client/app/layout/app-layout.tsx', 'src/client/features/tasks/components/tasks-page.tsx'],
    budgetKb: 250,
  },
};

const { values: args } = parseArgs({ options: { dir: { type: 'string' }, json: { type: 'boolean', default: false } } });

let dir = args.dir ? resolve(args.dir) : null;
if (!dir) {
  dir = resolve('node_modules/.cache/crewboard-size/client');
  const build = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], {
    stdio: 'inherit',
    env: { ...process.env, CLIENT_OUT_DIR: dir },
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const manifestPath = join(dir, '.vite', 'manifest.json');
if (!existsSync(manifestPath)) {
  console.error(`no Vite manifest at ${manifestPath}: build with build.manifest = true`);
  process.exit(1);
}
/** @type {Record<string, { file: string; src?: string; isEntry?: boolean; imports?: string[]; css?: string[] }>} */
const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry);
if (!entryKey) {
  console.error('the manifest has no entry chunk');
  process.exit(1);
}

const gzipCache = new Map();
function gzipSize(file) {
  if (!gzipCache.has(file)) {
    const raw = readFileSync(join(dir, file));
    gzipCache.set(file, { raw: raw.length, gzip: gzipSync(raw, { level: 9 }).length });
  }
  return gzipCache.get(file);
}

/** Every JS and CSS file loaded with these chunks (static imports followed, dynamic ones not). */
function filesOf(keys) {
  const files = new Set();
  const seen = new Set();
  const visit = (key) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) throw new Error(`${key} is not in the build manifest (is the route still lazy-loaded from there?)`);
    files.add(chunk.file);
    for (const css of chunk.css ?? []) files.add(css);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const key of keys) visit(key);
  return [...files];
}

const report = [];
let failed = false;
for (const [route, { modules, budgetKb }] of Object.entries(ROUTES)) {
  const files = filesOf([entryKey, ...modules]);
  const sizes = files.map((file) => ({ file, ...gzipSize(file) }));
  const js = sizes.filter((s) => s.file.endsWith('.js')).reduce((n, s) => n + s.gzip, 0);
  const css = sizes.filter((s) => s.file.endsWith('.css')).reduce((n, s) => n + s.gzip, 0);
  const totalKb = (js + css) / 1024;
  const over = js / 1024 > budgetKb;
  failed ||= over;
  report.push({ route, jsKb: js / 1024, cssKb: css / 1024, totalKb, budgetKb, over, files: sizes });
}

if (args.json) {
  console.log(JSON.stringify(report, null, 2));
} else {
  console.log('| route | JS gzip | CSS gzip | total | JS budget | |');
  console.log('|---|---:|---:|---:|---:|---|');
  for (const r of report) {
    console.log(
      `| ${r.route} | ${r.jsKb.toFixed(1)} KB | ${r.cssKb.toFixed(1)} KB | ${r.totalKb.toFixed(1)} KB | ${r.budgetKb} KB | ${r.over ? 'OVER BUDGET' : 'ok'} |`,
    );
  }
  for (const r of report) {
    console.log(`\n${r.route}: ${r.files.length} files`);
    for (const f of [...r.files].sort((a, b) => b.gzip - a.gzip)) {
      console.log(`  ${(f.gzip / 1024).toFixed(1).padStart(7)} KB gzip  ${(f.raw / 1024).toFixed(1).padStart(7)} KB  ${f.file}`);
    }
  }
}
if (failed) {
  console.error('bundle size budget exceeded');
  process.exit(1);
}
