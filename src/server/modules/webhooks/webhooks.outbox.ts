import type { WebhookEventType } from '../../../domain/constants';
import type { DbOrTx } from '../../db/client';
import { getVisibleById as getVisibleProject } from '../projects';
import { getMemberInTeam, toTeamMemberDto } from '../teams';
import * as repo from './webhooks.repo';

/** The object each event carries in `data`, under its name (as the API returns it). */
type EventObject =
  | { task: unknown }
  | { comment: unknown }
  | { project: unknown }
  | { member: unknown }
  | { import: unknown }
  | { status: unknown }
  | { dependency: unknown };

export interface WebhookEvent {
  teamId: string;
  type: WebhookEventType;
  actorId: string;
  /**
   * `{ task: dto }` and the like; or a function that makes it, called only when a hook of the team takes the event
   * (one look-up first), for objects that cost a query to build.
   */
  object: EventObject | (() => EventObject | Promise<EventObject>);
}

/**
 * Queues an event for every active hook of the team subscribed to it (DESIGN.md "outboxes"): call it with the
 * transaction of the change, so the deliveries exist exactly when the change does. The body is fixed here:
 * `{ type, timestamp, data: { team: {id, name}, actor: {id, fullName}, <object> } }`, and sent as is (every retry).
 */
export async function enqueueWebhookEvent(tx: DbOrTx, event: WebhookEvent): Promise<void> {
  let object: EventObject;
  if (typeof event.object === 'function') {
    if (!(await repo.hasSubscribedHook(tx, event.teamId, event.type))) return;
    object = await event.object();
  } else {
    object = event.object;
  }
  const [[key, value]] = Object.entries(object) as [[string, unknown]];
  const queued = await repo.insertEventDeliveries(tx, {
    teamId: event.teamId,
    type: event.type,
    actorId: event.actorId,
    timestamp: new Date().toISOString(),
    key,
    json: JSON.stringify(value),
  });
  if (queued > 0) wake.queued = true;
}

/**
 * Set when deliveries were queued in a transaction; the workers of this process look at the outbox after the change's
 * domain event (published after commit) instead of at their next tick, and clear it. Writers without hooks never set it,
 * so they cost the workers nothing.
 */
export const wake = { queued: false };

export { teamHasActiveWebhook } from './webhooks.repo';

/**
 * The events a task edit sends: `task.moved` when its status changed, `task.updated` when anything else did (both when
 * both did, so a receiver subscribed to one of them hears of its part). `keys` are the fields the edit named.
 */
export function taskChangeEvents(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  keys: readonly string[],
): ('task.moved' | 'task.updated')[] {
  const changed = keys.filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]));
  const events: ('task.moved' | 'task.updated')[] = [];
  if (changed.includes('status')) events.push('task.moved');
  if (changed.some((key) => key !== 'status')) events.push('task.updated');
  return events;
}

/** `member.joined` / `member.left` with the member as the API lists it; for `left`, call it before the row goes. */
export function memberWebhookEvent(
  tx: DbOrTx,
  event: { teamId: string; type: 'member.joined' | 'member.left'; actorId: string; memberId: string },
): Promise<void> {
  return enqueueWebhookEvent(tx, {
    teamId: event.teamId,
    type: event.type,
    actorId: event.actorId,
    object: async () => {
      const found = await getMemberInTeam(tx, event.teamId, event.memberId);
      return { member: found ? toTeamMemberDto(found) : { id: event.memberId } };
    },
  });
}

/** `project.*` with the project as the API returns it to the actor; for `deleted`, call it before the row goes. */
export function projectWebhookEvent(
  tx: DbOrTx,
  event: { teamId: string; type: 'project.created' | 'project.updated' | 'project.deleted'; actorId: string; projectId: string },
): Promise<void> {
  return enqueueWebhookEvent(tx, {
    teamId: event.teamId,
    type: event.type,
    actorId: event.actorId,
    object: async () => ({ project: (await getVisibleProject(tx, event.actorId, event.projectId)) ?? { id: event.projectId } }),
  });
}
