/**
 * The refusals of the intake address routes (issue 40, tasks by email), in the shape of errors.ts `ERRORS`, which
 * spreads them. Plain data (no zod): errors.ts is in the client's start-up script.
 */
export const INTAKE_ERRORS = {
  intake_not_configured: {
    code: 'conflict',
    message: 'Mail intake is not set up on this server (INBOUND_MAIL_DOMAIN is not set).',
  },
  intake_off: { code: 'conflict', message: 'The intake address is off: turn it on first.' },
  intake_manage_denied: {
    code: 'permission_denied',
    message: 'Only project owners and team admins can manage the intake address',
  },
} as const;
