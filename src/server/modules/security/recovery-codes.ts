import { createHash, randomBytes } from 'node:crypto';
import { TWO_FACTOR } from '../../../domain/schemas/security';

/** Crockford's base32 alphabet in lower case: no i, l, o or u to misread. 32 symbols, so a byte & 31 is unbiased. */
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
const LENGTH = 10;

/** Ten codes of ten symbols (50 random bits each), written 'xxxxx-xxxxx'. */
export function newRecoveryCodes(count: number = TWO_FACTOR.recoveryCodes): string[] {
  return Array.from({ length: count }, () => {
    const symbols = [...randomBytes(LENGTH)].map((byte) => ALPHABET[byte & 31]).join('');
    return `${symbols.slice(0, 5)}-${symbols.slice(5)}`;
  });
}

/** What is compared: lower case, without the dash or spaces a person may type or leave out. */
export const normalizeRecoveryCode = (code: string): string => code.toLowerCase().replace(/[^0-9a-z]/g, '');

/** Stored instead of the code: hex SHA-256 of its normalized form (50 random bits need no slow hash). */
export const hashRecoveryCode = (code: string): string => createHash('sha256').update(normalizeRecoveryCode(code)).digest('hex');
