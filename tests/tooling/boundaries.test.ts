import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..', '..');

/**
 * A small tree laid out like src/ (two client features, lib/, a server module with its repo and
 * service, server/lib, domain) that lints clean under the project's own biome.json, package.json
 * and scripts/check-boundaries.mjs. The real src/ is not used: its state (other work in progress)
 * must not decide whether a probe is seen to fail.
 */
const CLEAN: Record<string, string> = {
  'src/domain/constants.ts': 'export const PAGE_SIZE = 20;\n',
  'src/domain/labels.ts': "import { PAGE_SIZE } from './constants';\nexport const pageLabel = () => String(PAGE_SIZE);\n",
  'src/client/lib/format.ts': 'export const upper = (s: string) => s.toUpperCase();\n',
  'src/client/features/tasks/api/task-keys.ts':
    "import { upper } from '../../../lib/format';\nexport const taskKeys = { all: [upper('tasks')] };\n",
  'src/client/features/tasks/components/task-list.tsx':
    "import { taskKeys } from '../api/task-keys';\nexport const listKey = taskKeys.all;\n",
  'src/client/features/projects/api/project-keys.ts': "export const projectKeys = { all: ['projects'] };\n",
  'src/server/lib/http.ts': 'export const ok = (body: unknown) => ({ status: 200, body });\n',
  'src/server/modules/x/x.repo.ts':
    "import { eq } from 'drizzle-orm';\nexport const byId = (column: never, id: string) => eq(column, id);\n",
  'src/server/modules/x/x.service.ts': "import { byId } from './x.repo';\nexport const findOne = byId;\n",
  'src/server/modules/x/x.routes.ts': "import { findOne } from './x.service';\nexport const route = findOne;\n",
  'src/server/modules/x/index.ts': "export { findOne } from './x.service';\n",
  'src/server/modules/y/y.service.ts': "import { findOne } from '../x';\nexport const findTwo = findOne;\n",
  'src/server/modules/y/index.ts': "export { findTwo } from './y.service';\n",
  'src/server/subscribers/x.ts': "import { findTwo } from '../modules/y';\nexport const onChange = findTwo;\n",
  'src/server/db/client.ts': "export type Db = { id: string };\nexport const connect = (): Db => ({ id: 'db' });\n",
  'src/server/lib/changes.ts': "import type { Db } from '../db/client';\nexport const run = (db: Db) => db.id;\n",
  'tests/x.test.ts': 'export const probe = 1;\n',
  'bench/x.ts': 'export const probe = 1;\n',
};

/** One violation per probe, each planted alone in its own copy of the clean tree. */
const PROBES: { name: string; files: Record<string, string>; rule: string; says: RegExp }[] = [
  {
    name: 'a client feature imports another feature',
    files: {
      'src/client/features/tasks/components/lint-probe.tsx':
        "import { projectKeys } from '../../projects/api/project-keys';\nexport const probe = projectKeys;\n",
    },
    rule: 'boundaries/noFeatureToFeature',
    says: /feature 'tasks' imports feature 'projects'/,
  },
  {
    name: 'a service imports drizzle-orm',
    files: { 'src/server/modules/x/x.service.ts': "import { eq } from 'drizzle-orm';\nexport const probe = eq;\n" },
    rule: 'lint/style/noRestrictedImports',
    says: /only \*\.repo\.ts and server\/db\/ touch Drizzle/,
  },
  {
    name: 'two modules import each other',
    files: {
      'src/domain/lint-probe-cycle-a.ts': "import { b } from './lint-probe-cycle-b';\nexport const a = () => b;\n",
      'src/domain/lint-probe-cycle-b.ts': "import { a } from './lint-probe-cycle-a';\nexport const b = () => a;\n",
    },
    rule: 'lint/nursery/noImportCycles',
    says: /part of a cycle/,
  },
  {
    name: 'client lib/ imports a feature',
    files: {
      'src/client/lib/lint-probe.ts':
        "import { taskKeys } from '../features/tasks/api/task-keys';\nexport const probe = taskKeys;\n",
    },
    rule: 'lint/style/noRestrictedImports',
    says: /never import a feature/,
  },
  {
    name: 'server/lib imports a module',
    files: {
      'src/server/lib/lint-probe.ts': "import { findOne } from '../modules/x/x.service';\nexport const probe = findOne;\n",
    },
    rule: 'lint/style/noRestrictedImports',
    says: /never imports one/,
  },
  {
    name: "a module imports another module's *.repo.ts",
    files: {
      'src/server/modules/y/y.service.ts': "import { byId } from '../x/x.repo';\nexport const findTwo = byId;\n",
    },
    rule: 'boundaries/noForeignRepo',
    says: /module 'y' imports module 'x''s repo .*private to its module/,
  },
  {
    name: "a module imports past another module's index.ts",
    files: {
      'src/server/modules/y/y.service.ts': "import { findOne } from '../x/x.service';\nexport const findTwo = findOne;\n",
    },
    rule: 'boundaries/noModuleInternals',
    says: /module 'y' imports 'modules\/x\/x\.service\.ts' from module 'x'/,
  },
  {
    name: 'a route file imports a repo',
    files: { 'src/server/modules/x/x.routes.ts': "import { byId } from './x.repo';\nexport const route = byId;\n" },
    rule: 'boundaries/noRouteToRepo',
    says: /routes call their service, never a repo/,
  },
  {
    name: 'a lower layer (server/db) imports a module',
    files: { 'src/server/db/lint-probe.ts': "import { findOne } from '../modules/x';\nexport const probe = findOne;\n" },
    rule: 'boundaries/noUpwardImport',
    says: /lower layer server\/db imports module 'x'/,
  },
  {
    name: 'server/lib imports server/db at run time',
    files: { 'src/server/lib/lint-probe.ts': "import { connect } from '../db/client';\nexport const probe = connect;\n" },
    rule: 'boundaries/noUpwardImport',
    says: /server\/lib imports server\/db/,
  },
  {
    name: 'a module imports a subscriber',
    files: {
      'src/server/modules/x/lint-probe.ts': "import { onChange } from '../../subscribers/x';\nexport const probe = onChange;\n",
    },
    rule: 'boundaries/noModuleToRoot',
    says: /module 'x' imports server\/subscribers/,
  },
  {
    // x/lint-probe -> y/index -> y.service -> x/index -> x.service: no file is in a cycle (Biome sees none), the modules are.
    name: 'two modules depend on each other through different files',
    files: { 'src/server/modules/x/lint-probe.ts': "import { findTwo } from '../y';\nexport const probe = findTwo;\n" },
    rule: 'boundaries/noModuleCycle',
    says: /module 'x' imports module 'y' .* and 'y' leads back to 'x': y -> x/,
  },
  {
    name: 'src imports from tests/',
    files: { 'src/domain/lint-probe.ts': "import { probe as p } from '../../tests/x.test';\nexport const probe = p;\n" },
    rule: 'lint/style/noRestrictedImports',
    says: /src imports nothing from tests\//,
  },
];

/** `npm run lint`'s diagnostics, per file: each starts with `path:line[:col] rule`. */
function diagnostics(output: string): Map<string, string[]> {
  const byFile = new Map<string, string[]>();
  let current: string[] | undefined;
  for (const line of output.split('\n')) {
    const head = /^(\S+?):\d+(?::\d+)? ((?:lint|boundaries)\/\w+(?:\/\w+)?)/.exec(line);
    if (head) {
      current = [`${head[2]!}\n${line}`];
      byFile.set(head[1]!, [...(byFile.get(head[1]!) ?? []), ...current]);
      current = byFile.get(head[1]!);
      continue;
    }
    if (current && line.trim()) current[current.length - 1] += `\n${line}`;
  }
  return byFile;
}

let scratch = '';

/** Writes the clean tree plus `files` to a fresh folder and runs `npm run lint` there. */
function lintTree(name: string, files: Record<string, string>): { status: number | null; output: string } {
  const dir = join(scratch, name.replace(/\W+/g, '-'));
  for (const entry of ['biome.json', 'package.json', 'scripts/check-boundaries.mjs']) cpSync(join(ROOT, entry), join(dir, entry));
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  for (const [file, text] of Object.entries({ ...CLEAN, ...files })) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
  const run = spawnSync('npm', ['run', '--silent', 'lint'], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  return { status: run.status, output: `${run.stdout}\n${run.stderr}` };
}

describe('npm run lint enforces the import boundaries', () => {
  beforeAll(() => {
    scratch = mkdtempSync(join(tmpdir(), 'crewboard-lint-'));
  });
  afterAll(() => {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it('passes on a tree that keeps them (the control for every probe below)', () => {
    const clean = lintTree('clean', {});
    expect(clean.status, clean.output).toBe(0);
    expect([...diagnostics(clean.output).keys()], clean.output).toEqual([]);
  });

  it.each(PROBES)('fails when $name ($rule)', ({ name, files, rule, says }) => {
    const result = lintTree(name, files);
    expect(result.status, result.output).not.toBe(0);
    const found = Object.keys(files).flatMap((file) => diagnostics(result.output).get(file) ?? []);
    expect(
      found.some((d) => d.startsWith(rule) && says.test(d)),
      `expected ${rule} on ${Object.keys(files).join(', ')}; lint said:\n${result.output}`,
    ).toBe(true);
  });
});
