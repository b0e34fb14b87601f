import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/** scripts/check-openapi.mjs's lint step, shown to pass a clean document and to fail on a warning or an error. */

const ROOT = resolve(import.meta.dirname, '..', '..');
const scratch = mkdtempSync(join(tmpdir(), 'crewboard-openapi-check-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const CLEAN = {
  openapi: '3.0.3',
  info: { title: 'T', version: '1', description: 'd', license: { name: 'L', url: 'https://crewboard.test/licence' } },
  servers: [{ url: '/' }],
  security: [{ bearerAuth: [] }],
  tags: [{ name: 'tasks', description: 'Tasks.' }],
  components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } } },
  paths: {
    '/api/tasks': {
      get: {
        operationId: 'listTasks',
        summary: 'List tasks',
        tags: ['tasks'],
        responses: { 200: { description: 'OK' }, 401: { description: 'Not signed in' } },
      },
    },
  },
};

function lint(document: unknown) {
  const file = join(scratch, `${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(document));
  const run = spawnSync(process.execPath, ['scripts/check-openapi.mjs', '--lint', file], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

const without = (key: 'summary' | 'operationId') => {
  const { [key]: _, ...op } = CLEAN.paths['/api/tasks'].get;
  return { ...CLEAN, paths: { '/api/tasks': { get: op } } };
};

describe('npm run openapi:check, its redocly lint', () => {
  it('passes a document that meets the recommended rules', () => {
    const run = lint(CLEAN);
    expect(run.output).toContain('0 errors, 0 warnings');
    expect(run.status).toBe(0);
  });

  it('fails on an error (an operation without a summary)', () => {
    const run = lint(without('summary'));
    expect(run.output).toContain('operation-summary');
    expect(run.status).toBe(1);
  });

  it('fails on a mere warning too (no operationId, no 4xx answer)', () => {
    const run = lint(without('operationId'));
    expect(run.output).toContain('operation-operationId');
    expect(run.output).toMatch(/0 errors and 1 warnings/);
    expect(run.status).toBe(1);
    const no4xx = structuredClone(CLEAN);
    no4xx.paths['/api/tasks'].get.responses = {
      200: { description: 'OK' },
    } as (typeof no4xx.paths)['/api/tasks']['get']['responses'];
    expect(lint(no4xx).status).toBe(1);
  });
});
