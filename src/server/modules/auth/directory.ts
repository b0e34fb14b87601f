import type { ErrorReason } from '../../../domain/errors';
import type { UserRow } from '../../db/schema';

/**
 * A directory that checks names and passwords before the local ones (LDAP, issue 41; the ldap module implements it,
 * the composition root hands it to AuthService.useDirectory, so auth never imports it).
 * - `{ user }`: the directory accepted the password; the account (created or linked on a first sign-in).
 * - `{ refused, userId }`: the directory knows this person and says no for good (disabled, an unproven account with
 *   the same address…): no local password is tried.
 * - `null`: not the directory's (no such user, or a wrong password): the local passwords may be tried.
 * Throws DirectoryUnreachable when it cannot be asked.
 */
export interface PasswordDirectory {
  signIn(identifier: string, password: string, ip: string | null): Promise<DirectorySignIn>;
}

export type DirectorySignIn = { user: UserRow } | { refused: ErrorReason; userId: string | null } | null;

/** The directory could not be asked (down, TLS refused…): see AuthService.signInWithPassword. */
export class DirectoryUnreachable extends Error {
  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.name = 'DirectoryUnreachable';
  }
}

/** LOCAL_PASSWORDS / BREAK_GLASS_EMAIL: who may sign in with a password kept here. */
export interface LocalPasswordPolicy {
  enabled: boolean;
  breakGlassEmail: string | null;
}

/** May `identifier` sign in with a local password? Always with local passwords on; else only the break-glass address. */
export function mayUseLocalPassword(policy: LocalPasswordPolicy, identifier: string): boolean {
  if (policy.enabled) return true;
  return policy.breakGlassEmail !== null && identifier.trim().toLowerCase() === policy.breakGlassEmail;
}
