/**
 * A Crewboard export (GET /api/teams/:id/export) read into an ImportPlan for a new team owned by the importer.
 *
 * Authorship (issue 35, item 3): only the importer is linked as an author, creator, actor or mentioned person; every
 * other person the file names is named in the text instead ('Originally by Ada Lovelace on 2019-06-03:'), as the Trello
 * import does. A file can name anyone at any date, so nothing in it may put words under another account.
 */
import { LIMITS, TASK_DETAIL_LIMITS } from '../constants';
import type { CrewboardExport, ExportStatus } from '../schemas/transfer';
import { inWorkflowOrder } from '../workflow';
import { validateStartDate } from '../dates';
import { validateFieldValue } from '../custom-fields';
import type { ImportPlan, PlanField, PlanFieldValues, PlanStatus, PlanValue } from './import-plan';
import { trelloCommentBody } from './trello';

const EMAIL_MENTION = /<@mailto:([^>\s]{1,254})>/g;

export interface Importer {
  id: string;
  email: string;
}

/** "Originally created by Ada Lovelace on 2024-01-02", the line a task's description gets when someone else made it. */
export const createdByLine = (name: string, day: string) => `Originally created by ${name} on ${day}`;

/** A project's workflow from the file: in the order of its positions, names trimmed, colours in lower case. */
const workflowOf = (statuses: readonly ExportStatus[]): PlanStatus[] =>
  inWorkflowOrder(statuses).map((s) => ({
    key: s.key,
    name: s.name.trim(),
    category: s.category,
    color: s.color.toLowerCase(),
    wipLimit: s.wipLimit,
  }));

/**
 * The plan of a new team from the export `file`, imported by `importer`. Each project gets the workflow the file
 * gives it (tasks keep their status keys), or the default four when the file is from before workflows.
 */
export function planTeamImport(file: CrewboardExport, importer: Importer): ImportPlan {
  const me = importer.email.toLowerCase();
  const isMe = (email: string | null) => email !== null && email.toLowerCase() === me;
  const person = (email: string | null) => (isMe(email) ? importer.id : null);
  const nameByEmail = new Map(file.members.map((m) => [m.email.toLowerCase(), m.fullName.trim()]));
  const nameOf = (email: string) => nameByEmail.get(email.toLowerCase()) || email;

  const mentionsIn = (body: string) => {
    let mentioned = false;
    const text = body.replace(EMAIL_MENTION, (_m, email: string) => {
      if (!isMe(email)) return `@${email}`;
      mentioned = true;
      return `<@${importer.id}>`;
    });
    return { text, ids: mentioned ? [importer.id] : [] };
  };
  const historyValue = (field: string, v: string | null): PlanValue => {
    if (v === null) return null;
    if (field === 'assignee') return person(v);
    if (field === 'project') return { projectRef: v };
    return v;
  };

  const others = file.members.filter((m) => !isMe(m.email)).length;
  const warnings = others
    ? [
        `${others} member${others === 1 ? ' is' : 's are'} not added to the new team: invite them. Their tasks are left unassigned.`,
      ]
    : [];
  // A start after the due date (a hand-edited file) is dropped, the task kept, with a warning naming it.
  const startOf = (t: CrewboardExport['tasks'][number]) => {
    const start = t.startDate ?? null;
    if (validateStartDate(start, t.dueDate).ok) return start;
    warnings.push(`${t.title.slice(0, 60)}: its start date ${start} is after its due date ${t.dueDate}: left out`);
    return null;
  };
  // Custom fields (issue 38): the file's keys are the plan's refs (options' too); each value is checked by its field's
  // rule, a person kept only when it is the importer (the new team's one member); what does not fit is left out.
  const fields: PlanField[] = (file.fields ?? []).map((f) => ({
    ref: f.key,
    name: f.name.trim(),
    type: f.type,
    options:
      f.type === 'select' || f.type === 'multi_select'
        ? f.options.map((o) => ({ ref: o.key, name: o.name.trim(), color: o.color.toLowerCase() }))
        : [],
    projectRefs: f.projects,
    showOnCard: f.showOnCard,
    archived: f.archived,
    unit: f.type === 'number' ? f.unit : null,
    decimals: f.type === 'number' ? f.decimals : null,
  }));
  const fieldOf = new Map(fields.map((f) => [f.ref, f]));
  let dropped = 0;
  const valuesOf = (values: Record<string, unknown> | undefined): PlanFieldValues | undefined => {
    if (!values) return undefined;
    const out: PlanFieldValues = {};
    for (const [ref, raw] of Object.entries(values)) {
      const field = fieldOf.get(ref);
      if (!field) {
        out[ref] = raw as string; // named by no field: planProblems refuses the file
        continue;
      }
      const value = field.type === 'person' ? (typeof raw === 'string' && isMe(raw) ? importer.id : null) : raw;
      const checked = validateFieldValue(
        { ...field, options: field.options.map((o) => ({ id: o.ref, name: o.name, color: o.color })) },
        value,
        (id) => id === importer.id,
      );
      if (checked.ok && checked.value !== null) out[ref] = checked.value;
      else if (value !== null) dropped++;
    }
    return out;
  };
  const taskValues = file.tasks.map((t) => valuesOf(t.fields));
  if (dropped) warnings.push(`${dropped} custom field value${dropped === 1 ? ' does' : 's do'} not fit its field: left out`);

  return {
    source: 'crewboard',
    ...(fields.length ? { fields } : {}),
    target: { kind: 'new_team', name: file.team.name.trim(), description: file.team.description },
    projects: file.projects.map((p) => ({
      ref: p.key,
      name: p.name,
      description: p.description,
      status: p.status,
      startDate: p.startDate,
      endDate: p.endDate && p.startDate && p.endDate <= p.startDate ? null : p.endDate,
      createdAt: p.createdAt,
      statuses: p.statuses ? workflowOf(p.statuses) : null,
    })),
    tasks: file.tasks.map((t, i) => {
      let description = t.description;
      if (t.creator && !isMe(t.creator)) {
        const line = createdByLine(nameOf(t.creator), t.createdAt.slice(0, 10));
        description = (description ? `${description}\n\n${line}` : line).slice(0, LIMITS.descriptionMax);
      }
      return {
        project: t.project,
        title: t.title,
        description,
        status: t.status,
        priority: t.priority,
        // Only the team's members can be assigned, and the new team has one: the importer.
        assigneeId: person(t.assignee),
        startDate: startOf(t),
        dueDate: t.dueDate,
        tags: t.tags,
        createdAt: t.createdAt,
        updatedAt: t.updatedAt,
        comments: t.comments.map((c) => {
          const authorId = person(c.author);
          const { text, ids } = mentionsIn(c.body);
          const named = c.authorName?.trim() || (c.author ? nameOf(c.author) : null);
          const body =
            authorId || !named
              ? text
              : trelloCommentBody(named, c.createdAt.slice(0, 10), text).slice(0, TASK_DETAIL_LIMITS.commentMax);
          return { authorId, body, mentions: ids, createdAt: c.createdAt, editedAt: c.editedAt };
        }),
        checklist: t.checklist.map((item) => ({ title: item.title, done: item.done })),
        history: t.history.map((h) => ({
          actorId: person(h.actor),
          field: h.field,
          oldValue: historyValue(h.field, h.oldValue),
          newValue: historyValue(h.field, h.newValue),
          oldLabel: h.oldLabel,
          newLabel: h.newLabel,
          oldCategory: h.oldCategory ?? null,
          newCategory: h.newCategory ?? null,
          createdAt: h.createdAt,
        })),
        ...(taskValues[i] && Object.keys(taskValues[i]).length ? { fields: taskValues[i] } : {}),
      };
    }),
    notes: file.notes.map((n) => ({
      project: n.project,
      title: n.title,
      authorId: person(n.author),
      pinned: n.pinned,
      plainText: n.plainText,
      state: n.state,
      createdAt: n.createdAt,
      updatedAt: n.updatedAt,
    })),
    warnings,
  };
}
