import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * Where a webhook may not go (SSRF): addresses of this machine, of private networks, link-local ones (the cloud metadata
 * service at 169.254.169.254 among them), and addresses that are not one host. An IPv6 address must be global unicast
 * (2000::/3, outside the special-purpose blocks); one that carries an IPv4 address (mapped, compatible, NAT64, 6to4) is
 * judged by the IPv4 address it carries; other tunnels and translations (Teredo, local-use NAT64, IPv4-translated) are
 * refused whatever they carry.
 */
const blocked = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, metadata
  ['172.16.0.0', 12],
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast (deprecated)
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  blocked.addSubnet(net, bits, 'ipv4');
}

/** Global unicast: the only IPv6 range a webhook may reach (everything else is refused, embedded forms aside). */
const globalUnicast = new BlockList();
globalUnicast.addSubnet('2000::', 3, 'ipv6');

/** Special-purpose blocks inside 2000::/3 (IANA's IPv6 special-purpose registry), refused whatever follows. */
const blockedIpv6 = new BlockList();
for (const [net, bits] of [
  ['2001::', 23], // IETF protocol assignments: Teredo 2001::/32, benchmarking 2001:2::/48, ORCHID…
  ['2001:db8::', 32], // documentation
  ['3fff::', 20], // documentation (RFC 9637)
  ['5f00::', 16], // SRv6 SIDs
] as const) {
  blockedIpv6.addSubnet(net, bits, 'ipv6');
}

export type Ipv6Embedding = 'mapped' | 'compatible' | 'translated' | 'nat64' | 'nat64-local' | '6to4' | 'teredo';

/**
 * The IPv4 address(es) an IPv6 address carries and how: IPv4-mapped ::ffff:0:0/96, IPv4-compatible ::/96 (but not ::
 * and ::1), IPv4-translated ::ffff:0:0:0/96, NAT64 64:ff9b::/96 and local-use 64:ff9b:1::/48 (the last 32 bits),
 * 6to4 2002:AABB:CCDD::/48, Teredo 2001:0:SSSS:SSSS:…:CCCC:CCCC (the server, and the client's bits inverted). Null for
 * an address that carries none.
 */
export function unwrapIpv6(address: string): { form: Ipv6Embedding; ipv4: string[] } | null {
  const groups = expandIpv6(address);
  if (!groups) return null;
  const g = (i: number) => groups[i] as number;
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;
  const zeros = (from: number, to: number) => groups.slice(from, to).every((x) => x === 0);
  const last = v4(g(6), g(7));
  if (zeros(0, 5) && g(5) === 0xffff) return { form: 'mapped', ipv4: [last] };
  if (zeros(0, 4) && g(4) === 0xffff && g(5) === 0) return { form: 'translated', ipv4: [last] };
  if (zeros(0, 6) && (g(6) !== 0 || g(7) > 1)) return { form: 'compatible', ipv4: [last] };
  if (g(0) === 0x64 && g(1) === 0xff9b && zeros(2, 6)) return { form: 'nat64', ipv4: [last] };
  if (g(0) === 0x64 && g(1) === 0xff9b && g(2) === 1) return { form: 'nat64-local', ipv4: [last] };
  if (g(0) === 0x2002) return { form: '6to4', ipv4: [v4(g(1), g(2))] };
  if (g(0) === 0x2001 && g(1) === 0) return { form: 'teredo', ipv4: [v4(g(2), g(3)), v4(g(6) ^ 0xffff, g(7) ^ 0xffff)] };
  return null;
}

/** The IPv4 address an IPv6 address carries (the first one, for Teredo its server), else null. */
export function embeddedIpv4(address: string): string | null {
  return unwrapIpv6(address)?.ipv4[0] ?? null;
}

/** The eight 16-bit groups of an IPv6 address (a trailing dotted IPv4 part allowed), or null. */
function expandIpv6(address: string): number[] | null {
  if (isIP(address) !== 6) return null;
  let text = address.split('%')[0]!.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1]!.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, -dotted[1]!.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const missing = 8 - left.length - right.length;
  const all = tail === undefined ? left : [...left, ...Array<string>(missing).fill('0'), ...right];
  return all.length === 8 ? all.map((g) => Number.parseInt(g, 16)) : null;
}

/** The forms judged by the IPv4 address they carry; any other embedding is refused outright. */
const JUDGED_BY_IPV4 = new Set<Ipv6Embedding>(['mapped', 'compatible', 'nat64', '6to4']);

/** True when webhooks may not reach `address` (an IP literal; anything that is not one is refused too). */
export function isRefusedAddress(address: string): boolean {
  const version = isIP(address);
  if (version === 4) return blocked.check(address, 'ipv4');
  if (version !== 6) return true;
  const bare = address.split('%')[0]!;
  const embedded = unwrapIpv6(bare);
  if (embedded) {
    // Every IPv4 address it carries is checked, even for the forms refused anyway.
    const carriesBlocked = embedded.ipv4.some((v4) => blocked.check(v4, 'ipv4'));
    return carriesBlocked || !JUDGED_BY_IPV4.has(embedded.form);
  }
  return !globalUnicast.check(bare, 'ipv6') || blockedIpv6.check(bare, 'ipv6');
}

/** A URL's host as DNS or an IP literal takes it (`[::1]` -> `::1`). */
export function hostOf(url: URL): string {
  const host = url.hostname;
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export type Resolution =
  | { ok: true; address: ResolvedAddress }
  /** `refused`: it resolves to an address webhooks may not reach; `unresolved`: DNS had no answer. */
  | { ok: false; reason: 'refused' | 'unresolved'; detail: string };

/**
 * Resolves a webhook URL's host (every address DNS gives) and vets it: refused when any of them is private, local or
 * link-local, unless `allowPrivate`. The address returned is the one to connect to, so a second lookup (DNS rebinding)
 * cannot swap it.
 */
export async function resolveWebhookHost(url: URL, allowPrivate: boolean, resolve: typeof lookup = lookup): Promise<Resolution> {
  const host = hostOf(url);
  let addresses: { address: string; family: number }[];
  if (isIP(host)) {
    addresses = [{ address: host, family: isIP(host) }];
  } else {
    try {
      addresses = await resolve(host, { all: true, verbatim: true });
    } catch (err) {
      return {
        ok: false,
        reason: 'unresolved',
        detail: `could not resolve ${host}: ${(err as NodeJS.ErrnoException).code ?? 'error'}`,
      };
    }
  }
  if (addresses.length === 0) return { ok: false, reason: 'unresolved', detail: `could not resolve ${host}` };
  if (!allowPrivate) {
    const bad = addresses.find((a) => isRefusedAddress(a.address));
    if (bad)
      return { ok: false, reason: 'refused', detail: `refused: ${host} resolves to ${bad.address}, a private or local address` };
  }
  const first = addresses[0]!;
  return { ok: true, address: { address: first.address, family: first.family === 6 ? 6 : 4 } };
}
