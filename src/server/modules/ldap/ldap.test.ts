import { describe, expect, it } from 'vitest';
import { directorySignInForm, signInForm } from '../../../domain/auth-forms';
import { mayUseLocalPassword } from '../auth';
import { parseGroupMap } from './ldap.config';
import { userFilterFor } from './ldap.directory';
import { mappedMemberships } from './ldap.service';

const TEAM_A = '11111111-1111-4111-8111-111111111111';
const TEAM_B = '22222222-2222-4222-8222-222222222222';

describe('directory sign-in rules', () => {
  it('puts the username into the filter escaped (RFC 4515), every time it appears', () => {
    const template = '(|(uid={{username}})(mail={{username}}))';
    expect(userFilterFor(template, 'alice')).toBe('(|(uid=alice)(mail=alice))');
    expect(userFilterFor(template, '*)(uid=*')).toBe('(|(uid=\\2a\\29\\28uid=\\2a)(mail=\\2a\\29\\28uid=\\2a))');
    expect(userFilterFor('(uid={{username}})', 'a\\b\u0000')).toBe('(uid=a\\5cb\\00)');
  });

  it('gives the higher role when two groups map to one team, and nothing for groups the person is not in', () => {
    const map = parseGroupMap(
      JSON.stringify({
        'cn=devs,dc=x': { team: TEAM_A, role: 'member' },
        'cn=leads,dc=x': { team: TEAM_A, role: 'admin' },
        'cn=readers,dc=x': { team: TEAM_B, role: 'viewer' },
      }),
    );
    expect(mappedMemberships(map, ['cn=devs,dc=x', 'cn=leads,dc=x'])).toEqual(
      new Map([[TEAM_A, { role: 'admin', group: 'cn=leads,dc=x' }]]),
    );
    expect(mappedMemberships(map, ['cn=readers,dc=x'])).toEqual(
      new Map([[TEAM_B, { role: 'viewer', group: 'cn=readers,dc=x' }]]),
    );
    expect(mappedMemberships(map, [])).toEqual(new Map());
    // A role left out is member.
    expect(parseGroupMap(JSON.stringify({ 'cn=x,dc=y': { team: TEAM_A } }))[0]?.role).toBe('member');
  });

  it('with local passwords off, only the break-glass address may use one', () => {
    expect(mayUseLocalPassword({ enabled: true, breakGlassEmail: null }, 'anyone@example.org')).toBe(true);
    const off = { enabled: false, breakGlassEmail: 'root@example.org' };
    expect(mayUseLocalPassword(off, ' Root@Example.org ')).toBe(true);
    expect(mayUseLocalPassword(off, 'someone@example.org')).toBe(false);
    expect(mayUseLocalPassword({ enabled: false, breakGlassEmail: null }, 'root@example.org')).toBe(false);
  });

  it("the login form takes a username with directory sign-in on, and keeps the spec's email rule off", () => {
    const values = { email: ' ada ', password: 'x', rememberMe: true };
    expect(directorySignInForm.safeParse(values).data).toEqual({ email: 'ada', password: 'x' });
    expect(directorySignInForm.safeParse({ ...values, email: 'Ada@Example.org' }).data?.email).toBe('ada@example.org');
    expect(directorySignInForm.safeParse({ ...values, email: ' ' }).error?.issues[0]?.message).toBe(
      'Email or username is required',
    );
    expect(signInForm.safeParse({ ...values, password: 'secret1' }).error?.issues[0]?.message).toBe(
      'Please enter a valid email address',
    );
  });
});
