import { type ChangeActor, type DependencySide, actorUserId } from '../../domain/changes';
import { enqueueWebhookEvent, memberWebhookEvent, projectWebhookEvent, taskChangeEvents } from '../modules/webhooks';
import type { Tx } from '../db/client';
import { inTransaction } from './reactions';

/** Webhook bodies name a person as their actor; the system makes none of the kinds that send one. */
function actorId(actor: ChangeActor): string {
  const id = actorUserId(actor);
  if (!id) throw new Error('a webhook event needs a person as its actor');
  return id;
}

/**
 * A task event's actor: the person, or for the schedule's tasks (a system actor, decision 0027) the task's creator —
 * the series' creator, whose task the schedule makes.
 */
const taskActorId = (actor: ChangeActor, task: { creatorId: string }): string => actorUserId(actor) ?? task.creatorId;

/** A `status.*` event of a project's workflow to its team, the status with its project. */
const statusEvent = (
  tx: Tx,
  c: { teamId: string; projectId: string },
  actor: ChangeActor,
  type: 'status.created' | 'status.updated' | 'status.deleted',
  status: object,
) =>
  enqueueWebhookEvent(tx, {
    teamId: c.teamId,
    type,
    actorId: actorId(actor),
    object: { status: { ...status, projectId: c.projectId } },
  });

/**
 * `task.dependency_*` (issue 37) to the team of each side: `data.dependency` is `{ taskId, blockedById }`, the id of a side
 * in another team (a project moved there since) left out as null.
 */
async function dependencyEvent(
  tx: Tx,
  c: { task: DependencySide; blocker: DependencySide },
  actor: ChangeActor,
  type: 'task.dependency_added' | 'task.dependency_removed',
) {
  for (const teamId of new Set([c.task.teamId, c.blocker.teamId])) {
    await enqueueWebhookEvent(tx, {
      teamId,
      type,
      actorId: actorId(actor),
      object: {
        dependency: {
          taskId: c.task.teamId === teamId ? c.task.id : null,
          blockedById: c.blocker.teamId === teamId ? c.blocker.id : null,
        },
      },
    });
  }
}

/**
 * The team's webhooks (DESIGN.md "outboxes"): deliveries are queued in the change's transaction. A task or project that
 * moves to another team leaves the old one (`*.deleted` there) and arrives in the new one (`*.created`).
 */
export const webhookSubscriber = inTransaction('webhooks', {
  'member.removed': (c, actor, tx) =>
    memberWebhookEvent(tx, { teamId: c.teamId, type: 'member.left', actorId: actorId(actor), memberId: c.member.memberId }),
  'member.joined': (c, actor, tx) =>
    memberWebhookEvent(tx, { teamId: c.teamId, type: 'member.joined', actorId: actorId(actor), memberId: c.member.memberId }),
  'ldap.member_added': (c, actor, tx) =>
    memberWebhookEvent(tx, { teamId: c.teamId, type: 'member.joined', actorId: actorId(actor), memberId: c.member.memberId }),
  'project.created': (c, actor, tx) =>
    projectWebhookEvent(tx, { teamId: c.teamId, type: 'project.created', actorId: actorId(actor), projectId: c.projectId }),
  'project.updated': async (c, actor, tx) => {
    const base = { actorId: actorId(actor), projectId: c.projectId };
    if (c.previousTeamId === c.teamId) {
      await projectWebhookEvent(tx, { ...base, teamId: c.teamId, type: 'project.updated' });
      return;
    }
    await projectWebhookEvent(tx, { ...base, teamId: c.previousTeamId, type: 'project.deleted' });
    await projectWebhookEvent(tx, { ...base, teamId: c.teamId, type: 'project.created' });
  },
  'project.deleted': (c, actor, tx) =>
    projectWebhookEvent(tx, { teamId: c.teamId, type: 'project.deleted', actorId: actorId(actor), projectId: c.projectId }),
  // `data.status`: the status as the API lists it, with its project; a delete adds where its tasks went and how many.
  'status.created': (c, actor, tx) => statusEvent(tx, c, actor, 'status.created', c.status),
  'status.updated': (c, actor, tx) => statusEvent(tx, c, actor, 'status.updated', c.after),
  'status.deleted': (c, actor, tx) =>
    statusEvent(tx, c, actor, 'status.deleted', { ...c.status, movedTo: c.movedTo, movedTaskCount: c.movedTaskIds.length }),
  // A new order: one `status.updated` per status whose position changed (a receiver keeps statuses, not orders).
  'status.reordered': async (c, actor, tx) => {
    for (const status of c.moved) await statusEvent(tx, c, actor, 'status.updated', status);
  },
  'task.created': (c, actor, tx) =>
    c.teamHasWebhooks === false
      ? undefined
      : enqueueWebhookEvent(tx, {
          teamId: c.teamId,
          type: 'task.created',
          actorId: taskActorId(actor, c.task),
          object: { task: c.task },
        }),
  'task.updated': async (c, actor, tx) => {
    const hooks =
      c.teamId === c.previousTeamId
        ? taskChangeEvents(c.before, c.after, c.keys).map((type) => ({ teamId: c.teamId, type, task: c.after }))
        : [
            { teamId: c.previousTeamId, type: 'task.deleted' as const, task: c.before },
            { teamId: c.teamId, type: 'task.created' as const, task: c.after },
          ];
    for (const hook of hooks) {
      await enqueueWebhookEvent(tx, {
        teamId: hook.teamId,
        type: hook.type,
        actorId: taskActorId(actor, hook.task),
        object: { task: hook.task },
      });
    }
  },
  'task.deleted': (c, actor, tx) =>
    enqueueWebhookEvent(tx, { teamId: c.teamId, type: 'task.deleted', actorId: actorId(actor), object: { task: c.task } }),
  'task.dependency_added': (c, actor, tx) => dependencyEvent(tx, c, actor, 'task.dependency_added'),
  'task.dependency_removed': (c, actor, tx) => dependencyEvent(tx, c, actor, 'task.dependency_removed'),
  'comment.created': (c, actor, tx) =>
    enqueueWebhookEvent(tx, {
      teamId: c.teamId,
      type: 'comment.created',
      actorId: actorId(actor),
      object: { comment: c.comment },
    }),
  // `data.import` (`data.team` names the team).
  'import.completed': (c, actor, tx) =>
    enqueueWebhookEvent(tx, {
      teamId: c.team.id,
      type: 'import.completed',
      actorId: actorId(actor),
      object: {
        import: { source: c.source, teamCreated: c.team.created, project: c.project, counts: c.counts, warnings: c.warnings },
      },
    }),
});
