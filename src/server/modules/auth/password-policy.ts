import { MSG } from '../../../domain/messages';
import { AppError } from '../../lib/errors';
import { COMMON_PASSWORDS_TEXT } from './common-passwords';

let common: Set<string> | undefined;

/** True when the password, lower-cased, is among the 10,000 most common (the set is built on first use). */
export function isCommonPassword(password: string): boolean {
  common ??= new Set(COMMON_PASSWORDS_TEXT.split('\n'));
  return common.has(password.toLowerCase());
}

/**
 * Refuses a new password (sign-up, reset, change) that is among the most common: the first guesses
 * of any online or offline attack (OWASP ASVS 2.1.7). Never applied at sign-in: existing accounts keep working.
 */
export function requireUncommonPassword(password: string): void {
  if (isCommonPassword(password)) throw new AppError('password_too_common', { fields: { password: MSG.passwordTooCommon } });
}
