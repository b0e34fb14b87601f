import { describe, expect, it } from 'vitest';
import { FileLinks } from './file-links';

const ID = '3f0c2f5e-8a7b-4c1d-9e2f-0a1b2c3d4e5f';
const SECRET = 's'.repeat(48);

function parts(url: string) {
  const u = new URL(url, 'http://x');
  return { path: u.pathname, exp: u.searchParams.get('exp')!, sig: u.searchParams.get('sig')! };
}

describe('FileLinks', () => {
  it('signs /api/files/<id> with an expiry rounded up to the hour, at least two hours ahead', () => {
    const now = Date.UTC(2025, 0, 1, 10, 17, 5);
    const { path, exp } = parts(new FileLinks(SECRET, () => now).url(ID));
    expect(path).toBe(`/api/files/${ID}`);
    expect(Number(exp)).toBe(Date.UTC(2025, 0, 1, 13) / 1000);
  });

  it('gives the same link for an hour (cache-friendly)', () => {
    const at = (min: number) => new FileLinks(SECRET, () => Date.UTC(2025, 0, 1, 10, min)).url(ID);
    expect(at(1)).toBe(at(59));
    expect(at(1)).not.toBe(new FileLinks(SECRET, () => Date.UTC(2025, 0, 1, 11, 1)).url(ID));
  });

  it('accepts its own link until it expires, and nothing altered', () => {
    let now = Date.UTC(2025, 0, 1, 10);
    const links = new FileLinks(SECRET, () => now);
    const { exp, sig } = parts(links.url(ID));
    expect(links.verify(ID, exp, sig)).toBe(Number(exp));
    expect(links.verify(ID.toUpperCase(), exp, sig)).toBe(Number(exp));
    expect(links.verify(ID.replace('3f', '4f'), exp, sig)).toBeNull();
    expect(links.verify(ID, String(Number(exp) + 3600), sig)).toBeNull();
    expect(links.verify(ID, exp, `${sig.slice(0, -1)}${sig.endsWith('A') ? 'B' : 'A'}`)).toBeNull();
    expect(links.verify(ID, exp, undefined)).toBeNull();
    expect(links.verify(ID, undefined, sig)).toBeNull();
    expect(links.verify(ID, '-1', sig)).toBeNull();
    expect(links.verify(ID, exp, 'short')).toBeNull();
    expect(new FileLinks('t'.repeat(48), () => now).verify(ID, exp, sig)).toBeNull();
    now = Number(exp) * 1000;
    expect(links.verify(ID, exp, sig)).toBeNull();
  });
});
