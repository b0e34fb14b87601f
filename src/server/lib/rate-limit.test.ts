import { describe, expect, it } from 'vitest';
import { ipKey } from './rate-limit';

describe('ipKey (issue 35, item 6): the key a client is rate-limited under', () => {
  it('keeps an IPv4 address as it is', () => {
    expect(ipKey('203.0.113.7')).toBe('203.0.113.7');
    expect(ipKey('10.7.0.1')).toBe('10.7.0.1');
  });

  it('groups every IPv6 address of one /64 under one key', () => {
    const key = ipKey('2001:db8:1:2::1');
    expect(key).toBe('2001:db8:1:2::/64');
    expect(ipKey('2001:db8:1:2:ffff:ffff:ffff:ffff')).toBe(key);
    expect(ipKey('2001:0DB8:0001:0002:0a0b:0c0d:0e0f:1011')).toBe(key);
    expect(ipKey('2001:db8:1:2:3:4:5.6.7.8')).toBe(key);
    expect(ipKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });

  it('tells apart addresses in different /64s', () => {
    expect(ipKey('2001:db8:1:3::1')).not.toBe(ipKey('2001:db8:1:2::1'));
    expect(ipKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(ipKey('::1')).toBe('0:0:0:0::/64');
  });

  it('reads an IPv4-mapped IPv6 address as its IPv4 address', () => {
    expect(ipKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(ipKey('::FFFF:cb00:7107')).toBe('203.0.113.7');
  });

  it('leaves anything that is not an address alone', () => {
    expect(ipKey('not an ip')).toBe('not an ip');
    expect(ipKey('')).toBe('');
  });
});
