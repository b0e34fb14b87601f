import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createPrivateKey, generateKeyPairSync, randomBytes, sign, X509Certificate } from 'node:crypto';

/** The SP's signing key and certificate (PEM). */
export interface SpKeyPair {
  key: string;
  cert: string;
}

/**
 * SAML_SP_KEY_FILE / SAML_SP_CERT_FILE when both are set; else a key and a self-signed certificate generated once into
 * DATA_DIR (saml-sp-key.pem mode 0600, saml-sp-cert.pem) and read from there at every later start, so the metadata an
 * IdP was given stays true across restarts and instances sharing the folder.
 */
export function loadSpKeyPair(options: { keyFile?: string; certFile?: string; dataDir: string }): SpKeyPair {
  if (options.keyFile || options.certFile) {
    if (!options.keyFile || !options.certFile) throw new Error('SAML_SP_KEY_FILE and SAML_SP_CERT_FILE must be set together');
    return checked({ key: readFileSync(options.keyFile, 'utf8'), cert: readFileSync(options.certFile, 'utf8') });
  }
  const keyFile = join(options.dataDir, 'saml-sp-key.pem');
  const certFile = join(options.dataDir, 'saml-sp-cert.pem');
  if (existsSync(keyFile) && existsSync(certFile)) {
    return checked({ key: readFileSync(keyFile, 'utf8'), cert: readFileSync(certFile, 'utf8') });
  }
  const pair = generateSpKeyPair();
  mkdirSync(dirname(keyFile), { recursive: true, mode: 0o700 });
  try {
    // 'wx': a second instance starting at the same moment keeps the first one's pair.
    writeFileSync(keyFile, pair.key, { mode: 0o600, flag: 'wx' });
    writeFileSync(certFile, pair.cert, { mode: 0o644, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return checked({ key: readFileSync(keyFile, 'utf8'), cert: readFileSync(certFile, 'utf8') });
  }
  return pair;
}

/** The certificate must hold the key's public half (a mismatched pair would sign requests no IdP can check). */
function checked(pair: SpKeyPair): SpKeyPair {
  const cert = new X509Certificate(pair.cert);
  if (!cert.checkPrivateKey(createPrivateKey(pair.key))) throw new Error('The SAML SP certificate does not match its key');
  return pair;
}

/** A 2048-bit RSA key and a self-signed certificate for it (CN=Crewboard SAML SP, ten years), built with node:crypto. */
export function generateSpKeyPair(now = new Date()): SpKeyPair {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const name = seq(set(seq(oid('2.5.4.3'), tlv(0x0c, Buffer.from('Crewboard SAML SP')))));
  const sha256WithRsa = seq(oid('1.2.840.113549.1.1.11'), Buffer.from([0x05, 0x00]));
  const serial = randomBytes(16);
  serial[0] = (serial[0]! & 0x7f) | 0x01; // positive, no leading zero
  const until = new Date(now.getTime() + 10 * 365 * 24 * 3600 * 1000);
  const tbs = seq(
    tlv(0xa0, tlv(0x02, Buffer.from([0x02]))),
    tlv(0x02, serial),
    sha256WithRsa,
    name,
    seq(utcTime(now), utcTime(until)),
    name,
    publicKey.export({ type: 'spki', format: 'der' }),
  );
  const signature = sign('sha256', tbs, privateKey);
  const der = seq(tbs, sha256WithRsa, tlv(0x03, Buffer.concat([Buffer.from([0]), signature])));
  const cert = `-----BEGIN CERTIFICATE-----\n${der
    .toString('base64')
    .replace(/(.{64})/g, '$1\n')
    .trim()}\n-----END CERTIFICATE-----\n`;
  return { key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), cert };
}

// ---- DER, the few types a certificate needs ----

function tlv(tag: number, body: Buffer): Buffer {
  const n = body.length;
  const length =
    n < 0x80 ? Buffer.from([n]) : n < 0x100 ? Buffer.from([0x81, n]) : Buffer.from([0x82, (n >> 8) & 0xff, n & 0xff]);
  return Buffer.concat([Buffer.from([tag]), length, body]);
}
const seq = (...parts: Buffer[]) => tlv(0x30, Buffer.concat(parts));
const set = (...parts: Buffer[]) => tlv(0x31, Buffer.concat(parts));

function oid(dotted: string): Buffer {
  const [a, b, ...rest] = dotted.split('.').map(Number);
  const bytes = [a! * 40 + b!];
  for (const n of rest) {
    const chunk = [n & 0x7f];
    for (let v = n >> 7; v > 0; v >>= 7) chunk.unshift((v & 0x7f) | 0x80);
    bytes.push(...chunk);
  }
  return tlv(0x06, Buffer.from(bytes));
}

/** UTCTime YYMMDDHHMMSSZ (dates before 2050). */
function utcTime(date: Date): Buffer {
  const text = date.toISOString().replace(/[-:T]/g, '').slice(2, 14);
  return tlv(0x17, Buffer.from(`${text}Z`));
}
