// `npm run openapi:check`: the OpenAPI document passes `redocly lint` (recommended rules, redocly.yaml) with no error
// and no warning, and a client generated from it by openapi-typescript typechecks.
//
//   node scripts/check-openapi.mjs               build the app, write its document, lint, generate, typecheck
//   node scripts/check-openapi.mjs --lint <file> only lint that document (tests/tooling/openapi-check.test.ts)
//
// openapi-typescript needs TypeScript 5 at run time and the project uses TypeScript 7: it lives in its own small
// package, tools/openapi-client (installed here with `npm ci` when its node_modules is missing).
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const TOOL = join(ROOT, 'tools', 'openapi-client');
/** Gitignored. A fixed place: .redocly.lint-ignore.yaml names its few accepted findings by this file. */
const GENERATED = join(ROOT, 'tests', 'tooling', 'generated');
const DOCUMENT = join(GENERATED, 'openapi.json');
const TYPES = join(GENERATED, 'openapi.d.ts');
const bin = (dir, name) => join(dir, 'node_modules', '.bin', name);

function run(label, command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: ROOT, encoding: 'utf8', ...options });
  if (result.error) throw new Error(`${label}: ${result.error.message}`);
  return result;
}

function fail(message) {
  console.error(`openapi:check: ${message}`);
  process.exit(1);
}

/** The app's own document: buildApp on an in-memory PGlite, as tests/helpers/app.ts does, without listening. */
async function writeDocument(file) {
  const { tsImport } = await import('tsx/esm/api');
  const { buildApp } = await tsImport('../src/server/app.ts', import.meta.url);
  const { openDatabase } = await tsImport('../src/server/db/client.ts', import.meta.url);
  const { loadConfig } = await tsImport('../src/server/config.ts', import.meta.url);
  // Nothing is written to DATA_DIR: the secret is given and no file is stored.
  const config = loadConfig({
    DATA_DIR: join(tmpdir(), 'crewboard-openapi-check-unused'),
    AUTH_SECRET: randomBytes(32).toString('hex'),
    CLIENT_DIR: join(tmpdir(), 'crewboard-openapi-check-no-client'),
    LOG_LEVEL: 'silent',
    RATE_LIMIT_ENABLED: 'false',
    EMAIL_VERIFICATION: 'off',
  });
  const database = await openDatabase({ dataDir: 'memory://' });
  try {
    await database.migrate();
    const app = await buildApp({ config, database });
    try {
      await app.ready();
      const res = await app.inject({ method: 'GET', url: '/api/openapi.json' });
      if (res.statusCode !== 200) fail(`GET /api/openapi.json answered ${res.statusCode}: ${res.body.slice(0, 300)}`);
      writeFileSync(file, `${JSON.stringify(res.json(), null, 2)}\n`);
    } finally {
      await app.close();
    }
  } finally {
    await database.close();
  }
}

/** `redocly lint` with the repository's redocly.yaml; any error or warning that is not explicitly ignored fails. */
function lint(file) {
  const result = run('redocly lint', bin(ROOT, 'redocly'), [
    'lint',
    file,
    '--config',
    join(ROOT, 'redocly.yaml'),
    '--format=json',
    '--max-problems=1000',
  ]);
  let report;
  try {
    report = JSON.parse(result.stdout);
  } catch {
    fail(`redocly lint gave no report (exit ${result.status}):\n${result.stderr.slice(-2000)}`);
  }
  const problems = report.problems.filter((p) => !p.ignored);
  for (const p of problems) {
    const where = p.location?.[0]?.pointer ?? '';
    console.error(`  ${p.severity.padEnd(5)} ${p.ruleId}  ${where}\n        ${p.message}`);
  }
  const { errors, warnings, ignored } = report.totals;
  const name = relative(ROOT, file);
  if (errors || warnings || problems.length) fail(`redocly lint ${name}: ${errors} errors and ${warnings} warnings`);
  console.log(`redocly lint ${name}: 0 errors, 0 warnings (${ignored} accepted in .redocly.lint-ignore.yaml)`);
}

function installTool() {
  if (existsSync(bin(TOOL, 'openapi-typescript'))) return;
  console.log('installing tools/openapi-client (openapi-typescript, TypeScript 5)');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = run('npm ci', npm, ['ci', '--prefix', TOOL, '--no-audit', '--no-fund'], { stdio: 'inherit' });
  if (result.status !== 0) fail('npm ci --prefix tools/openapi-client failed');
}

function generateAndTypecheck() {
  const generated = run('openapi-typescript', bin(TOOL, 'openapi-typescript'), [DOCUMENT, '--output', TYPES], {
    // Its own lint pass reports what redocly lint above already judged.
    env: { ...process.env, NO_COLOR: '1' },
  });
  if (generated.status !== 0 || !existsSync(TYPES)) {
    fail(`openapi-typescript failed:\n${generated.stdout}${generated.stderr}`);
  }
  console.log(`openapi-typescript: ${relative(ROOT, TYPES)}`);
  const tsc = run('tsc', bin(ROOT, 'tsc'), ['--noEmit', '-p', join(ROOT, 'tsconfig.openapi.json')]);
  if (tsc.status !== 0) fail(`the generated client does not typecheck:\n${tsc.stdout}${tsc.stderr}`);
  console.log('tsc -p tsconfig.openapi.json: the typed client typechecks');
}

const args = process.argv.slice(2);
if (args[0] === '--lint') {
  if (!args[1]) fail('usage: check-openapi.mjs --lint <document.json>');
  lint(resolve(args[1]));
} else {
  mkdirSync(GENERATED, { recursive: true });
  installTool();
  await writeDocument(DOCUMENT);
  lint(DOCUMENT);
  generateAndTypecheck();
  console.log('openapi:check passed');
}
// PGlite and the app are closed; nothing else should keep the process up.
process.exit(0);
