import { chmodSync, existsSync, unlinkSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { setRoleInput } from '../domain/schemas/auth';
import type { Db } from './db/client';
import type { ChangeRecorder } from './lib/changes';
import { setSystemRole } from './modules/admin/set-role';

export const adminSocketPath = (dataDir: string) => join(dataDir, 'cli.sock');

/** A socket is created 0777 minus the umask: this leaves 0600. */
const SOCKET_UMASK = 0o177;

/**
 * PGlite admits one process, so while the server runs the CLI reaches the database through
 * this socket in DATA_DIR, which only the owner can open (mode 0600).
 */
export async function startAdminSocket(db: Db, dataDir: string, changes: ChangeRecorder): Promise<Server> {
  const path = adminSocketPath(dataDir);
  if (existsSync(path)) unlinkSync(path);
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
      if (body.length > 10_000) req.destroy();
    });
    req.on('end', async () => {
      const reply = (status: number, payload: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(payload));
      };
      try {
        if (req.method !== 'POST' || req.url !== '/set-role') return reply(404, { error: 'not found' });
        const parsed = setRoleInput.safeParse(JSON.parse(body));
        if (!parsed.success) return reply(400, { error: parsed.error.issues[0]?.message ?? 'invalid input' });
        const user = await setSystemRole(changes, db, parsed.data.email, parsed.data.role, 'cli_socket');
        if (!user) return reply(404, { error: `no user with email ${parsed.data.email}` });
        return reply(200, { email: user.email, role: user.role });
      } catch (error) {
        return reply(500, { error: (error as Error).message });
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // listen() binds the socket file synchronously: under this umask it is born 0600, with no
    // moment at which another account could connect before a chmod.
    const umask = process.umask(SOCKET_UMASK);
    try {
      server.listen(path, () => resolve());
    } finally {
      process.umask(umask);
    }
  });
  chmodSync(path, 0o600);
  return server;
}
