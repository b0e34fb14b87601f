import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { accepts, freePort } from './free-port';
import { until } from './smtp';

/** Debian's dovecot-imapd (.ci/run installs it). */
export const DOVECOT = '/usr/sbin/dovecot';
export const hasDovecot = (): boolean => existsSync(DOVECOT);

export interface TestImapServer {
  port: number;
  user: string;
  password: string;
  /** `imap://user:password@127.0.0.1:<port>/INBOX`: what IMAP_URL would say. */
  url: string;
  stop(): Promise<void>;
}

/** A system account's uid and gid, from /etc/passwd. */
function account(name: string): { uid: number; gid: number } {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${name}:`));
  if (!line) throw new Error(`no system account ${name} (is dovecot-core installed?)`);
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * A real IMAP server on 127.0.0.1: Debian's dovecot with a configuration of its own in a temporary folder (one
 * passwd-file user, Maildir, no TLS, plain-text sign-in allowed). As an ordinary user it runs entirely as that user;
 * as root (a CI container) its login and internal processes run as Debian's `dovenull` and `dovecot` accounts (dovecot
 * refuses root for both) and the mail is stored as `dovecot`.
 */
export async function startDovecot(): Promise<TestImapServer> {
  const dir = mkdtempSync(join(tmpdir(), 'crewboard-dovecot-'));
  chmodSync(dir, 0o755);
  const port = await freePort();
  const user = 'intake';
  const password = `pw-${Math.random().toString(36).slice(2)}`;
  const root = process.getuid?.() === 0;
  const me = userInfo();
  const group = execFileSync('id', ['-gn'], { encoding: 'utf8' }).trim();
  const mailOwner = root ? account('dovecot') : { uid: me.uid, gid: me.gid };
  for (const sub of ['run', 'state', 'mail', 'home']) mkdirSync(join(dir, sub));
  for (const sub of ['mail', 'home']) chownSync(join(dir, sub), mailOwner.uid, mailOwner.gid);
  writeFileSync(join(dir, 'passwd'), `${user}:{PLAIN}${password}\n`);
  const config = join(dir, 'dovecot.conf');
  writeFileSync(
    config,
    `protocols = imap
listen = 127.0.0.1
base_dir = ${dir}/run
state_dir = ${dir}/state
instance_name = crewboard-test-${port}
log_path = ${dir}/dovecot.log
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
default_internal_user = ${root ? 'dovecot' : me.username}
default_internal_group = ${root ? 'dovecot' : group}
default_login_user = ${root ? 'dovenull' : me.username}
first_valid_uid = ${Math.min(mailOwner.uid, 100)}
mail_location = maildir:${dir}/mail/%u
passdb {
  driver = passwd-file
  args = scheme=PLAIN ${dir}/passwd
}
userdb {
  driver = static
  args = uid=${mailOwner.uid} gid=${mailOwner.gid} home=${dir}/home/%u
}
service imap-login {
  chroot =
  inet_listener imap {
    address = 127.0.0.1
    port = ${port}
  }
  inet_listener imaps {
    port = 0
  }
}
service anvil {
  chroot =
}
`,
  );
  // The daemon keeps no pipe of ours open (a captured stdout would hold this call until dovecot exits).
  execFileSync(DOVECOT, ['-c', config], { stdio: 'ignore' });
  const pidFile = join(dir, 'run', 'master.pid');
  await until(() => existsSync(pidFile) && accepts(port), 10_000, 'dovecot to listen');
  const pid = Number(readFileSync(pidFile, 'utf8').trim());
  return {
    port,
    user,
    password,
    url: `imap://${user}:${password}@127.0.0.1:${port}/INBOX`,
    async stop() {
      if (alive(pid)) process.kill(pid, 'SIGTERM');
      await until(() => !alive(pid), 10_000, 'dovecot to stop');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
