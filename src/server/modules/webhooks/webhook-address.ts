import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * Where a webhook may not go (SSRF): addresses of this machine, of private networks, link-local ones (the cloud metadata
 * service at 169.254.169.254 among them), and addresses that are not one host. IPv6 addresses that carry an IPv4 address
 * (mapped, NAT64, 6to4) are judged by the IPv4 address they carry.
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
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  blocked.addSubnet(net, bits, 'ipv4');
}
for (const [net, bits] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
] as const) {
  blocked.addSubnet(net, bits, 'ipv6');
}

/** The IPv4 address an IPv6 address carries (::ffff:a.b.c.d, ::a.b.c.d, 64:ff9b::/96, 2002::/16), else null. */
export function embeddedIpv4(address: string): string | null {
  const groups = expandIpv6(address);
  if (!groups) return null;
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;
  const zeros = (n: number) => groups.slice(0, n).every((g) => g === 0);
  // IPv4-mapped ::ffff:0:0/96 and the old IPv4-compatible ::/96 (but not :: and ::1 themselves).
  if (zeros(5) && groups[5] === 0xffff) return v4(groups[6]!, groups[7]!);
  if (zeros(6) && (groups[6] !== 0 || groups[7]! > 1)) return v4(groups[6]!, groups[7]!);
  // NAT64 well-known prefix 64:ff9b::/96.
  if (groups[0] === 0x64 && groups[1] === 0xff9b && groups.slice(2, 6).every((g) => g === 0)) return v4(groups[6]!, groups[7]!);
  // 6to4 2002:AABB:CCDD::/48.
  if (groups[0] === 0x2002) return v4(groups[1]!, groups[2]!);
  return null;
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

/** True when webhooks may not reach `address` (an IP literal; anything that is not one is refused too). */
export function isRefusedAddress(address: string): boolean {
  const version = isIP(address);
  if (version === 4) return blocked.check(address, 'ipv4');
  if (version !== 6) return true;
  const bare = address.split('%')[0]!;
  const v4 = embeddedIpv4(bare);
  if (v4 !== null) return blocked.check(v4, 'ipv4');
  return blocked.check(bare, 'ipv6');
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
