/**
 * The refusals of the custom fields routes and of field values (issue 38), in the shape of errors.ts `ERRORS`, which
 * spreads them. Plain data (no zod, nothing under schemas/): errors.ts is in the client's start-up script.
 */
import { CUSTOM_FIELD_LIMITS } from './constants';

export const CUSTOM_FIELD_ERRORS = {
  custom_field_invalid: { code: 'validation_failed', message: 'A custom field value is not valid' },
  custom_field_name_taken: { code: 'conflict', message: 'This team already has a field with that name' },
  custom_field_limit: {
    code: 'validation_failed',
    message: `A team can have at most ${CUSTOM_FIELD_LIMITS.perTeamMax} custom fields`,
  },
  custom_field_not_found: { code: 'not_found', message: 'Custom field not found' },
  custom_field_manage_denied: { code: 'permission_denied', message: 'Only team owners and admins can define custom fields' },
  custom_field_filter_invalid: { code: 'validation_failed', message: 'A custom field filter is not valid' },
} as const;
