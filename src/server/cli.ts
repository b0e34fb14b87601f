import { existsSync } from 'node:fs';
import { request } from 'node:http';
import { resolve } from 'node:path';
import { SYSTEM_ROLES } from '../domain/constants';
import { setRoleInput } from '../domain/schemas/auth';
import { adminSocketPath } from './admin-socket';
import { openDatabase } from './db/client';
import { setRoleByEmail } from './modules/users/users.repo';

const USAGE = `Usage:
  npm run cli -- set-role <email> <${SYSTEM_ROLES.join('|')}>`;

function viaSocket(path: string, body: unknown): Promise<{ status: number; data: { error?: string } }> {
  return new Promise((resolvePromise, reject) => {
    const req = request({ socketPath: path, method: 'POST', path: '/set-role', headers: { 'content-type': 'application/json' } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        text += c;
      });
      res.on('end', () => resolvePromise({ status: res.statusCode ?? 500, data: JSON.parse(text || '{}') }));
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

async function setRole(emailArg: string | undefined, roleArg: string | undefined): Promise<number> {
  const parsed = setRoleInput.safeParse({ email: emailArg ?? '', role: roleArg ?? '' });
  if (!parsed.success) {
    console.error(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('\n'));
    console.error(USAGE);
    return 2;
  }
  const { email, role } = parsed.data;
  const databaseUrl = process.env.DATABASE_URL || undefined;
  const dataDir = resolve(process.env.DATA_DIR || './data');
  const socket = adminSocketPath(dataDir);
  if (!databaseUrl && existsSync(socket)) {
    try {
      const { status, data } = await viaSocket(socket, { email, role });
      if (status !== 200) {
        console.error(data.error ?? `failed (${status})`);
        return 1;
      }
      console.log(`${email} is now ${role}`);
      return 0;
    } catch {
      // A stale socket from a server that is gone: fall through to opening the database.
    }
  }
  const database = await openDatabase({ databaseUrl, dataDir });
  try {
    await database.migrate();
    const user = await setRoleByEmail(database.db, email, role);
    if (!user) {
      console.error(`no user with email ${email}`);
      return 1;
    }
    console.log(`${email} is now ${role}`);
    return 0;
  } finally {
    await database.close();
  }
}

async function main(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  switch (command) {
    case 'set-role':
      return setRole(args[0], args[1]);
    default:
      console.error(USAGE);
      return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
