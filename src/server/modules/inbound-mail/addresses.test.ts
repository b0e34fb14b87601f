import { describe, expect, it } from 'vitest';
import { base32, intakeAddress, isAtDomain, newAddressToken, projectSlug, replyAddress, tokenOf } from './addresses';

describe('mail addresses', () => {
  it('writes base32 as RFC 4648 does, lower case, without padding', () => {
    expect(base32(Buffer.from('foobar'))).toBe('mzxw6ytboi');
    expect(base32(Buffer.from('f'))).toBe('my');
    expect(newAddressToken()).toMatch(/^[a-z2-7]{32}$/);
    expect(newAddressToken()).not.toBe(newAddressToken());
  });

  it("makes the project's slug: lower case, runs of other characters one '-', at most 30", () => {
    expect(projectSlug('Help Desk!')).toBe('help-desk');
    expect(projectSlug('  Ünïcode & Co. — 2026  ')).toBe('n-code-co-2026');
    expect(projectSlug(`${'A'.repeat(29)} tail`)).toBe('a'.repeat(29));
    expect(projectSlug('???')).toBe('project');
  });

  it('finds the token of an address at the domain, whatever the case, and nothing else', () => {
    const token = newAddressToken();
    expect(tokenOf(intakeAddress('Help Desk', token, 'in.example'), 'in.example')).toBe(token);
    expect(tokenOf(intakeAddress('Help Desk', token, 'in.example').toUpperCase(), 'in.example')).toBe(token);
    expect(tokenOf(replyAddress(token, 'in.example'), 'in.example')).toBe(token);
    expect(tokenOf(`anything+${token}@in.example`, 'in.example')).toBe(token);
    expect(tokenOf(`help+${token}@other.example`, 'in.example')).toBeNull();
    expect(tokenOf(`help+${token}1@in.example`, 'in.example')).toBeNull();
    expect(tokenOf(`${token}@in.example`, 'in.example')).toBeNull();
    expect(isAtDomain('a@IN.example', 'in.example')).toBe(true);
    expect(isAtDomain('a@sub.in.example', 'in.example')).toBe(false);
  });
});
