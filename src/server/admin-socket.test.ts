import { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { adminSocketPath, startAdminSocket } from './admin-socket';
import type { ChangeRecorder } from './lib/changes';
import type { Db } from './db/client';

describe('admin socket', () => {
  const cleanups: (() => void)[] = [];
  afterEach(() => {
    for (const cleanup of cleanups.splice(0)) cleanup();
    vi.restoreAllMocks();
  });

  it('finding 6: the CLI socket is 0600 from the moment it exists, whatever the umask', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'crewboard-socket-'));
    const path = adminSocketPath(dir);
    // The most permissive umask: a socket bound under it is 0777 until something tightens it.
    const umask = process.umask(0);
    cleanups.push(() => {
      process.umask(umask);
      rmSync(dir, { recursive: true, force: true });
    });
    // The socket's mode when the server announces it listens: clients may connect from then on.
    const modes: number[] = [];
    const emit = EventEmitter.prototype.emit;
    vi.spyOn(Server.prototype, 'emit').mockImplementation(function (this: Server, event: string | symbol, ...args: unknown[]) {
      if (event === 'listening') modes.push(statSync(path).mode & 0o777);
      return emit.call(this, event, ...args);
    });

    const server = await startAdminSocket({} as Db, dir, {} as ChangeRecorder);
    cleanups.unshift(() => server.close());

    expect(modes).toEqual([0o600]);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    // The process's own umask is left as it was (reading it means setting it: to the same value).
    expect(process.umask(0)).toBe(0);
  });
});
