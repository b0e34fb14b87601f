import { z } from 'zod';
import { FORM_FIELD_KEYS, OUTSIDE_LIMITS, TASK_PRIORITIES } from '../constants';
import { isoDate, isoDateTime, optionalText, uuid } from './common';
import { statusCategory, statusKey } from './workflow';

/**
 * Work from outside the team (issue 40, decision 0028): a project's public board link, its request forms, its intake
 * address. Every public answer here is `.strict()` in what it may carry: a test walks the JSON of each against the
 * list the issue allows, and the serializer drops nothing silently because nothing else is ever put in.
 */

// ---------------------------------------------------------------- the public board link

/** `PUT /api/projects/:id/share`: on or off, and what the page shows. Options left out keep their value. */
export const shareSettingsInput = z
  .object({ enabled: z.boolean(), showPeople: z.boolean().optional(), showDescriptions: z.boolean().optional() })
  .strict();
export type ShareSettingsInput = z.infer<typeof shareSettingsInput>;

/** `GET/PUT /api/projects/:id/share`, `POST …/share/reset`: the settings and, when on, the link (`/share/<token>`). */
export const shareSettingsDto = z.object({
  enabled: z.boolean(),
  showPeople: z.boolean(),
  showDescriptions: z.boolean(),
  /** The absolute URL of the shared page (APP_URL + `/share/<token>`); null when off. */
  url: z.string().nullable(),
});
export type ShareSettingsDto = z.infer<typeof shareSettingsDto>;

const progress = z.object({ done: z.number().int(), total: z.number().int() }).strict();

/**
 * A card of the shared board: only what the issue lists. `assigneeName` is there only with 'Show people' (no avatar,
 * no email, no id of a person ever), `description` only with 'Show descriptions'. No counts of comments or files.
 */
export const sharedCardDto = z
  .object({
    id: uuid,
    title: z.string(),
    status: statusKey,
    priority: z.enum(TASK_PRIORITIES),
    dueDate: isoDate.nullable(),
    tags: z.array(z.string()),
    checklist: progress,
    subtasks: progress,
    assigneeName: z.string().nullable().optional(),
    description: z.string().nullable().optional(),
  })
  .strict();
export type SharedCardDto = z.infer<typeof sharedCardDto>;

/** `GET /api/share/:token`: the project's name, its columns (statuses in workflow order) and its top-level cards. */
export const sharedBoardDto = z
  .object({
    project: z.object({ name: z.string() }).strict(),
    showPeople: z.boolean(),
    showDescriptions: z.boolean(),
    columns: z.array(z.object({ key: statusKey, name: z.string(), category: statusCategory, color: z.string() }).strict()),
    /** In board order: by column, then position. */
    tasks: z.array(sharedCardDto),
  })
  .strict();
export type SharedBoardDto = z.infer<typeof sharedBoardDto>;

export const shareTokenParams = z.object({ token: z.string().min(16).max(100) });

// ---------------------------------------------------------------- request forms

/** A custom field's id, or one of the fixed keys. */
export const formFieldKey = z.union([z.enum(FORM_FIELD_KEYS), uuid]);

export const formFieldInput = z
  .object({
    key: formFieldKey,
    label: z.string().trim().min(1).max(OUTSIDE_LIMITS.fieldLabelMax),
    help: optionalText(OUTSIDE_LIMITS.fieldHelpMax),
    /** `title` is always required (the service keeps it so). */
    required: z.boolean().default(false),
  })
  .strict();
export type FormFieldInput = z.infer<typeof formFieldInput>;

const formFields = z
  .array(formFieldInput)
  .min(1)
  .max(OUTSIDE_LIMITS.formFieldsMax)
  .refine((fields) => fields.some((f) => f.key === 'title'), { message: 'A form always asks for the title.' })
  .refine((fields) => new Set(fields.map((f) => f.key)).size === fields.length, { message: 'A field is asked once.' });

/** `POST /api/projects/:id/forms`. `status`: the project's status new requests get (default: its first). */
export const formInput = z
  .object({
    name: z.string().trim().min(1).max(OUTSIDE_LIMITS.formNameMax),
    intro: optionalText(OUTSIDE_LIMITS.formIntroMax),
    fields: formFields,
    status: statusKey.optional(),
    assigneeId: uuid.nullable().optional(),
    open: z.boolean().default(true),
  })
  .strict();
export type FormInput = z.infer<typeof formInput>;

/** `PATCH /api/forms/:id`: any of them; `{ "open": false }` closes the form. */
export const formPatch = z
  .object({
    name: z.string().trim().min(1).max(OUTSIDE_LIMITS.formNameMax).optional(),
    intro: optionalText(OUTSIDE_LIMITS.formIntroMax).optional(),
    fields: formFields.optional(),
    status: statusKey.optional(),
    assigneeId: uuid.nullable().optional(),
    open: z.boolean().optional(),
  })
  .strict();
export type FormPatch = z.infer<typeof formPatch>;

export const formFieldDto = z.object({
  key: z.string(),
  label: z.string(),
  help: z.string().nullable(),
  required: z.boolean(),
});
export type FormFieldDto = z.infer<typeof formFieldDto>;

export const formDto = z.object({
  id: uuid,
  projectId: uuid,
  name: z.string(),
  intro: z.string().nullable(),
  fields: z.array(formFieldDto),
  status: statusKey,
  assigneeId: uuid.nullable(),
  open: z.boolean(),
  /** The public page (APP_URL + `/forms/<token>`). */
  url: z.string(),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});
export type FormDto = z.infer<typeof formDto>;

export const formListDto = z.object({ forms: z.array(formDto) });
export type FormListDto = z.infer<typeof formListDto>;

/**
 * A field as the public page draws it: the fixed keys by kind; a custom field's `type` and `options` (its id as key).
 * Nothing of the team beyond what the form asks.
 */
export const publicFormFieldDto = z
  .object({
    key: z.string(),
    label: z.string(),
    help: z.string().nullable(),
    required: z.boolean(),
    type: z.enum(['text', 'markdown', 'email', 'priority', 'date', 'number', 'select', 'multi_select', 'checkbox', 'url']),
    options: z.array(z.object({ id: z.string(), label: z.string() }).strict()).optional(),
  })
  .strict();
export type PublicFormFieldDto = z.infer<typeof publicFormFieldDto>;

/** `GET /api/public-forms/:token`: the definition (a closed form: 410 with 'This form is closed.'). */
export const publicFormDto = z
  .object({ name: z.string(), intro: z.string().nullable(), projectName: z.string(), fields: z.array(publicFormFieldDto) })
  .strict();
export type PublicFormDto = z.infer<typeof publicFormDto>;

/**
 * `POST /api/public-forms/:token`: the values by field key (checked against the form's fields by the service: a
 * required one missing gets 400 naming its label). `website` is the honeypot: any value is answered 201 and dropped.
 */
export const publicFormSubmission = z
  .object({
    values: z.record(
      z.string().max(100),
      // null rides on the string variant: OpenAPI 3.0 has no `nullable` beside a bare `anyOf` (as taskFieldValuesInput).
      z.union([z.string().max(20_000).nullable(), z.number(), z.boolean(), z.array(z.string().max(200)).max(50)]),
    ),
    website: z.string().max(2_000).optional(),
  })
  .strict();
export type PublicFormSubmission = z.infer<typeof publicFormSubmission>;

/** The answer of a submission (201): nothing of the task but that it was received. */
export const publicFormSubmittedDto = z.object({ received: z.literal(true) }).strict();

/**
 * `GET /api/requests/:token`: a request's status, for its requester (the link in the confirmation mail, no sign-in):
 * the title, the status's name and category, the project's name, when it was received and last changed. Nothing else.
 */
export const requestStatusDto = z
  .object({
    title: z.string(),
    projectName: z.string(),
    statusName: z.string(),
    statusCategory,
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
  })
  .strict();
export type RequestStatusDto = z.infer<typeof requestStatusDto>;

// ---------------------------------------------------------------- tasks by email

/** `POST /api/projects/:id/intake`: on or off. */
export const intakeInput = z.object({ enabled: z.boolean() }).strict();
export type IntakeInput = z.infer<typeof intakeInput>;

/**
 * `GET/POST /api/projects/:id/intake`, `POST …/intake/reset`: on or off and, when on, the address
 * (`<project-slug>+<token>@<INBOUND_MAIL_DOMAIN>`; the token alone finds the project). `configured`: false when the
 * server has no INBOUND_MAIL_DOMAIN (the section says mail intake is not set up; turning it on is refused).
 */
export const intakeDto = z.object({ enabled: z.boolean(), address: z.string().nullable(), configured: z.boolean() });
export type IntakeDto = z.infer<typeof intakeDto>;
