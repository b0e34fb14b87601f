import { and, asc, count, desc, eq, getTableName, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { WebhookEventType } from '../../../domain/constants';
import type { DbOrTx } from '../../db/client';
import { lockFor } from '../../db/locks';
import { MANAGER_ROLES } from '../../../domain/permissions';
import { teamMembers, teams, users, webhookDeliveries, webhookDeliveryAttempts, webhooks } from '../../db/schema';
import { isActiveRow, memberUser } from '../../db/visibility';

export type WebhookRow = typeof webhooks.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;

/** `webhook-id` of a new message: unique per delivery, the same on each of its retries. */
const newMessageId = sql`'msg_' || replace(gen_random_uuid()::text, '-', '')`;
const afterMs = (ms: number) => sql`now() + ${Math.round(ms)} * interval '1 millisecond'`;
const subscribed = (type: string) => sql`${webhooks.events} @> ${JSON.stringify([type])}::jsonb`;

/**
 * Whether the team (its id in `teamId`, a column of the caller's query) has an active webhook: a subquery on the
 * webhooks' team index, so a writer can learn it inside a statement it runs anyway (task creation).
 */
export const teamHasActiveWebhook = (teamId: AnyPgColumn) =>
  // Named with its table: inside the subquery a bare column name would be the hook's own team_id.
  sql<boolean>`exists (select 1 from webhooks w where w.team_id = ${sql.identifier(getTableName(teamId.table))}.${sql.identifier(teamId.name)} and w.active)`;

// ---- hooks ----

export async function listByTeamId(db: DbOrTx, teamId: string): Promise<WebhookRow[]> {
  return db.select().from(webhooks).where(eq(webhooks.teamId, teamId)).orderBy(asc(webhooks.createdAt), asc(webhooks.id));
}

/** The hook if it belongs to the team; `lock` holds its row to the end of the transaction. */
export async function getOneInTeam(db: DbOrTx, teamId: string, id: string, lock = false): Promise<WebhookRow | undefined> {
  const query = db
    .select()
    .from(webhooks)
    .where(and(eq(webhooks.id, id), eq(webhooks.teamId, teamId)));
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

/** How many hooks the team has, counted under a lock of the team's held to the end of the transaction (the limit holds). */
export async function countByTeamLocked(db: DbOrTx, teamId: string): Promise<number> {
  await lockFor(db, 'webhooks', teamId);
  const [row] = await db.select({ n: count() }).from(webhooks).where(eq(webhooks.teamId, teamId));
  return Number(row?.n ?? 0);
}

export async function createOne(
  db: DbOrTx,
  values: {
    teamId: string;
    url: string;
    events: WebhookEventType[];
    secret: string;
    description: string | null;
    createdById: string;
  },
): Promise<WebhookRow> {
  const [row] = await db.insert(webhooks).values(values).returning();
  return row!;
}

export async function updateOne(
  db: DbOrTx,
  id: string,
  values: { url?: string; events?: WebhookEventType[]; description?: string | null; active?: boolean },
): Promise<WebhookRow> {
  const [row] = await db
    .update(webhooks)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(webhooks.id, id))
    .returning();
  return row!;
}

export async function deleteOne(db: DbOrTx, id: string): Promise<void> {
  await db.delete(webhooks).where(eq(webhooks.id, id));
}

// ---- the outbox ----

export interface EventRows {
  teamId: string;
  type: WebhookEventType;
  actorId: string;
  timestamp: string;
  /** The object's name in `data` (`task`, `comment`, `project`, `member`) and its JSON. */
  key: string;
  json: string;
}

/**
 * One delivery per active hook of the team subscribed to the event, in one statement (none when there is none). The
 * body is built here, around the object's JSON as given: `{type, timestamp, data: {team, actor, <key>: object}}`.
 */
export async function insertEventDeliveries(db: DbOrTx, event: EventRows): Promise<number> {
  const body = sql`json_build_object(
      'type', ${event.type}::text,
      'timestamp', ${event.timestamp}::text,
      'data', json_build_object(
        'team', json_build_object('id', t.id, 'name', t.name),
        'actor', case when u.id is null then null else json_build_object('id', u.id, 'fullName', u.full_name) end,
        ${event.key}::text, ${event.json}::json))::text`;
  const result = await db.execute(sql`
    insert into webhook_deliveries (webhook_id, message_id, event_type, body)
    select w.id, ${newMessageId}, ${event.type}, ${body}
    from webhooks w
    join teams t on t.id = w.team_id
    left join users u on u.id = ${event.actorId}
    where w.team_id = ${event.teamId} and w.active and w.events @> ${JSON.stringify([event.type])}::jsonb
    returning id`);
  return (result as { rows?: unknown[] }).rows?.length ?? 0;
}

/** Whether any active hook of the team takes this event (to skip building an object nobody will receive). */
export async function hasSubscribedHook(db: DbOrTx, teamId: string, type: WebhookEventType): Promise<boolean> {
  const [row] = await db
    .select({ id: webhooks.id })
    .from(webhooks)
    .where(and(eq(webhooks.teamId, teamId), eq(webhooks.active, true), subscribed(type)))
    .limit(1);
  return row !== undefined;
}

/** A delivery of a body made here (the test event, a redelivery): to one hook, whatever it subscribes to. */
export async function insertDelivery(db: DbOrTx, webhookId: string, eventType: string, body: string): Promise<DeliveryRow> {
  const [row] = await db.insert(webhookDeliveries).values({ webhookId, eventType, body, messageId: newMessageId }).returning();
  return row!;
}

export async function listDeliveries(db: DbOrTx, webhookId: string, limit: number, offset: number) {
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.webhookId, webhookId))
      .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
      .limit(limit)
      .offset(offset),
    db.select({ n: count() }).from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, webhookId)),
  ]);
  return { rows, total: Number(total?.n ?? 0) };
}

export async function getDelivery(db: DbOrTx, webhookId: string, id: number): Promise<DeliveryRow | undefined> {
  const [row] = await db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.webhookId, webhookId)));
  return row;
}

// ---- the worker ----

const pending = () => and(isNull(webhookDeliveries.deliveredAt), isNull(webhookDeliveries.failedAt));

export interface ClaimedDelivery extends DeliveryRow {
  url: string;
  secret: string;
}

/**
 * Takes up to `limit` due deliveries (`for update skip locked`: with several instances each is taken by one) and leases
 * them for `leaseMs`; the claim counts as an attempt. A paused hook's deliveries wait, except a test event.
 */
export async function claimDue(db: DbOrTx, limit: number, leaseMs: number): Promise<ClaimedDelivery[]> {
  const due = db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .innerJoin(webhooks, eq(webhooks.id, webhookDeliveries.webhookId))
    .where(
      and(
        pending(),
        sql`${webhookDeliveries.nextAttemptAt} <= now()`,
        or(eq(webhooks.active, true), eq(webhookDeliveries.eventType, 'ping')),
      ),
    )
    .orderBy(asc(webhookDeliveries.nextAttemptAt), asc(webhookDeliveries.id))
    .limit(limit)
    .for('update', { of: webhookDeliveries, skipLocked: true });
  const rows = await db
    .update(webhookDeliveries)
    .set({ attempts: sql`${webhookDeliveries.attempts} + 1`, nextAttemptAt: afterMs(leaseMs) })
    .where(inArray(webhookDeliveries.id, due))
    .returning();
  if (rows.length === 0) return [];
  const hooks = await db
    .select({ id: webhooks.id, url: webhooks.url, secret: webhooks.secret })
    .from(webhooks)
    .where(
      inArray(
        webhooks.id,
        rows.map((r) => r.webhookId),
      ),
    );
  const byId = new Map(hooks.map((h) => [h.id, h]));
  return rows
    .flatMap((r) => {
      const hook = byId.get(r.webhookId);
      return hook ? [{ ...r, url: hook.url, secret: hook.secret }] : [];
    })
    .sort((a, b) => a.id - b.id);
}

/** When the delivery was first tried (its first recorded attempt), else now. */
export async function firstAttemptAt(db: DbOrTx, deliveryId: number): Promise<Date> {
  const [row] = await db
    .select({ at: sql<Date | string | null>`min(${webhookDeliveryAttempts.attemptedAt})` })
    .from(webhookDeliveryAttempts)
    .where(eq(webhookDeliveryAttempts.deliveryId, deliveryId));
  return row?.at ? new Date(row.at) : new Date();
}

export interface AttemptResult {
  statusCode: number | null;
  durationMs: number;
  error: string | null;
}

export async function recordAttempt(db: DbOrTx, deliveryId: number, result: AttemptResult): Promise<void> {
  await db.insert(webhookDeliveryAttempts).values({ deliveryId, ...result });
}

const last = (result: AttemptResult) => ({
  lastStatusCode: result.statusCode,
  lastDurationMs: result.durationMs,
  lastError: result.error,
});

/** Delivered: the hook is no longer failing. */
export async function markDelivered(db: DbOrTx, delivery: { id: number; webhookId: string }, result: AttemptResult) {
  await db
    .update(webhookDeliveries)
    .set({ ...last(result), deliveredAt: sql`now()` })
    .where(and(eq(webhookDeliveries.id, delivery.id), pending()));
  await db
    .update(webhooks)
    .set({ failingSince: null })
    .where(and(eq(webhooks.id, delivery.webhookId), sql`${webhooks.failingSince} is not null`));
}

export async function markRetry(db: DbOrTx, id: number, result: AttemptResult, retryInMs: number): Promise<void> {
  await db
    .update(webhookDeliveries)
    .set({ ...last(result), nextAttemptAt: afterMs(retryInMs) })
    .where(and(eq(webhookDeliveries.id, id), pending()));
}

/**
 * Given up: the delivery failed, and its hook is failing from now unless it already was. Returns the hook (its team and
 * URL) when this made it failing, so its team is told once.
 */
export async function markFailed(
  db: DbOrTx,
  delivery: { id: number; webhookId: string },
  result: AttemptResult,
): Promise<Pick<WebhookRow, 'id' | 'teamId' | 'url'> | undefined> {
  await db
    .update(webhookDeliveries)
    .set({ ...last(result), failedAt: sql`now()` })
    .where(and(eq(webhookDeliveries.id, delivery.id), pending()));
  const [hook] = await db
    .update(webhooks)
    .set({ failingSince: sql`now()` })
    .where(and(eq(webhooks.id, delivery.webhookId), isNull(webhooks.failingSince)))
    .returning({ id: webhooks.id, teamId: webhooks.teamId, url: webhooks.url });
  return hook;
}

/** Claimed deliveries this worker did not get to (it is stopping): due again at once, the claim not counted. */
export async function releaseClaims(db: DbOrTx, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  await db
    .update(webhookDeliveries)
    .set({ attempts: sql`greatest(${webhookDeliveries.attempts} - 1, 0)`, nextAttemptAt: sql`now()` })
    .where(and(inArray(webhookDeliveries.id, ids), pending()));
}

/** Delivered or given-up deliveries older than `days` go (their attempts with them). */
export async function deleteFinishedBefore(db: DbOrTx, days: number): Promise<void> {
  const before = sql`now() - ${days} * interval '1 day'`;
  await db.delete(webhookDeliveries).where(or(lt(webhookDeliveries.deliveredAt, before), lt(webhookDeliveries.failedAt, before)));
}

/** The team's active owners and admins, as a failing hook's notice needs them. */
export async function listTeamManagers(db: DbOrTx, teamId: string) {
  return db
    .select({
      id: users.id,
      email: users.email,
      isActive: users.isActive,
      emailVerified: users.emailVerified,
      teamName: teams.name,
    })
    .from(teamMembers)
    .innerJoin(users, memberUser)
    .innerJoin(teams, eq(teams.id, teamMembers.teamId))
    .where(and(eq(teamMembers.teamId, teamId), isActiveRow(), inArray(teamMembers.role, [...MANAGER_ROLES])));
}
