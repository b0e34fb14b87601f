/**
 * A short readable name for the device behind a User-Agent header ('Chrome on Linux'), for the list of
 * sessions in Settings → Security. A guess from well-known tokens, never a fingerprint: the order
 * matters, since Edge and Opera also say Chrome, Chrome also says Safari, and Android also says Linux.
 */
const BROWSERS: readonly [RegExp, string][] = [
  [/\bEdg(e|A|iOS)?\//, 'Edge'],
  [/\b(OPR|Opera)\//, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\b(Firefox|FxiOS)\//, 'Firefox'],
  [/\b(HeadlessChrome|Chrome|CriOS|Chromium)\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
];

const SYSTEMS: readonly [RegExp, string][] = [
  [/\bWindows\b/, 'Windows'],
  [/\bAndroid\b/, 'Android'],
  [/\b(iPhone|iPad|iPod)\b/, 'iOS'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bLinux\b|\bX11\b/, 'Linux'],
];

export const UNKNOWN_DEVICE = 'Unknown device';

const find = (table: readonly [RegExp, string][], ua: string) => table.find(([pattern]) => pattern.test(ua))?.[1];

export function deviceLabel(userAgent: string | null | undefined): string {
  const ua = userAgent?.trim() ?? '';
  if (!ua) return UNKNOWN_DEVICE;
  const browser = find(BROWSERS, ua);
  const system = find(SYSTEMS, ua);
  if (browser && system) return `${browser} on ${system}`;
  if (browser ?? system) return (browser ?? system)!;
  // Not a browser (curl/8.5.0, a script): its first product name, kept short.
  const product = /^[A-Za-z][\w.-]{0,39}/.exec(ua)?.[0];
  return product ?? UNKNOWN_DEVICE;
}
