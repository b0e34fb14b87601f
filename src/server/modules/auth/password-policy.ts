import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MSG } from '../../../domain/messages';
import { AppError } from '../../lib/errors';

/**
 * The list's file, beside this module: in the source tree (src/server/modules/auth), and beside the bundled server in
 * dist/server, where scripts/build-server.mjs copies it (one bundle, so import.meta.url is then main.js's or cli.js's).
 */
export const COMMON_PASSWORDS_FILE = fileURLToPath(new URL('common-passwords.txt', import.meta.url));

/** The listed passwords, one per line, lower-cased; lines starting with # (the list's source and licence) are not. */
export function readCommonPasswords(file: string = COMMON_PASSWORDS_FILE): string[] {
  return readFileSync(file, 'utf8')
    .split(/\r?\n/)
    .filter((line) => line !== '' && !line.startsWith('#'));
}

let common: Set<string> | undefined;

/** True when the password, lower-cased, is among the 10,000 most common (the file is read once, on first use). */
export function isCommonPassword(password: string): boolean {
  common ??= new Set(readCommonPasswords());
  return common.has(password.toLowerCase());
}

/**
 * Refuses a new password (sign-up, reset, change) that is among the most common: the first guesses
 * of any online or offline attack (OWASP ASVS 2.1.7). Never applied at sign-in: existing accounts keep working.
 */
export function requireUncommonPassword(password: string): void {
  if (isCommonPassword(password)) throw new AppError('password_too_common', { fields: { password: MSG.passwordTooCommon } });
}
