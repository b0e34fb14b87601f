import { z } from 'zod';
import { USER_TOKEN_PURPOSES } from '../constants';
import { linkToken } from './auth';

/**
 * GET /api/auth/link-status?purpose=…&token=…: whether an emailed link (a password reset, an address verification, an
 * email change) can still be used, asked by its page when it opens. Reading it spends nothing.
 */
export const linkStatusQuery = z.object({ purpose: z.enum(USER_TOKEN_PURPOSES), token: linkToken }).strict();
export type LinkStatusQuery = z.infer<typeof linkStatusQuery>;

/** Only whether the link works: nothing of whose it is (no address, no name). */
export const linkStatusDto = z.object({ valid: z.boolean() });
export type LinkStatusDto = z.infer<typeof linkStatusDto>;
