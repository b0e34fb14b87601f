// The one boundary Biome cannot state: a client feature imports only itself (plus lib/, components/,
// stores/, domain). Imports are relative ('../../projects/api/get-projects'), so a pattern on the
// specifier cannot tell "another feature" from "up and back into my own"; this resolves each one.
// The other boundaries (layers, lib/ never importing a feature, Drizzle only in repos and db/, nothing
// from tests/, no cycles) are Biome rules in biome.json. Usage: node scripts/check-boundaries.mjs [root]
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const root = resolve(process.argv[2] ?? '.');
const featuresDir = join(root, 'src', 'client', 'features');

/** Every import, re-export and dynamic import specifier in a module's text. */
export function specifiers(text) {
  const found = [];
  const re =
    /(?:^|[\s;}])(?:import|export)\s[^'";]*?from\s*['"]([^'"]+)['"]|(?:^|[\s;])import\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/gm;
  for (const m of text.matchAll(re)) {
    const spec = m[1] ?? m[2] ?? m[3];
    const at = m.index + m[0].lastIndexOf(spec);
    found.push({ spec, line: text.slice(0, at).split('\n').length });
  }
  return found;
}

function files(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return files(path);
    return /\.(ts|tsx|mts|js|mjs)$/.test(e.name) ? [path] : [];
  });
}

const featureOf = (path) => {
  const rel = relative(featuresDir, path);
  return rel.startsWith('..') ? null : rel.split(sep)[0];
};

const problems = [];
for (const file of files(featuresDir)) {
  const own = featureOf(file);
  for (const { spec, line } of specifiers(readFileSync(file, 'utf8'))) {
    if (!spec.startsWith('.')) continue;
    const target = featureOf(resolve(dirname(file), spec));
    if (target && target !== own) {
      problems.push(
        `${relative(root, file)}:${line} boundaries/noFeatureToFeature: feature '${own}' imports feature '${target}' ('${spec}'); move the shared code to lib/ or components/, or compose both in app/`,
      );
    }
  }
}

for (const p of problems) console.error(p);
if (problems.length > 0) {
  console.error(`check-boundaries: ${problems.length} import(s) across features`);
  process.exit(1);
}
console.log('check-boundaries: no feature imports another');
