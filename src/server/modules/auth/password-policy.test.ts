import { describe, expect, it } from 'vitest';
import { MSG } from '../../../domain/messages';
import { AppError } from '../../lib/errors';
import { COMMON_PASSWORDS_TEXT } from './common-passwords';
import { isCommonPassword, requireUncommonPassword } from './password-policy';

describe('finding 8: common passwords', () => {
  it('ships 10,000 distinct lower-cased passwords', () => {
    const lines = COMMON_PASSWORDS_TEXT.split('\n');
    expect(new Set(lines).size).toBe(10_000);
    expect(lines.every((line) => line === line.toLowerCase() && line.length > 0)).toBe(true);
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
