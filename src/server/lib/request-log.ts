import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import pino from 'pino';

/**
 * One log line a request instead of Fastify's two ('incoming request' and 'request completed'): written when the
 * answer has gone, with the request line (through the `req` serializer, which redacts emailed-link and feed
 * secrets), the status and the time taken. Errors are logged as Fastify logs them.
 */
export class OneLineRequestLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    if (error) {
      reply.log.error({ req: request, res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    } else {
      reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
    }
  }
}

/**
 * Standard output for the server's log, written asynchronously: a line is handed to the kernel when the write before
 * it has finished, so under load many lines go out in one write instead of one blocking write each, and an idle
 * server's lines still appear at once. pino flushes what is pending when the process exits.
 */
export const logDestination = () => pino.destination({ dest: 1, sync: false });
