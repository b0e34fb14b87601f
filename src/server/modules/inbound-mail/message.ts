import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import EmailReplyParser from 'email-reply-parser';
import type { AddressObject } from 'mailparser';
import TurndownService from 'turndown';

/** A received mail as the intake and the replies read it. */
export interface InboundMessage {
  /** SHA-256 of the Message-ID (or of the whole message when it has none): what a second delivery is known by. */
  hash: string;
  /** The sender (From), lower-cased; null when it has none. */
  from: string | null;
  subject: string;
  /** The text part, or the HTML part as Markdown; '' when neither. */
  body: string;
  /** Every address of To, Cc, Delivered-To and X-Original-To (where an IMAP mailbox's mail was sent). */
  headerRecipients: string[];
  /** An automatic answer (out of office, a bounce, a list's digest): never a task nor a comment. */
  automatic: boolean;
  attachments: { fileName: string | undefined; content: Buffer; size: number }[];
}

/** The bytes of a message, or null when it is longer than `maxBytes` (the rest is not read into memory). */
export async function readLimited(raw: Buffer | Readable, maxBytes: number): Promise<Buffer | null> {
  if (Buffer.isBuffer(raw)) return raw.length > maxBytes ? null : raw;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of raw) {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
    size += bytes.length;
    if (size > maxBytes) {
      raw.destroy();
      return null;
    }
    chunks.push(bytes);
  }
  return Buffer.concat(chunks);
}

export const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

/**
 * The MIME parts a message may have (a mail bomb's thousands of parts, or its parts nested thousands deep, are
 * refused before parsing): far more than a real mail's (OUTSIDE_LIMITS.inboundAttachmentsMax are taken), and below
 * mailparser's own 1,000 (past which it never settles: mailsplit's error is lost).
 */
export const MAX_MIME_PARTS = 200;
/** A parse that has not settled by then never will (mailparser has such cases): the message is refused. */
const PARSE_TIMEOUT_MS = 30_000;

/** Why a message cannot be read: too many parts, or mailparser failed or stalled. Dropped, never tried again. */
export class UnreadableMessage extends Error {
  constructor(readonly reason: 'too_many_parts' | 'unparsable') {
    super(`inbound mail: ${reason}`);
  }
}

/**
 * The MIME parts of a message, counted from its bytes without parsing it: the delimiter lines (`--<boundary>`) of
 * every boundary it declares. A count too high is enough to refuse it; one too low is caught by the parse's timeout.
 */
export function countMimeParts(raw: Buffer): number {
  const text = raw.toString('latin1');
  const boundaries = new Set<string>();
  for (const m of text.matchAll(/\bboundary\s*=\s*(?:"([^"\r\n]{1,200})"|([^\s;"]{1,200}))/gi)) boundaries.add((m[1] ?? m[2])!);
  if (boundaries.size === 0) return 0;
  let parts = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith('--')) continue;
    const delimiter = line.slice(2).replace(/\s+$/, '');
    if (boundaries.has(delimiter)) parts += 1;
  }
  return parts;
}

/**
 * C0 controls but tab and line feed (a NUL is refused by PostgreSQL's text), C1 controls, and the marks that reorder
 * or hide text (bidi overrides, zero-width): out of a mail's title, text and sender before anything is stored.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to remove them
const UNSAFE_TEXT = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;
export const cleanText = (text: string): string => text.replace(/\r\n?/g, '\n').replace(UNSAFE_TEXT, '');

/** Links a description may keep from a mail's HTML: http(s) and mailto; any other (javascript:, data:…) is its text. */
const SAFE_HREF = /^(https?:\/\/|mailto:)/i;

/** Nothing of these becomes Markdown: code, styles, embedded documents and forms are dropped with their content. */
const DROPPED_ELEMENTS = new Set([
  'script',
  'style',
  'head',
  'title',
  'meta',
  'link',
  'iframe',
  'object',
  'embed',
  'form',
  'noscript',
  'template',
  'svg',
]);

function turndown(): TurndownService {
  const service = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
  service.remove((node) => DROPPED_ELEMENTS.has(node.nodeName.toLowerCase()));
  // A link to anything but http(s) or mailto (javascript:, data:, vbscript:…) is only its text (the app's renderer
  // refuses them too).
  service.addRule('unsafeLinks', {
    filter: (node) => node.nodeName === 'A' && !SAFE_HREF.test((node.getAttribute('href') ?? '').trim()),
    replacement: (content) => content,
  });
  // An image of the mail itself (cid:) is an attachment or nothing; a remote one stays a link, never loaded here.
  service.addRule('images', {
    filter: 'img',
    replacement: (_content, node) => {
      const element = node as HTMLElement;
      const src = element.getAttribute('src') ?? '';
      if (!/^https?:\/\//i.test(src)) return '';
      const alt = (element.getAttribute('alt') ?? '').replace(/[[\]]/g, '');
      return `[${alt || 'image'}](${src})`;
    },
  });
  return service;
}

/** HTML as Markdown: scripts, styles and the like gone, the rest as its text with its structure. */
export const htmlToMarkdown = (html: string): string => turndown().turndown(html).trim();

/** A reply's own words: quoted text ('On … wrote:', '>' lines) and the signature taken off. */
export const replyText = (body: string): string => new EmailReplyParser().parseReply(body).trim();

const addresses = (value: AddressObject | AddressObject[] | undefined): string[] =>
  (Array.isArray(value) ? value : value ? [value] : []).flatMap((a) =>
    a.value.flatMap((v) => [v.address, ...(v.group ?? []).map((g) => g.address)]).filter((x): x is string => !!x),
  );

/** A header's text (mailparser keeps some as objects), or ''. */
function headerText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object' && 'value' in value) return String((value as { value: unknown }).value);
  if (value && typeof value === 'object' && 'text' in value) return String((value as { text: unknown }).text);
  return '';
}

/**
 * RFC 3834: `Auto-Submitted` other than `no`; the common out-of-office and list marks; a delivery report. Such mail
 * answers mail (ours too): taking it would loop.
 */
function isAutomatic(headers: Map<string, unknown>, contentType: string): boolean {
  const auto = headerText(headers.get('auto-submitted')).trim().toLowerCase();
  if (auto && auto !== 'no') return true;
  const precedence = headerText(headers.get('precedence')).trim().toLowerCase();
  if (['bulk', 'junk', 'list', 'auto_reply'].includes(precedence)) return true;
  if (headers.has('x-autoreply') || headers.has('x-autorespond') || headers.has('x-auto-response-suppress')) {
    const suppress = headerText(headers.get('x-auto-response-suppress')).toLowerCase();
    // Outlook sets the last one on ordinary mail too; only its 'All' or an auto-reply header is telling.
    if (headers.has('x-autoreply') || headers.has('x-autorespond') || suppress.includes('all')) return true;
  }
  return /^multipart\/report/i.test(contentType);
}

/** mailparser's reading of the message, or UnreadableMessage: too many parts, a failure, or no end in sight. */
async function parseBounded(raw: Buffer) {
  if (countMimeParts(raw) > MAX_MIME_PARTS) throw new UnreadableMessage('too_many_parts');
  // Loaded with the first message, not with the server (issue 42, memory).
  const { simpleParser } = await import('mailparser');
  let timer: NodeJS.Timeout | undefined;
  const stalled = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new UnreadableMessage('unparsable')), PARSE_TIMEOUT_MS);
    timer.unref();
  });
  try {
    return await Promise.race([simpleParser(raw, { skipHtmlToText: true, skipTextToHtml: true, skipImageLinks: true }), stalled]);
  } catch (error) {
    throw error instanceof UnreadableMessage ? error : new UnreadableMessage('unparsable');
  } finally {
    clearTimeout(timer);
  }
}

/** The message as the intake and the replies read it; UnreadableMessage when it cannot be read (dropped). */
export async function parseMessage(raw: Buffer): Promise<InboundMessage> {
  const parsed = await parseBounded(raw);
  const headers = parsed.headers as Map<string, unknown>;
  const text = parsed.text?.trim() ?? '';
  const html = typeof parsed.html === 'string' ? parsed.html : '';
  const messageId = parsed.messageId?.trim();
  const contentType = headerText(headers.get('content-type'));
  return {
    hash: messageId ? sha256(`message-id:${messageId}`) : sha256(raw),
    from: cleanText(addresses(parsed.from)[0] ?? '').toLowerCase() || null,
    subject: cleanText(parsed.subject ?? '').trim(),
    body: cleanText(text || (html ? htmlToMarkdown(html) : '')),
    headerRecipients: [
      ...addresses(parsed.to),
      ...addresses(parsed.cc),
      ...[headers.get('delivered-to'), headers.get('x-original-to')].flatMap((h) =>
        h && typeof h === 'object' && 'value' in h ? addresses(h as AddressObject) : headerText(h) ? [headerText(h)] : [],
      ),
    ],
    automatic: isAutomatic(headers, contentType),
    attachments: parsed.attachments.map((a) => ({ fileName: a.filename, content: a.content, size: a.size })),
  };
}
