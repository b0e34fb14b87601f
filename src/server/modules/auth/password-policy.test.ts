import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MSG } from '../../../domain/messages';
import { AppError } from '../../lib/errors';
import { isCommonPassword, readCommonPasswords, requireUncommonPassword } from './password-policy';

describe('finding 8: common passwords', () => {
  it('ships 10,000 distinct lower-cased passwords', () => {
    const lines = readCommonPasswords();
    expect(lines).toHaveLength(10_000);
    expect(new Set(lines).size).toBe(10_000);
    expect(lines.slice(0, 3)).toEqual(['123456', 'password', '12345678']);
    expect(lines.every((line) => line === line.toLowerCase() && line.length > 0)).toBe(true);
  });

  it('reads a list file: one password per line, without its # comments, blank lines or CRLF endings', () => {
    const dir = mkdtempSync(join(tmpdir(), 'crewboard-passwords-'));
    try {
      const file = join(dir, 'list.txt');
      writeFileSync(file, '# source and licence\r\nhunter2\r\n\r\nletmein\n');
      expect(readCommonPasswords(file)).toEqual(['hunter2', 'letmein']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('finds a listed password whatever its case, and nothing else', () => {
    expect(isCommonPassword('password1')).toBe(true);
    expect(isCommonPassword('PASSWORD1')).toBe(true);
    expect(isCommonPassword('Qwerty123')).toBe(true);
    expect(isCommonPassword('correct horse battery')).toBe(false);
    expect(isCommonPassword('password1 ')).toBe(false);
    expect(isCommonPassword('')).toBe(false);
  });

  it('refuses a common password with the field message', () => {
    expect(() => requireUncommonPassword('correct horse battery')).not.toThrow();
    try {
      requireUncommonPassword('iloveyou');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).reason).toBe('password_too_common');
      expect((error as AppError).fields).toEqual({ password: MSG.passwordTooCommon });
    }
  });
});
