import { isIP } from 'node:net';
import type { ConnectionOptions } from 'node:tls';
import { rootCertificates } from 'node:tls';
import { Client, type Entry, Filter, InvalidCredentialsError } from 'ldapts';
import { type LdapConfig, USERNAME_PLACEHOLDER } from './ldap.config';

/** A directory user whose password the directory accepted. */
export interface DirectoryUser {
  dn: string;
  /** Lower-cased; null when the entry has no usable address. */
  email: string | null;
  name: string | null;
  /** The mapped groups (LDAP_GROUP_MAP's DNs, as written there) the user belongs to. */
  groups: string[];
}

/**
 * What the directory says of a name and a password: the user (right password), `disabled` (right password, but
 * LDAP_DISABLED_FILTER matches), or `rejected`: an empty password, no such user, more than one, or a wrong password
 * (the caller cannot tell which: neither can whoever is guessing).
 */
export type DirectoryAnswer =
  | { kind: 'user'; user: DirectoryUser }
  | { kind: 'disabled'; dn: string; email: string | null }
  | { kind: 'rejected' };

/** The directory could not be asked (down, TLS refused, the service account's bind refused…). */
export class DirectoryUnavailable extends Error {
  constructor(cause: unknown) {
    super(`the LDAP directory cannot be used: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'DirectoryUnavailable';
  }
}

/** LDAP_USER_FILTER with the name put in, escaped (RFC 4515): `*`, `(`, `)`, `\` and NUL cannot change the filter. */
export function userFilterFor(template: string, username: string): string {
  return template.split(USERNAME_PLACEHOLDER).join(Filter.escape(username));
}

/** A DN as one filter value (member=…): escaped as any value is. */
const filterValue = (value: string) => Filter.escape(value);

function firstString(entry: Entry, attribute: string): string | null {
  const key = Object.keys(entry).find((k) => k.toLowerCase() === attribute.toLowerCase());
  const value = key ? entry[key] : undefined;
  const first = Array.isArray(value) ? value[0] : value;
  if (first === undefined) return null;
  const text = (Buffer.isBuffer(first) ? first.toString('utf8') : String(first)).trim();
  return text || null;
}

/**
 * The directory itself, through `ldapts`: one connection per sign-in, StartTLS before any bind on `ldap://`, the CA
 * of LDAP_CA_FILE trusted besides the system's, certificates always checked.
 */
export class LdapDirectory {
  constructor(private readonly config: LdapConfig) {}

  private tlsOptions(): ConnectionOptions {
    const host = new URL(this.config.url).hostname.replace(/^\[|\]$/g, '');
    return {
      ca: this.config.ca ? [...rootCertificates, this.config.ca] : undefined,
      rejectUnauthorized: true,
      // The certificate is checked against the host either way; SNI carries names only (RFC 6066).
      ...(isIP(host) ? { host } : { servername: host, host }),
      minVersion: 'TLSv1.2',
    };
  }

  /** Opens a connection (TLS on every route: ldaps, or StartTLS before anything is sent), runs `work`, closes it. */
  private async withClient<T>(work: (client: Client) => Promise<T>): Promise<T> {
    const secure = this.config.url.toLowerCase().startsWith('ldaps://');
    const client = new Client({
      url: this.config.url,
      timeout: this.config.timeoutMs,
      connectTimeout: this.config.timeoutMs,
      tlsOptions: secure ? this.tlsOptions() : undefined,
    });
    try {
      if (!secure) {
        try {
          await client.startTLS(this.tlsOptions());
        } catch (error) {
          throw new DirectoryUnavailable(error);
        }
      }
      return await work(client);
    } finally {
      await client.unbind().catch(() => {});
    }
  }

  /** Binds as the service account (or stays anonymous without one); its refusal is the server's misconfiguration. */
  private async bindService(client: Client): Promise<void> {
    if (!this.config.bindDn) return;
    try {
      await client.bind(this.config.bindDn, this.config.bindPassword);
    } catch (error) {
      throw new DirectoryUnavailable(error);
    }
  }

  /**
   * Checks a name and a password: bind as the service account, search the one user LDAP_USER_FILTER finds, bind as
   * that DN with the password; then, bound as the service account again, ask LDAP_DISABLED_FILTER and the mapped
   * groups. An empty password is refused before any bind (an LDAP bind with a DN and no password is an anonymous bind,
   * which "succeeds", RFC 4513 §5.1.2).
   */
  async authenticate(username: string, password: string): Promise<DirectoryAnswer> {
    const name = username.trim();
    if (!name || password.length === 0) return { kind: 'rejected' };
    try {
      return await this.withClient(async (client) => {
        await this.bindService(client);
        const found = await client.search(this.config.searchBase, {
          scope: 'sub',
          filter: userFilterFor(this.config.userFilter, name),
          attributes: ['dn', this.config.emailAttribute, this.config.nameAttribute, 'uid'],
          sizeLimit: 2,
        });
        if (found.searchEntries.length !== 1) return { kind: 'rejected' } as const;
        const entry = found.searchEntries[0]!;
        try {
          await client.bind(entry.dn, password);
        } catch (error) {
          if (error instanceof InvalidCredentialsError) return { kind: 'rejected' } as const;
          throw error;
        }
        // Back to the service account: what it may read is not what the user may.
        await this.bindService(client);
        const email = firstString(entry, this.config.emailAttribute)?.toLowerCase() ?? null;
        if (this.config.disabledFilter && (await this.matches(client, entry.dn, this.config.disabledFilter))) {
          return { kind: 'disabled', dn: entry.dn, email } as const;
        }
        const uid = firstString(entry, 'uid');
        const groups: string[] = [];
        for (const { groupDn } of this.config.groupMap) {
          if (!groups.includes(groupDn) && (await this.isMember(client, groupDn, entry.dn, uid))) groups.push(groupDn);
        }
        const user: DirectoryUser = { dn: entry.dn, email, name: firstString(entry, this.config.nameAttribute), groups };
        return { kind: 'user', user } as const;
      });
    } catch (error) {
      if (error instanceof DirectoryUnavailable) throw error;
      throw new DirectoryUnavailable(error);
    }
  }

  /** Does the entry at `dn` match `filter` (a base search of that one entry)? */
  private async matches(client: Client, dn: string, filter: string): Promise<boolean> {
    const result = await client.search(dn, { scope: 'base', filter, attributes: ['1.1'] });
    return result.searchEntries.length > 0;
  }

  /** Is the user in the group (groupOfNames `member`, groupOfUniqueNames `uniqueMember` or posixGroup `memberUid`)? */
  private async isMember(client: Client, groupDn: string, userDn: string, uid: string | null): Promise<boolean> {
    const byUid = uid ? `(memberUid=${filterValue(uid)})` : '';
    const filter = `(|(member=${filterValue(userDn)})(uniqueMember=${filterValue(userDn)})${byUid})`;
    try {
      return await this.matches(client, groupDn, filter);
    } catch (error) {
      // A group the map names but the directory does not have: nobody is in it.
      if (error instanceof Error && error.name === 'NoSuchObjectError') return false;
      throw error;
    }
  }
}
