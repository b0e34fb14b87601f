import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';

/** loadConfig with AUTH_SECRET set, so that nothing is written to a data folder. */
const load = (env: Record<string, string>) => loadConfig({ AUTH_SECRET: 'x'.repeat(32), DATA_DIR: '/nonexistent', ...env });

describe('TRUST_PROXY', () => {
  it('finding 2: is no proxy when unset or false, a number of proxies, or a list of proxy addresses and CIDRs', () => {
    expect(load({}).trustProxy).toBe(false);
    expect(load({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(load({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(load({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(load({ TRUST_PROXY: '10.0.0.1, 192.168.0.0/16,fd00::/8,::1,loopback' }).trustProxy).toEqual([
      '10.0.0.1',
      '192.168.0.0/16',
      'fd00::/8',
      '::1',
      'loopback',
    ]);
    expect(load({}).warnings).toEqual([]);
  });

  it('finding 2: true no longer trusts every hop: it is one proxy, with a warning', () => {
    const config = load({ TRUST_PROXY: 'true' });
    expect(config.trustProxy).toBe(1);
    expect(config.warnings).toEqual([expect.stringMatching(/TRUST_PROXY=true is read as TRUST_PROXY=1/)]);
  });

  it('finding 2: refuses anything else rather than guess', () => {
    for (const value of ['yes', '10.0.0.1,', '10.0.0.0/33', 'fd00::/129', '10.0.0.1/8/8', 'proxy.example', '-1']) {
      expect(() => load({ TRUST_PROXY: value }), value).toThrow(/TRUST_PROXY must be/);
    }
  });
});

describe('rate limits', () => {
  it('reads RATE_LIMIT_<NAME>_MAX and _WINDOW, with camelCase names in snake case', () => {
    const config = load({ RATE_LIMIT_ACCOUNT_IP_MAX: '3', RATE_LIMIT_ACCOUNT_WINDOW: '60', RATE_LIMIT_AUTH_MAX: '7' });
    expect(config.rateLimits).toEqual({
      accountIp: { capacity: 3, windowSeconds: undefined },
      account: { capacity: undefined, windowSeconds: 60 },
      auth: { capacity: 7, windowSeconds: undefined },
    });
  });
});
