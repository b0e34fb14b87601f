import type { FastifySerializerCompiler } from 'fastify/types/schema';
import fastJson, { type AnySchema } from 'fast-json-stringify';
import { ResponseSerializationError } from 'fastify-type-provider-zod';
import { z } from 'zod';

type ZodSchema = z.ZodType;

/** A route's response schema as fastify-type-provider-zod accepts it: a zod schema, or `{ properties: schema }`. */
function zodOf(schema: unknown): ZodSchema {
  if (schema instanceof z.ZodType) return schema;
  const properties = (schema as { properties?: unknown } | null)?.properties;
  if (properties instanceof z.ZodType) return properties;
  throw new Error(`not a zod response schema: ${JSON.stringify(schema)}`);
}

/**
 * Serializes responses with fast-json-stringify (Fastify's own serializer), compiled from each
 * route's zod response schema: only the declared fields go out, whatever the handler returned,
 * at a quarter of the cost of encoding through zod (measured: 0.31 vs 1.27 ms for a 200-card board).
 * With `check` (tests and development; production skips it), every response is also encoded
 * through zod first, as fastify-type-provider-zod does, and both outputs must be the same text: a
 * response that breaks its contract, or a schema the two read differently, fails loudly there.
 */
export function createSerializerCompiler({ check }: { check: boolean }): FastifySerializerCompiler<unknown> {
  return ({ schema, method, url }) => {
    const zodSchema = zodOf(schema);
    const stringify = fastJson(z.toJSONSchema(zodSchema, { target: 'openapi-3.0', io: 'output' }) as AnySchema);
    if (!check) return (data) => stringify(data);
    return (data) => {
      const result = z.safeEncode(zodSchema, data);
      if (result.error) throw new ResponseSerializationError(method, url, { cause: result.error });
      const text = stringify(result.data);
      if (text !== JSON.stringify(result.data)) {
        throw new Error(`${method} ${url}: fast-json-stringify and zod disagree on ${JSON.stringify(result.data)}`);
      }
      return text;
    };
  };
}
