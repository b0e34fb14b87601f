import { createHmac, timingSafeEqual } from 'node:crypto';

/** A link works for at least this long… */
const MIN_LIFETIME_SECONDS = 2 * 3600;
/** …and ends on the hour after that, so one file's link is the same for an hour: browsers cache it. */
const ROUND_SECONDS = 3600;

/**
 * Signed, expiring links to a file's bytes: `/api/files/<id>?exp=<unix seconds>&sig=<HMAC-SHA256>`. A signature
 * is the authorization (an <img> or a download link carries no bearer token), given only to someone who could list
 * the file; it names the file and the expiry, under a key of its own derived from the app's secret.
 */
export class FileLinks {
  private readonly key: Buffer;

  constructor(
    secret: string,
    private readonly now: () => number = Date.now,
  ) {
    this.key = createHmac('sha256', secret).update('crewboard/file-links/v1').digest();
  }

  private signature(id: string, exp: number): Buffer {
    return createHmac('sha256', this.key).update(`${id}\n${exp}`).digest();
  }

  url(id: string): string {
    const nowSeconds = Math.floor(this.now() / 1000);
    const exp = Math.ceil((nowSeconds + MIN_LIFETIME_SECONDS) / ROUND_SECONDS) * ROUND_SECONDS;
    return `/api/files/${id}?exp=${exp}&sig=${this.signature(id, exp).toString('base64url')}`;
  }

  /** The link's expiry (unix seconds) when it is genuine and not expired, else null. */
  verify(id: string, exp: string | undefined, sig: string | undefined): number | null {
    if (!exp || !sig || !/^\d{1,12}$/.test(exp) || !/^[A-Za-z0-9_-]{43}$/.test(sig)) return null;
    const expiry = Number(exp);
    if (expiry * 1000 <= this.now()) return null;
    const given = Buffer.from(sig, 'base64url');
    const expected = this.signature(id.toLowerCase(), expiry);
    return given.length === expected.length && timingSafeEqual(given, expected) ? expiry : null;
  }
}
