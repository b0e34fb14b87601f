// Tells whether dist/ is older than the sources it is built from.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function newest(path) {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let max = st.mtimeMs;
  for (const name of readdirSync(path)) max = Math.max(max, newest(join(path, name)));
  return max;
}

export function needsBuild(root = '.') {
  const built = [join(root, 'dist/server/main.js'), join(root, 'dist/client/index.html')];
  if (built.some((f) => !existsSync(f))) return true;
  const builtAt = Math.min(...built.map((f) => statSync(f).mtimeMs));
  const sources = ['src', 'index.html', 'public', 'package-lock.json', 'vite.config.ts'].map((p) => newest(join(root, p)));
  return Math.max(...sources) > builtAt;
}
