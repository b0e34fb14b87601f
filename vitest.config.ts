import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Vitest's default leaves one core idle (all but one): on CI's two cores, one worker, and the integration files
    // (each mostly its own PGlite, on the CPU) ran one after another. Every core, and never fewer than two.
    maxWorkers: Math.max(2, availableParallelism()),
    projects: [
      {
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
          pool: 'forks',
          // One module graph per worker, not per file: each file imported the server anew (219 s of the PGlite suite's
          // 1,060 s summed, 412 s of PostgreSQL's with one worker), and opened its first PGlite from scratch. Every file
          // builds its own app on its own database; what is global in a process (the password cost, fake timers) is
          // set by each file that changes it.
          isolate: false,
          // Servers the tests start (main.ts, in a child process) hash passwords as cheaply as buildApp's (testConfig).
          env: { PASSWORD_HASHING: 'test' },
        },
      },
      {
        // The upgrade test (tests/upgrade/README.md): the previous release's server fills a database, today's upgrades it.
        test: {
          name: 'upgrade',
          include: ['tests/upgrade/**/*.test.ts'],
          environment: 'node',
          testTimeout: 300_000,
          hookTimeout: 300_000,
        },
      },
      {
        // The project's own tooling: the lint boundaries and the browser finder, each shown to fail.
        test: {
          name: 'tooling',
          include: ['tests/tooling/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
        },
      },
    ],
  },
});
