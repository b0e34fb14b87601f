import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { accepts, freePort } from './free-port';

/** Debian's OpenLDAP server and its tools (.ci/run installs `slapd` and `ldap-utils`). */
export const SLAPD = '/usr/sbin/slapd';
export const SLAPADD = '/usr/sbin/slapadd';
export const hasSlapd = (): boolean => existsSync(SLAPD) && existsSync(SLAPADD) && existsSync('/usr/lib/ldap');
/** Why the LDAP tests are skipped on this machine (empty: they run). */
export const slapdMissing = (): string =>
  hasSlapd() ? '' : `skipped: ${SLAPD} (Debian's slapd) is not installed here; CI installs it (apt-get install slapd ldap-utils)`;

export const SUFFIX = 'dc=example,dc=org';
export const SERVICE_DN = `cn=crewboard,ou=system,${SUFFIX}`;
export const SERVICE_PASSWORD = 'service-secret';

export interface LdapTestUser {
  uid: string;
  /** Omitted: the entry has no mail attribute. */
  mail?: string;
  cn: string;
  password: string;
  /** Adds pwdAccountLockedTime-style marker: `description: disabled` (LDAP_DISABLED_FILTER `(description=disabled)`). */
  disabled?: boolean;
}

export interface LdapTestGroup {
  cn: string;
  /** The members' uids (groupOfNames `member` DNs). */
  members: string[];
}

export interface TestLdapServer {
  /** ldap://127.0.0.1:<port> (StartTLS) and ldaps://127.0.0.1:<port>. */
  url: string;
  ldapsUrl: string;
  /** The PEM file of the test CA that signed the server's certificate (what LDAP_CA_FILE names). */
  caFile: string;
  /** A PEM of another CA, which did not sign it (trusting it must not be enough). */
  otherCaFile: string;
  userDn(uid: string): string;
  groupDn(cn: string): string;
  /** Sets a user's groups' members, online (ldapmodify as the root DN). */
  setGroupMembers(cn: string, uids: string[]): void;
  /** Adds or removes the disabled marker of a user, online. */
  setDisabled(uid: string, disabled: boolean): void;
  stop(): Promise<void>;
}

const ROOT_DN = `cn=admin,${SUFFIX}`;
const ROOT_PASSWORD = 'root-secret';

function openssl(dir: string, ...args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
}

/** A CA, and a server certificate for 127.0.0.1 and localhost signed by it; plus an unrelated CA. */
function makeCertificates(dir: string): void {
  const ca = (name: string) =>
    openssl(
      dir,
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '2',
      '-subj',
      `/CN=${name}`,
      '-keyout',
      `${name}.key`,
      '-out',
      `${name}.pem`,
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
    );
  ca('ca');
  ca('other-ca');
  openssl(dir, 'req', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=127.0.0.1', '-keyout', 'server.key', '-out', 'server.csr');
  writeFileSync(join(dir, 'server.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n');
  openssl(
    dir,
    'x509',
    '-req',
    '-in',
    'server.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-days',
    '2',
    '-out',
    'server.pem',
    '-extfile',
    'server.ext',
  );
}

function ldif(users: LdapTestUser[], groups: LdapTestGroup[]): string {
  const entries = [
    `dn: ${SUFFIX}\nobjectClass: dcObject\nobjectClass: organization\ndc: example\no: Example`,
    `dn: ou=system,${SUFFIX}\nobjectClass: organizationalUnit\nou: system`,
    `dn: ou=people,${SUFFIX}\nobjectClass: organizationalUnit\nou: people`,
    `dn: ou=groups,${SUFFIX}\nobjectClass: organizationalUnit\nou: groups`,
    `dn: ${SERVICE_DN}\nobjectClass: person\ncn: crewboard\nsn: service\nuserPassword: ${SERVICE_PASSWORD}`,
    ...users.map((u) =>
      [
        `dn: uid=${u.uid},ou=people,${SUFFIX}`,
        'objectClass: inetOrgPerson',
        `uid: ${u.uid}`,
        `cn: ${u.cn}`,
        `sn: ${u.cn.split(' ').at(-1)}`,
        ...(u.mail ? [`mail: ${u.mail}`] : []),
        ...(u.disabled ? ['description: disabled'] : []),
        `userPassword: ${u.password}`,
      ].join('\n'),
    ),
    ...groups.map((g) =>
      [
        `dn: cn=${g.cn},ou=groups,${SUFFIX}`,
        'objectClass: groupOfNames',
        `cn: ${g.cn}`,
        // groupOfNames needs a member: the empty DN when it has none
        ...(g.members.length > 0 ? g.members.map((m) => `member: uid=${m},ou=people,${SUFFIX}`) : ['member: ']),
      ].join('\n'),
    ),
  ];
  return `${entries.join('\n\n')}\n`;
}

/**
 * A real OpenLDAP server on 127.0.0.1: Debian's slapd with a slapd.conf of its own in a temporary folder (back_mdb;
 * the core, cosine, inetorgperson and nis schemas), the users and groups loaded with slapadd, a self-signed CA and a
 * server certificate made with openssl for StartTLS (the ldap:// port) and ldaps (its own port). Only the service
 * account reads entries (anonymous may only bind); `allow bind_anon_dn` makes a bind with a DN and an empty password
 * "succeed" as anonymous, as some directories do, so the test can show the server refuses it first. Stopped by stop().
 */
export async function startSlapd(users: LdapTestUser[], groups: LdapTestGroup[]): Promise<TestLdapServer> {
  const dir = mkdtempSync(join(tmpdir(), 'crewboard-slapd-'));
  mkdirSync(join(dir, 'db'));
  makeCertificates(dir);
  const conf = join(dir, 'slapd.conf');
  writeFileSync(
    conf,
    [
      ...['core', 'cosine', 'inetorgperson', 'nis'].map((s) => `include /etc/ldap/schema/${s}.schema`),
      'modulepath /usr/lib/ldap',
      'moduleload back_mdb',
      `pidfile ${join(dir, 'slapd.pid')}`,
      `argsfile ${join(dir, 'slapd.args')}`,
      'allow bind_anon_dn',
      `TLSCACertificateFile ${join(dir, 'ca.pem')}`,
      `TLSCertificateFile ${join(dir, 'server.pem')}`,
      `TLSCertificateKeyFile ${join(dir, 'server.key')}`,
      'database mdb',
      `suffix "${SUFFIX}"`,
      `rootdn "${ROOT_DN}"`,
      `rootpw ${ROOT_PASSWORD}`,
      `directory ${join(dir, 'db')}`,
      'maxsize 10485760',
      'access to attrs=userPassword by anonymous auth by * none',
      `access to * by dn.exact="${SERVICE_DN}" read by self read by * none`,
      '',
    ].join('\n'),
  );
  writeFileSync(join(dir, 'data.ldif'), ldif(users, groups));
  execFileSync(SLAPADD, ['-f', conf, '-l', join(dir, 'data.ldif')], { stdio: 'pipe' });

  const port = await freePort();
  const ldapsPort = await freePort();
  const url = `ldap://127.0.0.1:${port}`;
  const ldapsUrl = `ldaps://127.0.0.1:${ldapsPort}`;
  let log = '';
  const child: ChildProcess = spawn(SLAPD, ['-f', conf, '-h', `${url}/ ${ldapsUrl}/`, '-d', '0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (b: Buffer) => {
    log += b.toString();
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const deadline = Date.now() + 15_000;
  while (!((await accepts(port)) && (await accepts(ldapsPort)))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`slapd did not start (exit ${child.exitCode}): ${log}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }

  const modify = (text: string) =>
    execFileSync('ldapmodify', ['-x', '-H', url, '-D', ROOT_DN, '-w', ROOT_PASSWORD], { input: text, stdio: 'pipe' });
  const userDn = (uid: string) => `uid=${uid},ou=people,${SUFFIX}`;
  const groupDn = (cn: string) => `cn=${cn},ou=groups,${SUFFIX}`;
  return {
    url,
    ldapsUrl,
    caFile: join(dir, 'ca.pem'),
    otherCaFile: join(dir, 'other-ca.pem'),
    userDn,
    groupDn,
    setGroupMembers(cn, uids) {
      const members = uids.length > 0 ? uids.map((u) => `member: ${userDn(u)}`) : ['member: '];
      modify([`dn: ${groupDn(cn)}`, 'changetype: modify', 'replace: member', ...members, ''].join('\n'));
    },
    setDisabled(uid, disabled) {
      const change = disabled ? ['replace: description', 'description: disabled'] : ['delete: description'];
      modify([`dn: ${userDn(uid)}`, 'changetype: modify', ...change, ''].join('\n'));
    },
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
