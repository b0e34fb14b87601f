import { hash } from 'node:crypto';
import type { onSendHookHandler } from 'fastify';

/**
 * Conditional reads (issue 42): a route's `onSend` that gives a 200 answer an ETag made from the exact text it sends,
 * and answers `304 Not Modified` with no body when the request's `If-None-Match` names it. Runs before compression
 * (@fastify/compress appends its hook after the route's own), on the serialized JSON.
 *
 * The tag is the hash of what this caller would receive, so it is right per caller and across instances by
 * construction: any change anyone makes to what the caller sees (a task, a name, a count, a membership that hides a
 * project) changes the text, and a 304 is only ever sent when the text is identical. What it spares a repeat reader is
 * the body on the wire and its compression (not the reads: the answer is built to be hashed). Weak (`W/`): the same
 * JSON goes out gzip-, brotli- or un-encoded.
 */
export const etagged: onSendHookHandler = async (req, reply, payload) => {
  if (reply.statusCode !== 200 || typeof payload !== 'string') return payload;
  // Encoded once here and handed on as bytes: the hash and the compression (or the socket) read the same buffer, where
  // each would otherwise encode the text (often two-byte: names) again.
  const body = Buffer.from(payload);
  const tag = `W/"${hash('sha1', body, 'base64url')}"`;
  reply.header('etag', tag);
  const asked = req.headers['if-none-match'];
  if (asked?.split(',').some((t) => t.trim() === tag)) {
    reply.code(304);
    reply.removeHeader('content-type');
    return '';
  }
  return body;
};
