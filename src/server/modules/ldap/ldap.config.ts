import { readFileSync } from 'node:fs';
import { INVITATION_ROLES, type InvitationRole } from '../../../domain/constants';

/** Directory sign-in (issue 41, decision 0031): the LDAP_* variables, checked when the server starts. */
export interface LdapConfig {
  /** LDAP_URL: `ldap://` (upgraded with StartTLS before any bind) or `ldaps://`. */
  url: string;
  /** LDAP_BIND_DN / LDAP_BIND_PASSWORD: the service account that searches (both unset: an anonymous search). */
  bindDn: string | null;
  bindPassword: string;
  /** LDAP_SEARCH_BASE: where users are searched (subtree). */
  searchBase: string;
  /** LDAP_USER_FILTER: `{{username}}` is replaced by the name given, escaped (RFC 4515). */
  userFilter: string;
  /** LDAP_EMAIL_ATTRIBUTE (default mail), LDAP_NAME_ATTRIBUTE (default cn). */
  emailAttribute: string;
  nameAttribute: string;
  /** LDAP_DISABLED_FILTER: a user entry it matches is refused (e.g. `(pwdAccountLockedTime=*)`). */
  disabledFilter: string | null;
  /** LDAP_CA_FILE's PEM (read at start): trusted for StartTLS and ldaps besides the system's CAs. */
  ca: string | null;
  /** LDAP_GROUP_MAP: group DN → the team membership it gives, reconciled at each sign-in. */
  groupMap: readonly LdapGroupMapping[];
  /** How long one directory operation (and the connection) may take. */
  timeoutMs: number;
}

export interface LdapGroupMapping {
  groupDn: string;
  teamId: string;
  role: InvitationRole;
}

/** The placeholder LDAP_USER_FILTER must hold. */
export const USERNAME_PLACEHOLDER = '{{username}}';
export const DEFAULT_USER_FILTER = '(|(uid={{username}})(mail={{username}}))';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A filter's parentheses balance and it is wrapped in them (a typo here would fail every sign-in, silently). */
function requireFilter(value: string, name: string): string {
  let depth = 0;
  for (const ch of value) {
    depth += ch === '(' ? 1 : ch === ')' ? -1 : 0;
    if (depth < 0) break;
  }
  if (!value.startsWith('(') || !value.endsWith(')') || depth !== 0) {
    throw new Error(`${name} must be an LDAP filter in parentheses, got "${value}"`);
  }
  return value;
}

/** LDAP_GROUP_MAP: `{"<group DN>": {"team": "<team id>", "role": "member"}, …}`; anything else stops the start. */
export function parseGroupMap(raw: string | undefined): LdapGroupMapping[] {
  if (!raw?.trim()) return [];
  const example = '{"cn=devs,ou=groups,dc=example,dc=org": {"team": "<team id>", "role": "member"}}';
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (error) {
    throw new Error(`LDAP_GROUP_MAP must be JSON like ${example}: ${(error as Error).message}`);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new Error(`LDAP_GROUP_MAP must be a JSON object like ${example}`);
  }
  return Object.entries(parsed as Record<string, unknown>).map(([groupDn, value]) => {
    const entry = value as { team?: unknown; role?: unknown } | null;
    if (!groupDn.includes('=')) throw new Error(`LDAP_GROUP_MAP: "${groupDn}" is not a group DN`);
    if (!entry || typeof entry !== 'object' || typeof entry.team !== 'string' || !UUID.test(entry.team)) {
      throw new Error(`LDAP_GROUP_MAP: "${groupDn}" needs a "team" that is a team id (a UUID)`);
    }
    const role = entry.role ?? 'member';
    if (typeof role !== 'string' || !(INVITATION_ROLES as readonly string[]).includes(role)) {
      throw new Error(`LDAP_GROUP_MAP: "${groupDn}" has role "${String(role)}"; a role is one of ${INVITATION_ROLES.join(', ')}`);
    }
    return { groupDn, teamId: entry.team.toLowerCase(), role: role as InvitationRole };
  });
}

/** The LDAP_* variables, or null when LDAP_URL is unset (directory sign-in off). */
export function loadLdapConfig(env: NodeJS.ProcessEnv): LdapConfig | null {
  const url = env.LDAP_URL?.trim();
  if (!url) return null;
  if (!/^ldaps?:\/\/[^/\s]+\/?$/i.test(url)) {
    throw new Error(`LDAP_URL must be ldap://host:port (StartTLS is used) or ldaps://host:port, got "${url}"`);
  }
  const searchBase = env.LDAP_SEARCH_BASE?.trim();
  if (!searchBase) throw new Error('LDAP_URL needs LDAP_SEARCH_BASE (where the users are searched)');
  const bindDn = env.LDAP_BIND_DN?.trim() || null;
  if (bindDn && !env.LDAP_BIND_PASSWORD) throw new Error('LDAP_BIND_DN needs LDAP_BIND_PASSWORD');
  const userFilter = requireFilter(env.LDAP_USER_FILTER?.trim() || DEFAULT_USER_FILTER, 'LDAP_USER_FILTER');
  if (!userFilter.includes(USERNAME_PLACEHOLDER)) throw new Error(`LDAP_USER_FILTER must contain ${USERNAME_PLACEHOLDER}`);
  const disabled = env.LDAP_DISABLED_FILTER?.trim();
  const caFile = env.LDAP_CA_FILE?.trim();
  let ca: string | null = null;
  if (caFile) {
    try {
      ca = readFileSync(caFile, 'utf8');
    } catch (error) {
      throw new Error(`LDAP_CA_FILE cannot be read (${caFile}): ${(error as Error).message}`);
    }
    if (!ca.includes('-----BEGIN CERTIFICATE-----')) throw new Error(`LDAP_CA_FILE must be a PEM certificate: ${caFile}`);
  }
  return {
    url: url.replace(/\/$/, ''),
    bindDn,
    bindPassword: env.LDAP_BIND_PASSWORD ?? '',
    searchBase,
    userFilter,
    emailAttribute: env.LDAP_EMAIL_ATTRIBUTE?.trim() || 'mail',
    nameAttribute: env.LDAP_NAME_ATTRIBUTE?.trim() || 'cn',
    disabledFilter: disabled ? requireFilter(disabled, 'LDAP_DISABLED_FILTER') : null,
    ca,
    groupMap: parseGroupMap(env.LDAP_GROUP_MAP),
    timeoutMs: 10_000,
  };
}

/** LOCAL_PASSWORDS (`on`, the default, or `off`) and BREAK_GLASS_EMAIL: who may still sign in with a local password. */
export interface LocalPasswordsConfig {
  enabled: boolean;
  /** With local passwords off, the one account that still may (lower-cased). */
  breakGlassEmail: string | null;
}

export function loadLocalPasswords(env: NodeJS.ProcessEnv): LocalPasswordsConfig {
  const value = env.LOCAL_PASSWORDS?.trim();
  if (value && value !== 'on' && value !== 'off') throw new Error(`LOCAL_PASSWORDS must be on or off, got "${value}"`);
  const breakGlass = env.BREAK_GLASS_EMAIL?.trim().toLowerCase() || null;
  if (breakGlass && !breakGlass.includes('@')) throw new Error(`BREAK_GLASS_EMAIL must be an email address, got "${breakGlass}"`);
  return { enabled: value !== 'off', breakGlassEmail: breakGlass };
}
