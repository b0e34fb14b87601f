import { randomBytes } from 'node:crypto';

/** The token of a mail address (an intake address, a reply address): 20 random bytes (160 bits). */
const TOKEN_BYTES = 20;
const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';
/** 20 bytes in base32: 32 characters of a–z and 2–7 (a local part is case-insensitive in practice). */
const TOKEN_SHAPE = /^[a-z2-7]{32}$/;
/** The project's name as the decorative part of its intake address: at most this long. */
const SLUG_MAX = 30;

/** RFC 4648 base32, lower case, without padding. */
export function base32(bytes: Uint8Array): string {
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(buffer >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(buffer << (5 - bits)) & 31];
  return out;
}

export const newAddressToken = (): string => base32(randomBytes(TOKEN_BYTES));

/** The project's name lower-cased, every run of other characters than a–z and 0–9 one '-', at most 30 characters. */
export function projectSlug(name: string): string {
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, SLUG_MAX)
    .replace(/-+$/, '');
  return slug || 'project';
}

export const intakeAddress = (projectName: string, token: string, domain: string): string =>
  `${projectSlug(projectName)}+${token}@${domain}`;

export const replyAddress = (token: string, domain: string): string => `reply+${token}@${domain}`;

/** Where an address is: at `domain` (case-insensitive), or not. */
export function isAtDomain(address: string, domain: string): boolean {
  const at = address.lastIndexOf('@');
  return at > 0 && address.slice(at + 1).toLowerCase() === domain.toLowerCase();
}

/**
 * The token of an address at `domain` (`<anything>+<token>@domain`: the part before the '+' is decorative, the
 * token alone finds the project or the reply), or null when the address is not one of ours.
 */
export function tokenOf(address: string, domain: string): string | null {
  if (!isAtDomain(address, domain)) return null;
  const local = address.slice(0, address.lastIndexOf('@')).toLowerCase();
  const plus = local.lastIndexOf('+');
  const token = plus < 0 ? '' : local.slice(plus + 1);
  return TOKEN_SHAPE.test(token) ? token : null;
}
