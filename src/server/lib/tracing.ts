import type { IncomingHttpHeaders } from 'node:http';
import type { Span, Tracer } from '@opentelemetry/api';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type pg from 'pg';
import type { TracingConfig } from '../config';
import type { Database } from '../db/client';
import { wrapPoolConnect } from './pool-hooks';

/**
 * Optional OpenTelemetry tracing (issue 42), through the official SDK, when OTEL_EXPORTER_OTLP_ENDPOINT is set: a
 * server span per request and a child span per database query, sent over OTLP/HTTP. Loaded only then (every
 * OpenTelemetry package is imported here, at run time): without it, nothing of OpenTelemetry is loaded.
 *
 * The server runs as an esbuild bundle, where require-hook auto-instrumentation cannot patch anything: the spans are
 * made by hand, from the first Fastify hook and around the database driver's query calls.
 */

/** The first keyword of a statement, as its operation (`select`, `insert`, `with`…); spans are named after it. */
const OPERATION = /^\s*(\w+)/;
/** Long statements (the board's) are cut: the text is for finding the query, not replaying it. */
const QUERY_TEXT_MAX = 4000;

type QueryFn = (...args: unknown[]) => unknown;

export interface Tracing {
  /** Sends the spans not yet sent and stops (on close). */
  shutdown(): Promise<void>;
}

export async function installTracing(app: FastifyInstance, database: Database, config: TracingConfig): Promise<Tracing> {
  const api = await import('@opentelemetry/api');
  const { W3CTraceContextPropagator } = await import('@opentelemetry/core');
  const { AsyncLocalStorageContextManager } = await import('@opentelemetry/context-async-hooks');
  const { BasicTracerProvider, BatchSpanProcessor } = await import('@opentelemetry/sdk-trace-base');
  const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-http');
  const { resourceFromAttributes } = await import('@opentelemetry/resources');
  const semconv = await import('@opentelemetry/semantic-conventions');

  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ [semconv.ATTR_SERVICE_NAME]: config.serviceName }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: config.tracesUrl }), { scheduledDelayMillis: 1000 })],
  });
  // Global, as the API wants: one tracing setup per process (a second app in the process shares it).
  api.context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  api.propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  api.trace.setGlobalTracerProvider(provider);
  const tracer: Tracer = provider.getTracer('crewboard');

  // A request's span, from its first hook to its connection's close (streams included, aborted requests too). A
  // traceparent from a proxy in front makes it part of that trace. The request's events are bound to its context:
  // the body arrives in 'data' events that would otherwise run outside it, and the handler with them.
  app.addHook('onRequest', (req: FastifyRequest, reply: FastifyReply, done) => {
    const parent = api.propagation.extract(api.ROOT_CONTEXT, req.headers as IncomingHttpHeaders);
    const span = tracer.startSpan(
      req.method,
      { kind: api.SpanKind.SERVER, attributes: { [semconv.ATTR_HTTP_REQUEST_METHOD]: req.method } },
      parent,
    );
    const active = api.trace.setSpan(parent, span);
    api.context.bind(active, req.raw);
    reply.raw.once('close', () => {
      // The route pattern, never the URL: some URLs carry a capability token (shared boards, feeds, signed links).
      const route = req.routeOptions.url;
      const status = reply.statusCode;
      if (route) {
        span.updateName(`${req.method} ${route}`);
        span.setAttribute(semconv.ATTR_HTTP_ROUTE, route);
      }
      span.setAttribute(semconv.ATTR_HTTP_RESPONSE_STATUS_CODE, status);
      if (status >= 500) {
        span.setStatus({ code: api.SpanStatusCode.ERROR });
        span.setAttribute(semconv.ATTR_ERROR_TYPE, String(status));
      }
      span.end();
    });
    api.context.with(active, done);
  });
  app.addHook('onError', (_req, _reply, error, done) => {
    api.trace.getActiveSpan()?.recordException(error);
    done();
  });

  const dbSpan = (text: string | undefined): Span | null => {
    const context = api.context.active();
    // Only inside a request: the workers' polling would otherwise make a trace of every poll.
    if (!api.trace.getSpan(context)) return null;
    const operation = OPERATION.exec(text ?? '')?.[1]?.toLowerCase() ?? 'query';
    const span = tracer.startSpan(
      operation,
      {
        kind: api.SpanKind.CLIENT,
        attributes: {
          [semconv.ATTR_DB_SYSTEM_NAME]: semconv.DB_SYSTEM_NAME_VALUE_POSTGRESQL,
          [semconv.ATTR_DB_OPERATION_NAME]: operation,
          'crewboard.db.engine': database.kind,
          ...(text ? { [semconv.ATTR_DB_QUERY_TEXT]: text.slice(0, QUERY_TEXT_MAX) } : {}),
        },
      },
      context,
    );
    return span;
  };
  const settle = <T>(span: Span, result: Promise<T>): Promise<T> =>
    result.then(
      (value) => {
        span.end();
        return value;
      },
      (error: unknown) => {
        span.recordException(error as Error);
        span.setStatus({ code: api.SpanStatusCode.ERROR });
        span.end();
        throw error;
      },
    );
  /** `query` traced when it returns a promise (the only form the app uses; a callback or a cursor is passed through). */
  const traced =
    (query: QueryFn): QueryFn =>
    (...args) => {
      const first = args[0] as string | { text?: string } | undefined;
      if (typeof args[args.length - 1] === 'function') return query(...args);
      const span = dbSpan(typeof first === 'string' ? first : first?.text);
      if (!span) return query(...args);
      // Called in the request's context, not the query span's: what the driver runs on its way (PGlite hands NOTIFY to
      // this process's listeners during the statement) belongs to the request, not to this statement.
      const result = query(...args);
      if (result instanceof Promise) return settle(span, result);
      span.end();
      return result;
    };

  if (database.pool) {
    for (const pool of [database.pool, database.preparedPool]) {
      if (!pool) continue;
      // pool.query (a statement on its own) is traced where it is called, in the request's context: pg-pool hands a
      // released connection to a waiting caller from the releasing one's context. A transaction's statements run on a
      // connection checked out by promise, whose query is traced.
      const poolQuery = pool.query.bind(pool) as QueryFn;
      (pool as unknown as { query: QueryFn }).query = traced(poolQuery);
      wrapPoolConnect(pool, (client, _started, viaCallback) => {
        const marked = client as pg.PoolClient & { __crewboardTraced?: true };
        if (viaCallback || marked.__crewboardTraced) return;
        marked.__crewboardTraced = true;
        (client as unknown as { query: QueryFn }).query = traced(client.query.bind(client) as QueryFn);
      });
    }
  } else if (database.pglite) {
    const pglite = database.pglite as unknown as {
      query: QueryFn;
      transaction: (fn: (tx: { query: QueryFn }) => Promise<unknown>) => Promise<unknown>;
    };
    pglite.query = traced(pglite.query.bind(pglite));
    const transaction = pglite.transaction.bind(pglite);
    pglite.transaction = (fn) =>
      transaction((tx) => {
        tx.query = traced(tx.query.bind(tx));
        return fn(tx);
      });
  }

  const tracing: Tracing = { shutdown: () => provider.shutdown() };
  app.addHook('onClose', async () => tracing.shutdown());
  return tracing;
}
