import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { mustVerifyEmailFirst } from '../../../domain/schemas/api-token';
import { calendarFeedCreatedDto, calendarFeedParams, calendarFeedStatusDto } from '../../../domain/schemas/calendar';
import { errorResponse } from '../../../domain/schemas/common';
import { AppError } from '../../lib/errors';
import { requireUser, typed } from '../../lib/http';
import { CalendarService } from './calendar.service';

const security = [{ bearer: [] }];
const tags = ['calendar'];

/**
 * A calendar app caches the feed for this long: polling apps fetch every 15 minutes to a day anyway, and five
 * minutes bounds how long a revoked feed can still be read from a cache. `private`: no shared cache keeps it.
 */
const FEED_CACHE_CONTROL = 'private, max-age=300';

/** /api/me/calendar-feed (the caller's own feed: no id, so nobody acts on another's) and the feed itself (issue 23). */
export function registerCalendar(app: FastifyInstance): void {
  const { database, config, rateLimiter } = app.deps;
  const service = new CalendarService(database.db, config.publicUrl);
  const r = typed(app);

  r.get('/api/me/calendar-feed', {
    config: { auth: 'user' },
    schema: { tags, security, response: { 200: calendarFeedStatusDto } },
    handler: async (req) => {
      const { userId, user } = requireUser(req);
      const status = await service.status(userId);
      // Said only when it holds, so that the usual answer stays as it was.
      return mustVerifyEmailFirst(config.emailVerification, user) ? { ...status, verifyEmailFirst: true } : status;
    },
  });

  // Makes the feed, or replaces its token ('Reset link'). The answer holds the secret URL: never cached (no-store, as
  // every /api answer).
  r.post('/api/me/calendar-feed', {
    config: { auth: 'user' },
    schema: { tags, security, response: { 201: calendarFeedCreatedDto, 403: errorResponse } },
    handler: async (req, reply) => {
      const { userId, user } = requireUser(req);
      // Unverified under EMAIL_VERIFICATION=required: no credential that would outlive the owner's reset (issue 35).
      if (mustVerifyEmailFirst(config.emailVerification, user)) throw new AppError('credentials_email_unverified');
      const created = await service.create(userId);
      return reply.code(201).send(created);
    },
  });

  r.delete('/api/me/calendar-feed', {
    config: { auth: 'user' },
    schema: { tags, security, response: { 204: z.null() } },
    handler: async (req, reply) => {
      await service.revoke(requireUser(req).userId);
      return reply.code(204).send(null);
    },
  });

  // Public: a calendar app sends no bearer token; the secret in the path is the authorization, for this feed only.
  r.get('/api/calendar/feeds/:token/crewboard.ics', {
    // FEED_CACHE_CONTROL on the feed itself; its errors are no-store as every /api answer.
    config: { auth: 'public', ownCacheControl: true },
    schema: {
      tags,
      description:
        'The iCalendar (RFC 5545) feed of a secret link made with POST /api/me/calendar-feed: every task with a due date in the teams its owner is an active member of, whenever it is due, as all-day events (at most 5,000: past that, the 5,000 due latest). 404 for an unknown, reset or revoked link.',
      params: calendarFeedParams,
      response: { 400: errorResponse, 404: errorResponse, 429: errorResponse },
    },
    handler: async (req, reply) => {
      let body: string;
      try {
        body = await service.render(req.params.token);
      } catch (error) {
        // Guessing links is throttled: a wrong one spends from the IP's own bucket. A right one spends nothing
        // (calendar services fetch many people's feeds from a few addresses).
        if (error instanceof AppError && error.reason === 'not_found') await rateLimiter.takeForIp('calendarFeed', req.ip);
        throw error;
      }
      // Text, not JSON: no response schema of the route's describes it.
      return (reply as FastifyReply)
        .header('content-type', 'text/calendar; charset=utf-8')
        .header('content-disposition', 'inline; filename="crewboard.ics"')
        .header('cache-control', FEED_CACHE_CONTROL)
        .send(body);
    },
  });
}
