// The boundaries Biome cannot state, because they depend on where an import lands, not on how it is spelled
// (imports are relative: '../../projects/api/get-projects' may be another feature or up and back into my own),
// so this resolves each one. The other boundaries (client layers, lib/ never importing a feature, Drizzle only in
// repos and db/, nothing from tests/, no file cycles) are Biome rules in biome.json.
// Usage: node scripts/check-boundaries.mjs [root]
//
// Client: a feature imports only itself (plus lib/, components/, stores/, domain).
// Server: src/server/modules/<name>/ are the modules (routes -> service -> repo). Below them the lower layers:
// server/lib/ (errors, storage, the change recorder...), server/db/ (the client, the schema, shared queries and the
// membership guards) and src/domain; db/ may import lib/, lib/ names db/ only in `import type` (the handle and row
// types), never at run time. Above them the composition root: the top-level server files (app.ts, main.ts, cli.ts...;
// config.ts excepted, every layer reads it), modules/index.ts (the route registry) and subscribers/ (the change
// recorder's subscribers). The rules:
//   noForeignRepo     a `*.repo.ts` is imported only from its own module;
//   noRouteToRepo     a `*.routes.ts` calls its service, never a repo;
//   noModuleInternals a module (or a subscriber) imports another module only through that module's index.ts;
//   noUpwardImport    a lower layer never imports a module, a subscriber or the composition root; lib/ never db/;
//   noModuleToRoot    a module never imports the composition root (subscribers, app.ts...);
//   noModuleCycle     no two modules depend on each other, through any files (A -> B -> ... -> A).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const root = resolve(process.argv[2] ?? '.');
const src = join(root, 'src');
const featuresDir = join(src, 'client', 'features');
const serverDir = join(src, 'server');

/** Every import, re-export and dynamic import specifier in a module's text; `typeOnly` when it is erased at run time. */
export function specifiers(text) {
  const found = [];
  const re =
    /(?:^|[\s;}])(?:import|export)\s[^'";]*?from\s*['"]([^'"]+)['"]|(?:^|[\s;])import\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/gm;
  for (const m of text.matchAll(re)) {
    const spec = m[1] ?? m[2] ?? m[3];
    const at = m.index + m[0].lastIndexOf(spec);
    const head = m[0].trimStart().replace(/^[;}]\s*/, '');
    const names = /^(?:import|export)\s*\{([^}]*)\}\s*from/.exec(head)?.[1];
    const typeOnly =
      /^(?:import|export)\s+type\s/.test(head) ||
      names
        ?.split(',')
        .map((n) => n.trim())
        .filter(Boolean)
        .every((n) => n.startsWith('type ')) === true;
    found.push({ spec, line: text.slice(0, at).split('\n').length, typeOnly });
  }
  return found;
}

function files(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return files(path);
    return /\.(ts|tsx|mts|js|mjs)$/.test(e.name) ? [path] : [];
  });
}

/** The file a relative specifier names (TypeScript's resolution: as is, with an extension, or a folder's index). */
function resolveSpec(from, spec) {
  const base = resolve(dirname(from), spec);
  for (const c of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')]) {
    if (existsSync(c) && statSync(c).isFile()) return c;
  }
  return base;
}

const problems = [];
const report = (file, line, rule, text) => problems.push(`${relative(root, file)}:${line} boundaries/${rule}: ${text}`);

// ---- client: features ----

const featureOf = (path) => {
  const rel = relative(featuresDir, path);
  return rel.startsWith('..') ? null : rel.split(sep)[0];
};

for (const file of files(featuresDir)) {
  const own = featureOf(file);
  for (const { spec, line } of specifiers(readFileSync(file, 'utf8'))) {
    if (!spec.startsWith('.')) continue;
    const target = featureOf(resolve(dirname(file), spec));
    if (target && target !== own) {
      report(
        file,
        line,
        'noFeatureToFeature',
        `feature '${own}' imports feature '${target}' ('${spec}'); move the shared code to lib/ or components/, or compose both in app/`,
      );
    }
  }
}

// ---- server: modules and layers ----

/** Where a file sits: { kind: 'module', name } | { kind: 'root' | 'subscribers' | 'config' | 'lib' | 'db' | 'domain' } | null. */
function placeOf(path) {
  const rel = relative(src, path).split(sep);
  if (rel[0] === 'domain') return { kind: 'domain', label: 'src/domain' };
  if (rel[0] !== 'server') return null;
  const [, top, name] = rel;
  if (rel.length === 2) {
    if (/^config(\.test)?\.ts$/.test(top)) return { kind: 'config', label: 'server/config.ts' };
    return { kind: 'root', label: `server/${top}` };
  }
  if (top === 'modules') {
    if (rel.length === 3) return { kind: 'root', label: `server/modules/${name}` };
    return { kind: 'module', name, label: `module '${name}'` };
  }
  if (top === 'subscribers') return { kind: 'subscribers', label: 'server/subscribers' };
  if (top === 'lib') return { kind: 'lib', label: 'server/lib' };
  if (top === 'db') return { kind: 'db', label: 'server/db' };
  return { kind: 'root', label: `server/${top}` };
}

const isRepo = (path) => path.endsWith('.repo.ts');
const isRoutes = (path) => path.endsWith('.routes.ts');
const isIndex = (path) => /[\\/]index\.tsx?$/.test(path);
const LOWER = new Set(['lib', 'db', 'domain']);

/** Module-level edges: from -> to -> the first import that makes it (file, line). */
const edges = new Map();

for (const file of [...files(serverDir), ...files(join(src, 'domain'))]) {
  const from = placeOf(file);
  if (!from) continue;
  for (const { spec, line, typeOnly } of specifiers(readFileSync(file, 'utf8'))) {
    if (!spec.startsWith('.')) continue;
    const target = resolveSpec(file, spec);
    const to = placeOf(target);
    if (!to) continue;
    const sameModule = from.kind === 'module' && to.kind === 'module' && from.name === to.name;
    const where = relative(serverDir, target);

    if (to.kind === 'module' && !sameModule && isRepo(target)) {
      report(
        file,
        line,
        'noForeignRepo',
        `${from.label} imports module '${to.name}''s repo ('${spec}'): a *.repo.ts is private to its module; import what you need from modules/${to.name}/index.ts`,
      );
    } else if (
      to.kind === 'module' &&
      !sameModule &&
      !isIndex(target) &&
      (from.kind === 'module' || from.kind === 'subscribers')
    ) {
      report(
        file,
        line,
        'noModuleInternals',
        `${from.label} imports '${where}' from module '${to.name}' ('${spec}'): import only its public surface, modules/${to.name}/index.ts (export what you need there)`,
      );
    }
    if (isRoutes(file) && isRepo(target) && sameModule) {
      report(file, line, 'noRouteToRepo', `a route file imports a repo ('${spec}'): routes call their service, never a repo`);
    }
    if (LOWER.has(from.kind) && (to.kind === 'module' || to.kind === 'subscribers' || to.kind === 'root')) {
      report(
        file,
        line,
        'noUpwardImport',
        `lower layer ${from.label} imports ${to.kind === 'module' ? `module '${to.name}'` : to.label} ('${spec}'): the lower layers never import a module or the composition root; pass what they need in, or move the shared code down`,
      );
    } else if (from.kind === 'lib' && to.kind === 'db' && !typeOnly) {
      report(
        file,
        line,
        'noUpwardImport',
        `server/lib imports server/db ('${spec}'): db/ sits on lib/, and lib/ names db/ only in \`import type\`; move the code to db/`,
      );
    }
    if (from.kind === 'module' && (to.kind === 'subscribers' || to.kind === 'root')) {
      report(
        file,
        line,
        'noModuleToRoot',
        `${from.label} imports ${to.label} ('${spec}'): the composition root (app, cli, subscribers) imports the modules, never the other way round`,
      );
    }
    if (from.kind === 'module' && to.kind === 'module' && !sameModule) {
      const out = edges.get(from.name) ?? new Map();
      if (!out.has(to.name)) out.set(to.name, { file, line, spec });
      edges.set(from.name, out);
    }
  }
}

/** A shortest path of modules from `start` to `goal` along the edges, or null. */
function pathBetween(start, goal) {
  const previous = new Map([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const at = queue.shift();
    for (const next of edges.get(at)?.keys() ?? []) {
      if (previous.has(next)) continue;
      previous.set(next, at);
      if (next === goal) {
        const path = [goal];
        for (let p = at; p !== null; p = previous.get(p)) path.unshift(p);
        return path;
      }
      queue.push(next);
    }
  }
  return null;
}

for (const [a, out] of edges) {
  for (const [b, { file, line, spec }] of out) {
    const back = pathBetween(b, a);
    if (!back) continue;
    const via = back
      .slice(0, -1)
      .map((m, i) => {
        const e = edges.get(m).get(back[i + 1]);
        return `${m} -> ${back[i + 1]} (${relative(root, e.file)}:${e.line})`;
      })
      .join(', ');
    report(
      file,
      line,
      'noModuleCycle',
      `module '${a}' imports module '${b}' ('${spec}') and '${b}' leads back to '${a}': ${via}; modules depend one way: move the shared part down (db/, lib/) or up (subscribers/)`,
    );
  }
}

for (const p of problems) console.error(p);
if (problems.length > 0) {
  console.error(`check-boundaries: ${problems.length} import(s) across a boundary`);
  process.exit(1);
}
console.log('check-boundaries: every import keeps the boundaries');
