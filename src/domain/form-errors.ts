/**
 * The refusals of the request forms routes (issue 40), in the shape of errors.ts `ERRORS`, which spreads them. Plain
 * data (no zod, nothing under schemas/): errors.ts is in the client's start-up script, and the public form page reads
 * its texts from outside-texts.ts.
 */
import { OUTSIDE_LIMITS } from './constants';
import { FORM_NOT_FOUND, OUTSIDE_TEXTS } from './outside-texts';

export const FORM_ERRORS = {
  form_not_found: { code: 'not_found', message: FORM_NOT_FOUND },
  /** A closed form's page and its submissions (410). */
  form_closed: { code: 'gone', message: OUTSIDE_TEXTS.formClosed },
  form_limit: { code: 'conflict', message: `A project can have at most ${OUTSIDE_LIMITS.formsPerProject} forms` },
  form_field_invalid: { code: 'validation_failed', message: 'A field of the form is not one this project can ask for' },
  form_manage_denied: { code: 'permission_denied', message: 'Only project owners and team admins can manage forms' },
  request_not_found: { code: 'not_found', message: 'This request link does not exist.' },
} as const;
