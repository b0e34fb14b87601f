// The registry these machines reach lacks some platform builds of @tailwindcss/oxide (macOS,
// Windows, Android, FreeBSD, WASM), so `npm install` leaves them out of package-lock.json and
// `npm ci` then refuses the lock as out of sync. This records them as optional entries for other
// platforms (never installed here), which is what npm writes when it can see them.
// Run after any `npm install` that rewrites the lock: node scripts/lock-optional-platforms.mjs
import { readFileSync, writeFileSync } from 'node:fs';

const file = 'package-lock.json';
const lock = JSON.parse(readFileSync(file, 'utf8'));
const oxide = lock.packages['node_modules/@tailwindcss/oxide'];
const added = [];
for (const [name, version] of Object.entries(oxide?.optionalDependencies ?? {})) {
  const key = `node_modules/${name}`;
  if (lock.packages[key]) continue;
  const platform = name.replace('@tailwindcss/oxide-', '');
  const [os, cpu] = platform === 'wasm32-wasi' ? [undefined, 'wasm32'] : platform.split('-');
  lock.packages[key] = {
    version,
    ...(cpu ? { cpu: [cpu === 'arm' ? 'arm' : cpu] } : {}),
    dev: true,
    license: 'MIT',
    optional: true,
    ...(os ? { os: [os] } : {}),
  };
  added.push(name);
}
lock.packages = Object.fromEntries(
  Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : 1)),
);
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(added.length ? `recorded ${added.join(', ')}` : 'lock already complete');
