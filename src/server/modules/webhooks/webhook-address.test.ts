import { describe, expect, it } from 'vitest';
import { embeddedIpv4, isRefusedAddress, resolveWebhookHost, unwrapIpv6 } from './webhook-address';

describe('isRefusedAddress', () => {
  it.each([
    '127.0.0.1',
    '127.255.255.254',
    '0.0.0.0',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '100.64.0.1',
    '169.254.169.254',
    '169.254.0.1',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fc00::1',
    'fd12:3456::1',
    'fe80::1',
    'fe80::1%eth0',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:169.254.169.254',
    '::ffff:10.0.0.1',
    '64:ff9b::a9fe:a9fe',
    '2002:c0a8:0101::1',
    // Issue 35, item 5: IPv4-translated, local-use NAT64, Teredo, and anything outside global unicast.
    '::ffff:0:808:808',
    '::ffff:0:8.8.8.8',
    '64:ff9b:1::808:808',
    '64:ff9b:1:abcd::1',
    '2001:0:4136:e378:8000:63bf:3fff:fdd2',
    '2001::1',
    '2001:2::1',
    '2001:10::1',
    '3fff::1',
    '5f00::1',
    '100::1',
    '4000::1',
    'e000::1',
    '::127.0.0.1',
    '::ffff:192.88.99.1',
    '2002:c0a8:1::',
    '64:ff9b::7f00:1',
    'not-an-address',
    '',
  ])('refuses %s', (address) => {
    expect(isRefusedAddress(address)).toBe(true);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '172.32.0.1',
    '172.15.255.255',
    '100.128.0.1',
    '2606:4700::1111',
    '::ffff:8.8.8.8',
    '2002:0808:0808::1',
    '64:ff9b::808:808',
    '2a00:1450:4001:80b::200e',
  ])('allows %s', (address) => {
    expect(isRefusedAddress(address)).toBe(false);
  });
});

describe('embeddedIpv4', () => {
  it('reads the IPv4 address of mapped, NAT64 and 6to4 addresses, and nothing from others', () => {
    expect(embeddedIpv4('::ffff:7f00:1')).toBe('127.0.0.1');
    expect(embeddedIpv4('::ffff:192.168.0.1')).toBe('192.168.0.1');
    expect(embeddedIpv4('64:ff9b::808:808')).toBe('8.8.8.8');
    expect(embeddedIpv4('2002:0a00:0001::')).toBe('10.0.0.1');
    expect(embeddedIpv4('::1')).toBeNull();
    expect(embeddedIpv4('::ffff:0:a00:1')).toBe('10.0.0.1');
    expect(embeddedIpv4('64:ff9b:1::a00:1')).toBe('10.0.0.1');
    expect(embeddedIpv4('2606:4700::1111')).toBeNull();
  });
});

describe('unwrapIpv6', () => {
  it('reads both IPv4 addresses of a Teredo address (the server, and the client with its bits inverted)', () => {
    // RFC 4380's example: server 65.54.227.120, client 192.0.2.45.
    expect(unwrapIpv6('2001:0:4136:e378:8000:63bf:3fff:fdd2')).toEqual({
      form: 'teredo',
      ipv4: ['65.54.227.120', '192.0.2.45'],
    });
    expect(unwrapIpv6('::ffff:0:7f00:1')).toEqual({ form: 'translated', ipv4: ['127.0.0.1'] });
    expect(unwrapIpv6('2606:4700::1111')).toBeNull();
  });
});

describe('resolveWebhookHost', () => {
  const fakeDns = (answers: Record<string, string[]>) =>
    (async (host: string) => {
      const list = answers[host];
      if (!list) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
      return list.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    }) as never;

  it('refuses a name with any private address among its answers, and pins a public one', async () => {
    const dns = fakeDns({ 'mixed.example': ['93.184.216.34', '10.0.0.5'], 'public.example': ['93.184.216.34'] });
    const mixed = await resolveWebhookHost(new URL('https://mixed.example/hook'), false, dns);
    expect(mixed).toMatchObject({ ok: false, reason: 'refused' });
    const pub = await resolveWebhookHost(new URL('https://public.example/hook'), false, dns);
    expect(pub).toEqual({ ok: true, address: { address: '93.184.216.34', family: 4 } });
  });

  it('judges IP literals without DNS (brackets, decimal forms normalised by the URL parser)', async () => {
    const dns = fakeDns({});
    for (const url of [
      'https://127.0.0.1/',
      'https://[::1]/',
      'https://2130706433/',
      'https://0x7f.1/',
      'https://[::ffff:169.254.169.254]/',
    ]) {
      expect(await resolveWebhookHost(new URL(url), false, dns), url).toMatchObject({ ok: false, reason: 'refused' });
    }
    expect(await resolveWebhookHost(new URL('https://[::1]/'), true, dns)).toEqual({
      ok: true,
      address: { address: '::1', family: 6 },
    });
  });

  it('tells an unresolvable name apart from a refused one', async () => {
    expect(await resolveWebhookHost(new URL('https://nowhere.invalid/'), false, fakeDns({}))).toMatchObject({
      ok: false,
      reason: 'unresolved',
    });
  });

  it('allows private addresses only when told to', async () => {
    const dns = fakeDns({ localhost: ['127.0.0.1'] });
    expect(await resolveWebhookHost(new URL('http://localhost:8080/'), false, dns)).toMatchObject({
      ok: false,
      reason: 'refused',
    });
    expect(await resolveWebhookHost(new URL('http://localhost:8080/'), true, dns)).toMatchObject({ ok: true });
  });
});
