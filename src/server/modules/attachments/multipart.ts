import type { FastifyRequest, FastifySchemaCompiler } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/errors';
import type { IncomingFile } from './attachments.service';

/**
 * The OpenAPI description of a multipart body with one file in the field `file`. Only documentation: the route's
 * body is the request stream itself, read by `receiveFile` (see `skipBodyValidation`).
 */
export const fileUploadBody = z.object({
  file: z.string().meta({ format: 'binary', description: 'The file: one, in this field' }),
});

/**
 * Validates params and query with zod as every route does, and leaves the body alone: a multipart body is not parsed
 * before the handler, which streams it.
 */
export function skipBodyValidation<S>(): FastifySchemaCompiler<S> {
  return (route) =>
    route.httpPart === 'body' ? () => ({ value: undefined }) : validatorCompiler({ ...route, schema: route.schema as z.ZodType });
}

/**
 * The route options every file upload shares: a signed-in caller and a multipart body of one file in `file`,
 * documented by `fileUploadBody` and left unvalidated (the handler streams it through `receiveFile`).
 */
export function fileUploadRoute<S extends object>(schema: S) {
  return {
    config: { auth: 'user' } as const,
    schema: { ...schema, consumes: ['multipart/form-data'], body: fileUploadBody },
    validatorCompiler: skipBodyValidation(),
  };
}

/**
 * The request's file part in the field `file`, unread (its bytes stream from the socket as they are consumed).
 * Anything but one file there is `file_missing`; a body that is not valid multipart is `bad_request`.
 */
export async function receiveFile(req: FastifyRequest, maxBytes: number): Promise<IncomingFile> {
  if (!req.isMultipart()) throw new AppError('file_missing');
  let part: Awaited<ReturnType<FastifyRequest['file']>>;
  try {
    part = await req.file({
      // One more byte than allowed reaches the store's stream, which then fails: see FileInspector.
      limits: { fileSize: maxBytes + 1, files: 1, fields: 10, fieldSize: 1024, parts: 20, headerPairs: 50 },
      throwFileSizeLimit: false,
    });
  } catch {
    throw new AppError('bad_request');
  }
  if (!part) throw new AppError('file_missing');
  if (part.fieldname !== 'file') {
    part.file.resume();
    throw new AppError('file_missing');
  }
  return { fileName: part.filename, stream: part.file };
}
