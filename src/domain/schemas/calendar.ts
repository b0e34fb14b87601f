import { z } from 'zod';
import { isoDateTime } from './common';

/** The caller's calendar feed (GET/POST/DELETE /api/me/calendar-feed). The secret URL is shown only when made. */
export const calendarFeedStatusDto = z.object({
  active: z.boolean(),
  createdAt: isoDateTime.nullable(),
  lastUsedAt: isoDateTime.nullable(),
  /** In GET's answer: the caller may make no feed until their address is verified (api-token.ts mustVerifyEmailFirst). */
  verifyEmailFirst: z.boolean().optional(),
});
export type CalendarFeedStatusDto = z.infer<typeof calendarFeedStatusDto>;

export const calendarFeedCreatedDto = calendarFeedStatusDto.extend({
  /** `${PUBLIC_URL}/api/calendar/feeds/<token>/crewboard.ics`: shown once; 'Reset link' makes a new one. */
  url: z.string(),
});
export type CalendarFeedCreatedDto = z.infer<typeof calendarFeedCreatedDto>;

export const calendarFeedParams = z.object({ token: z.string().min(1).max(200) });
