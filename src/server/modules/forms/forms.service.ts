import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import { anonymousActor, type PersonActor } from '../../../domain/changes';
import {
  FORM_FIELD_KEYS,
  type FormFieldKey,
  TASK_PRIORITIES,
  TASK_PRIORITY_LABELS,
  OUTSIDE_LIMITS,
} from '../../../domain/constants';
import { type CustomFieldDef, fieldAppliesTo, validateFieldValue } from '../../../domain/custom-fields';
import { canContribute, canEditProject } from '../../../domain/permissions';
import { FORM_EMAIL_INVALID, fieldRequired } from '../../../domain/outside-texts';
import type {
  FormDto,
  FormFieldDto,
  FormFieldInput,
  FormInput,
  FormListDto,
  FormPatch,
  PublicFormDto,
  PublicFormFieldDto,
  PublicFormSubmission,
  RequestStatusDto,
} from '../../../domain/schemas/outside';
import { createTaskInput } from '../../../domain/schemas/task';
import { LIMITS } from '../../../domain/constants';
import type { Db, DbOrTx, Tx } from '../../db/client';
import { getMemberRole, requireTeamRight } from '../../db/membership';
import { requireProjectMember } from '../../db/project-access';
import type { ChangeRecorder } from '../../lib/changes';
import { AppError } from '../../lib/errors';
import { ipKey, type RateLimiter } from '../../lib/rate-limit';
import { teamFields } from '../custom-fields';
import type { Sealer } from '../oidc';
import type { TasksService } from '../tasks';
import { liveStatuses } from '../workflows';
import * as repo from './forms.repo';

/** SHA-256 of a link's token, hex: what a form or a request link is looked up by (never the token itself). */
export const tokenHash = (token: string): string => createHash('sha256').update(token).digest('hex');
const newToken = (): string => randomBytes(OUTSIDE_LIMITS.tokenBytes).toString('base64url');

const FIXED_KEYS: ReadonlySet<string> = new Set(FORM_FIELD_KEYS);
const isFixedKey = (key: string): key is FormFieldKey => FIXED_KEYS.has(key);
const TITLE_MAX = 200;
const EMAIL = z.email();

/** A 400 about one key of a body. */
const invalid = (key: string, message: string) => new AppError('validation_failed', { fields: { [key]: message } });

/** What the forms need of the world around them. */
export interface FormsDeps {
  db: Db;
  changes: ChangeRecorder;
  /** Seals the form links (the team sees them again); `purpose` 'form-token'. */
  sealer: Sealer;
  rateLimiter: RateLimiter;
  tasks: TasksService;
  publicUrl: string;
  /** A confirmation mail is sent only when mail really leaves the server (SMTP_URL set). */
  mailConfigured: boolean;
}

/**
 * A project's request forms (issue 40, decision 0028): listed by the team's members, made, changed, reset and deleted
 * by those who may edit the project (its team's owner and admins: 403 `form_manage_denied` for a plain member, 404 for
 * anyone outside). Each form's public link (`/forms/<token>`) is a capability for that form only: its definition and
 * its submissions, which become tasks through the tasks module's own create path.
 */
export class FormsService {
  constructor(private readonly deps: FormsDeps) {}

  private get db() {
    return this.deps.db;
  }

  private async toDto(row: repo.FormRow): Promise<FormDto> {
    const opened = await this.deps.sealer.open(row.tokenSealed);
    const token = typeof opened?.t === 'string' ? opened.t : '';
    return {
      id: row.id,
      projectId: row.projectId,
      name: row.name,
      intro: row.intro,
      fields: row.fields,
      status: row.status,
      assigneeId: row.assigneeId,
      open: row.open,
      url: `${this.deps.publicUrl}/forms/${token}`,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
    };
  }

  private async sealedToken() {
    const token = newToken();
    return { tokenHash: tokenHash(token), tokenSealed: await this.deps.sealer.seal({ t: token }) };
  }

  async list(userId: string, projectId: string): Promise<FormListDto> {
    const project = await repo.getProject(this.db, projectId);
    if (!project) throw new AppError('project_not_found');
    await requireProjectMember(this.db, project.teamId, projectId, userId, 'project_not_found');
    const rows = await repo.listByProject(this.db, projectId);
    return { forms: await Promise.all(rows.map((row) => this.toDto(row))) };
  }

  create(actor: PersonActor, projectId: string, input: FormInput): Promise<FormDto> {
    return this.deps.changes.run(this.db, actor, async (tx, record) => {
      // The project's row held: two creations at once count each other, and the project is not deleted meanwhile.
      const project = await repo.getProject(tx, projectId, true);
      if (!project) throw new AppError('project_not_found');
      await requireTeamRight(tx, project.teamId, actor.userId, canEditProject, 'form_manage_denied', 'project_not_found');
      if ((await repo.countByProject(tx, projectId)) >= OUTSIDE_LIMITS.formsPerProject) throw new AppError('form_limit');
      const row = await repo.insertOne(tx, {
        projectId,
        name: input.name,
        intro: input.intro,
        fields: await checkFields(tx, project, input.fields),
        status: await checkStatus(tx, projectId, input.status),
        assigneeId: await checkAssignee(tx, project.teamId, input.assigneeId ?? null),
        open: input.open,
        ...(await this.sealedToken()),
        createdById: actor.userId,
      });
      const form = await this.toDto(row);
      await record({ kind: 'form.created', teamId: project.teamId, projectId, form });
      return form;
    });
  }

  update(actor: PersonActor, id: string, patch: FormPatch): Promise<FormDto> {
    return this.change(actor, id, false, async (tx, project) => {
      const changes: repo.FormChanges = {};
      if (patch.name !== undefined) changes.name = patch.name;
      if (patch.intro !== undefined) changes.intro = patch.intro;
      if (patch.fields !== undefined) changes.fields = await checkFields(tx, project, patch.fields);
      if (patch.status !== undefined) changes.status = await checkStatus(tx, project.id, patch.status);
      if (patch.assigneeId !== undefined) changes.assigneeId = await checkAssignee(tx, project.teamId, patch.assigneeId);
      if (patch.open !== undefined) changes.open = patch.open;
      return changes;
    });
  }

  /** A new link: the old one answers 404 from the commit on. */
  reset(actor: PersonActor, id: string): Promise<FormDto> {
    return this.change(actor, id, true, () => this.sealedToken());
  }

  /** A form's write by someone who may edit its project: the changes `build` makes, one `form.updated` (none if none). */
  private change(
    actor: PersonActor,
    id: string,
    reset: boolean,
    build: (tx: Tx, project: { id: string; teamId: string }) => Promise<repo.FormChanges>,
  ): Promise<FormDto> {
    return this.deps.changes.run(this.db, actor, async (tx, record) => {
      const { current, project } = await this.openForm(tx, id, actor.userId);
      const changes = await build(tx, project);
      const before = await this.toDto(current);
      if (Object.keys(changes).length === 0) return before;
      const after = await this.toDto(await repo.updateOne(tx, id, changes));
      await record({ kind: 'form.updated', teamId: project.teamId, projectId: project.id, before, after, reset });
      return after;
    });
  }

  remove(actor: PersonActor, id: string): Promise<void> {
    return this.deps.changes.run(this.db, actor, async (tx, record) => {
      const { current, project } = await this.openForm(tx, id, actor.userId);
      const form = await this.toDto(current);
      await repo.deleteOne(tx, id);
      await record({ kind: 'form.deleted', teamId: project.teamId, projectId: project.id, form });
    });
  }

  /** The form, locked, for a write by someone who may edit its project (404 `form_not_found` for anyone outside). */
  private async openForm(tx: Tx, id: string, userId: string) {
    const found = await repo.getById(tx, id);
    if (!found) throw new AppError('form_not_found');
    const project = await repo.getProject(tx, found.projectId, true);
    if (!project) throw new AppError('form_not_found');
    await requireTeamRight(tx, project.teamId, userId, canEditProject, 'form_manage_denied', 'form_not_found');
    const current = await repo.getById(tx, id, true);
    if (!current) throw new AppError('form_not_found');
    return { current, project };
  }

  // ---------------------------------------------------------------- the public side

  /** An open form by its link: 404 `form_not_found` for an unknown (or reset) link, 410 `form_closed` when closed. */
  private async openByToken(token: string) {
    const found = await repo.getByTokenHash(this.db, tokenHash(token));
    if (!found) throw new AppError('form_not_found');
    if (!found.form.open) throw new AppError('form_closed');
    return found;
  }

  async publicForm(token: string): Promise<PublicFormDto> {
    const found = await this.openByToken(token);
    const defs = await customFieldsById(this.db, found.teamId);
    return {
      name: found.form.name,
      intro: found.form.intro,
      projectName: found.projectName,
      fields: askedFields(found.form, defs).map(({ field, def }) => publicField(field, def)),
    };
  }

  /**
   * A submission (201 `{ received: true }`): the limits per IP and form and per form first (429), then the honeypot
   * (any value: answered the same, nothing stored), then the values against the form's fields (400 naming the field's
   * label), then the task, made by the form's creator (the team's owner when that person is gone) with the requester
   * as the change's anonymous actor; with an email and mail set up, a confirmation mail with a status link, at most
   * RATE_LIMITS.requestMail an address (beyond: the task, no mail).
   */
  async submit(token: string, body: PublicFormSubmission, ip: string): Promise<void> {
    const found = await this.openByToken(token);
    const { form } = found;
    // An IPv6 client by its /64 (ipKey), as every per-IP limit.
    await this.deps.rateLimiter.take('formSubmitIp', `${form.id}:${ipKey(ip)}`);
    await this.deps.rateLimiter.take('formSubmitForm', form.id);
    if (body.website) return;

    const defs = await customFieldsById(this.db, found.teamId);
    const values = checkValues(askedFields(form, defs), body.values, form.projectId);
    const email = values.email;
    const mail = email !== null && this.deps.mailConfigured && (await this.mayMail(email));

    await this.deps.changes.run(this.db, anonymousActor(email, ip), async (tx, record) => {
      const statuses = await liveStatuses(tx, form.projectId);
      const status = statuses.some((s) => s.key === form.status) ? form.status : statuses[0]?.key;
      if (!status) throw new AppError('form_not_found');
      // The form's creator while still a member who adds work (not a viewer or a guest: issue 41), else the team's owner
      // (the one person always there).
      const creatorId =
        form.createdById && canContribute(await getMemberRole(tx, found.teamId, form.createdById))
          ? form.createdById
          : found.teamOwnerId;
      const assigneeId = form.assigneeId && (await getMemberRole(tx, found.teamId, form.assigneeId)) ? form.assigneeId : null;
      const input = createTaskInput.parse({
        projectId: form.projectId,
        title: values.title,
        description: values.description,
        status,
        priority: values.priority ?? undefined,
        assigneeId,
        dueDate: values.dueDate,
        ...(Object.keys(values.fields).length > 0 && { fields: values.fields }),
      });
      const task = await this.deps.tasks.createIn(tx, record, creatorId, input, { via: 'form', name: form.name, email });
      if (!mail || !email) return;
      const link = newToken();
      await repo.insertRequestLink(tx, { tokenHash: tokenHash(link), taskId: task.id, email });
      await record({
        kind: 'request.received',
        teamId: found.teamId,
        task: { id: task.id, title: task.title },
        projectName: found.projectName,
        formName: form.name,
        email,
        statusUrl: `${this.deps.publicUrl}/requests/${link}`,
      });
    });
  }

  /** False once the address has had its confirmations for the hour (the submission itself goes on). */
  private async mayMail(email: string): Promise<boolean> {
    try {
      await this.deps.rateLimiter.take('requestMail', email.toLowerCase());
      return true;
    } catch (error) {
      if (error instanceof AppError && error.reason === 'rate_limited') return false;
      throw error;
    }
  }

  async requestStatus(token: string): Promise<RequestStatusDto> {
    const row = await repo.getRequestByTokenHash(this.db, tokenHash(token));
    if (!row) throw new AppError('request_not_found');
    return {
      title: row.title,
      projectName: row.projectName,
      statusName: row.statusName,
      statusCategory: row.statusCategory,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
    };
  }
}

// ---------------------------------------------------------------- checks of a definition

async function customFieldsById(db: DbOrTx, teamId: string): Promise<Map<string, CustomFieldDef>> {
  return new Map((await teamFields(db, teamId)).map((d) => [d.id, d]));
}

/**
 * The fields as asked: each key a fixed one or the id of a custom field of the team that applies to the project (not
 * archived, not a person: a public page never lists the team's people); the title always required.
 */
async function checkFields(
  db: DbOrTx,
  project: { id: string; teamId: string },
  fields: readonly FormFieldInput[],
): Promise<FormFieldDto[]> {
  const defs = await customFieldsById(db, project.teamId);
  const seen = new Set<string>();
  return fields.map((f, i) => {
    const key = f.key.toLowerCase();
    // The schema finds a key given twice as sent; an id in upper and lower case is the same field.
    if (seen.has(key)) throw invalid(`fields.${i}.key`, 'A field is asked once.');
    seen.add(key);
    if (!isFixedKey(f.key)) {
      const def = defs.get(key);
      if (!def || !fieldAppliesTo(def, project.id) || def.type === 'person') {
        throw new AppError('form_field_invalid', { fields: { [`fields.${i}.key`]: 'Choose a custom field of this project' } });
      }
    }
    return {
      key: isFixedKey(f.key) ? f.key : key,
      label: f.label,
      help: f.help,
      required: f.key === 'title' ? true : f.required,
    };
  });
}

/** One of the project's live statuses (default: its first). */
async function checkStatus(db: DbOrTx, projectId: string, status: string | undefined): Promise<string> {
  const statuses = await liveStatuses(db, projectId);
  if (status === undefined) {
    const first = statuses[0];
    if (!first) throw invalid('status', 'This project has no status');
    return first.key;
  }
  if (!statuses.some((s) => s.key === status)) throw invalid('status', 'Choose one of the project’s statuses');
  return status;
}

async function checkAssignee(db: DbOrTx, teamId: string, assigneeId: string | null): Promise<string | null> {
  if (assigneeId === null) return null;
  if (!(await getMemberRole(db, teamId, assigneeId))) throw invalid('assigneeId', 'The assignee must be a member of the team');
  return assigneeId;
}

// ---------------------------------------------------------------- the public definition and its values

interface AskedField {
  field: FormFieldDto;
  /** The custom field behind a custom key. */
  def?: CustomFieldDef;
}

/** The form's fields a submission may answer now: a custom field archived, moved off the project or deleted drops out. */
function askedFields(form: repo.FormRow, defs: Map<string, CustomFieldDef>): AskedField[] {
  return form.fields.flatMap((field) => {
    if (isFixedKey(field.key)) return [{ field }];
    const def = defs.get(field.key);
    return def && fieldAppliesTo(def, form.projectId) && def.type !== 'person' ? [{ field, def }] : [];
  });
}

const FIXED_TYPES: Record<FormFieldKey, PublicFormFieldDto['type']> = {
  title: 'text',
  description: 'markdown',
  email: 'email',
  priority: 'priority',
  dueDate: 'date',
};

/** A field as the public page draws it: built field by field (decision 0028), nothing of the custom field but its kind. */
function publicField({ key, label, help, required }: FormFieldDto, def?: CustomFieldDef): PublicFormFieldDto {
  const base = { key, label, help, required };
  if (!def) {
    const type = FIXED_TYPES[key as FormFieldKey];
    if (type === 'priority')
      return { ...base, type, options: TASK_PRIORITIES.map((p) => ({ id: p, label: TASK_PRIORITY_LABELS[p] })) };
    return { ...base, type };
  }
  const type = def.type === 'person' ? 'text' : def.type;
  if (type === 'select' || type === 'multi_select')
    return { ...base, type, options: def.options.map((o) => ({ id: o.id, label: o.name })) };
  return { ...base, type };
}

interface CheckedValues {
  title: string;
  description: string | null;
  email: string | null;
  priority: (typeof TASK_PRIORITIES)[number] | null;
  dueDate: string | null;
  fields: Record<string, unknown>;
}

const isEmpty = (value: unknown) =>
  value === undefined ||
  value === null ||
  value === false ||
  (typeof value === 'string' && value.trim() === '') ||
  (Array.isArray(value) && value.length === 0);

/**
 * The submitted values against the asked fields: a required one empty → 400 '<label> is required.'; each by its kind
 * (an email, a priority, an ISO date, a custom field's own check, messages naming the form's label); a key the form
 * does not ask → 400. Every problem at once, by key.
 */
function checkValues(asked: AskedField[], values: Record<string, unknown>, projectId: string): CheckedValues {
  const errors: Record<string, string> = {};
  const byKey = new Set(asked.map((a) => a.field.key));
  const out: CheckedValues = { title: '', description: null, email: null, priority: null, dueDate: null, fields: {} };
  for (const { field, def } of asked) {
    const raw = Object.hasOwn(values, field.key) ? values[field.key] : undefined;
    const { label } = field;
    if (isEmpty(raw)) {
      if (field.required) errors[field.key] = fieldRequired(label);
      continue;
    }
    if (def) {
      if (!fieldAppliesTo(def, projectId)) continue;
      const result = validateFieldValue({ ...def, name: label }, raw, () => false);
      if (result.ok) {
        if (result.value !== null) out.fields[def.id] = result.value;
      } else errors[field.key] = result.message;
      continue;
    }
    const text = typeof raw === 'string' ? raw.trim() : null;
    switch (field.key as FormFieldKey) {
      case 'title':
        if (text === null || text.length > TITLE_MAX) errors.title = `${label} must be text of at most ${TITLE_MAX} characters.`;
        else out.title = text;
        break;
      case 'description':
        if (text === null || text.length > LIMITS.descriptionMax)
          errors.description = `${label} must be text of at most ${LIMITS.descriptionMax} characters.`;
        else out.description = text;
        break;
      case 'email':
        if (text === null || text.length > LIMITS.emailMax || !EMAIL.safeParse(text).success) errors.email = FORM_EMAIL_INVALID;
        else out.email = text;
        break;
      case 'priority':
        if (!(TASK_PRIORITIES as readonly unknown[]).includes(raw)) errors.priority = `Choose a ${label.toLowerCase()}.`;
        else out.priority = raw as CheckedValues['priority'];
        break;
      case 'dueDate':
        if (text === null || !z.iso.date().safeParse(text).success) errors.dueDate = `${label} must be a date (YYYY-MM-DD).`;
        else out.dueDate = text;
        break;
    }
  }
  // After the fields' own: the first message is the answer's, and a field's says more than a stray key's.
  for (const key of Object.keys(values)) {
    if (!byKey.has(key)) errors[`values.${key}`] = 'This form does not ask for this';
  }
  if (Object.keys(errors).length > 0) throw new AppError('validation_failed', { fields: errors });
  return out;
}
