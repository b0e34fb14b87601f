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

describe('EMAIL_VERIFICATION', () => {
  it('defaults to required with a mail transport (SMTP_URL) and off without one; refuses anything else', () => {
    expect(load({}).emailVerification).toBe('off');
    expect(load({ SMTP_URL: 'smtp://mail.example:587' }).emailVerification).toBe('required');
    expect(load({ SMTP_URL: 'smtp://mail.example:587', EMAIL_VERIFICATION: 'off' }).emailVerification).toBe('off');
    expect(load({ EMAIL_VERIFICATION: 'Required' }).emailVerification).toBe('required');
    expect(() => load({ EMAIL_VERIFICATION: 'yes' })).toThrow(/EMAIL_VERIFICATION must be required or off/);
  });
});

describe('PASSWORD_HASHING', () => {
  it("defaults to OWASP's argon2id cost; the test suites' cheap one is refused in production, and anything else", () => {
    expect(load({}).passwordHashing).toBe('owasp');
    expect(load({ PASSWORD_HASHING: 'test' }).passwordHashing).toBe('test');
    expect(() => load({ PASSWORD_HASHING: 'test', NODE_ENV: 'production' })).toThrow(/never with NODE_ENV=production/);
    expect(load({ PASSWORD_HASHING: 'owasp', NODE_ENV: 'production' }).passwordHashing).toBe('owasp');
    expect(() => load({ PASSWORD_HASHING: 'fast' })).toThrow(/PASSWORD_HASHING must be owasp or test/);
  });
});

describe('SMTP_URL and MAIL_FROM', () => {
  it('reads smtp:// and smtps:// URLs; without one, mail goes to the log', () => {
    expect(load({}).mail).toEqual({ smtpUrl: null, from: 'Crewboard <no-reply@localhost>' });
    expect(load({ SMTP_URL: 'smtp://user:p%40ss@mail.example:587' }).mail.smtpUrl).toBe('smtp://user:p%40ss@mail.example:587');
    expect(load({ SMTP_URL: 'smtps://mail.example' }).mail.smtpUrl).toBe('smtps://mail.example');
  });

  it('refuses another scheme without repeating the URL (it carries the password)', () => {
    for (const url of ['http://user:hunter2@mail.example', 'mail.example:587', 'smtp://', 'smtp://user:hunter2@']) {
      expect(() => load({ SMTP_URL: url }), url).toThrow(/^SMTP_URL must be smtp:\/\/user:password@host:port/);
      try {
        load({ SMTP_URL: url });
      } catch (error) {
        expect((error as Error).message).not.toContain('hunter2');
      }
    }
  });

  it('sends from no-reply at the host of PUBLIC_URL unless MAIL_FROM says otherwise', () => {
    expect(load({ PUBLIC_URL: 'https://crew.example.com/' }).mail.from).toBe('Crewboard <no-reply@crew.example.com>');
    expect(load({ MAIL_FROM: 'Team <team@example.org>' }).mail.from).toBe('Team <team@example.org>');
    expect(() => load({ MAIL_FROM: 'nobody' })).toThrow(/MAIL_FROM must be/);
    expect(() => load({ MAIL_FROM: 'a@b.c\r\nBcc: x@y.z' })).toThrow(/MAIL_FROM must be/);
  });
});

describe('METRICS_PORT and OTEL_EXPORTER_OTLP_ENDPOINT', () => {
  it('metrics are off unless METRICS_PORT names a port, which is never the public one', () => {
    expect(load({}).metricsPort).toBeUndefined();
    expect(load({ METRICS_PORT: '9464' }).metricsPort).toBe(9464);
    expect(() => load({ PORT: '3000', METRICS_PORT: '3000' })).toThrow(/METRICS_PORT must differ from PORT/);
    expect(() => load({ METRICS_PORT: '3000' })).toThrow(/METRICS_PORT must differ from PORT/);
    for (const value of ['0', '65536', 'abc', '-1']) expect(() => load({ METRICS_PORT: value }), value).toThrow(/METRICS_PORT/);
  });

  it('tracing is off unless OTEL_EXPORTER_OTLP_ENDPOINT is an http(s) URL; spans go to its /v1/traces', () => {
    expect(load({}).tracing).toBeUndefined();
    expect(load({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318/' }).tracing).toEqual({
      tracesUrl: 'http://127.0.0.1:4318/v1/traces',
      serviceName: 'crewboard',
    });
    expect(load({ OTEL_EXPORTER_OTLP_ENDPOINT: 'https://otel.example/otlp', OTEL_SERVICE_NAME: 'crew-eu' }).tracing).toEqual({
      tracesUrl: 'https://otel.example/otlp/v1/traces',
      serviceName: 'crew-eu',
    });
    expect(() => load({ OTEL_EXPORTER_OTLP_ENDPOINT: 'grpc://127.0.0.1:4317' })).toThrow(/OTEL_EXPORTER_OTLP_ENDPOINT must be/);
  });
});
