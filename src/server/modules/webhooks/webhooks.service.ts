import type { PersonActor } from '../../../domain/changes';
import { randomBytes } from 'node:crypto';
import { ERROR_MESSAGES } from '../../../domain/errors';
import { canManageWebhooks } from '../../../domain/permissions';
import {
  type CreateWebhookInput,
  type ListWebhookDeliveriesQuery,
  type UpdateWebhookInput,
  WEBHOOK_LIMITS,
  WEBHOOK_PING_EVENT,
  type WebhookCreatedDto,
  type WebhookDeliveryDto,
  type WebhookDeliveryListDto,
  type WebhookDto,
  type WebhookListDto,
} from '../../../domain/schemas/webhook';
import type { Db, DbOrTx } from '../../db/client';
import { AppError } from '../../lib/errors';
import type { ChangeRecorder } from '../../lib/changes';
import type { Sealer } from '../oidc';
import { requireTeamRight } from '../../db/membership';
import { getOneById as getTeam } from '../teams';
import { resolveWebhookHost } from './webhook-address';
import * as repo from './webhooks.repo';

/** Who acts: the change's actor, and their name for a test event's body. */
export type WebhookActor = PersonActor & { fullName: string };

export function toWebhookDto(row: repo.WebhookRow): WebhookDto {
  return {
    id: row.id,
    teamId: row.teamId,
    url: row.url,
    description: row.description,
    events: row.events,
    active: row.active,
    status: !row.active ? 'paused' : row.failingSince ? 'failing' : 'active',
    failingSince: row.failingSince?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function toDeliveryDto(row: repo.DeliveryRow): WebhookDeliveryDto {
  const finished = row.deliveredAt !== null || row.failedAt !== null;
  return {
    id: row.id,
    messageId: row.messageId,
    eventType: row.eventType,
    status: row.deliveredAt ? 'delivered' : row.failedAt ? 'failed' : 'pending',
    attempts: row.attempts,
    createdAt: row.createdAt.toISOString(),
    lastStatusCode: row.lastStatusCode,
    lastDurationMs: row.lastDurationMs,
    lastError: row.lastError,
    deliveredAt: row.deliveredAt?.toISOString() ?? null,
    failedAt: row.failedAt?.toISOString() ?? null,
    nextAttemptAt: finished ? null : row.nextAttemptAt.toISOString(),
  };
}

/** `whsec_` and the base64 of 32 random bytes: the Standard Webhooks form, which its libraries take as is. */
export const newWebhookSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

const notFound = () => new AppError('webhook_not_found');

/**
 * A team's webhooks (issue 26): its owners and admins add, change, pause and delete them and read their delivery log;
 * members get 403, strangers 404 (the team's). Every change is audited in its own transaction.
 */
export class WebhooksService {
  constructor(
    private readonly db: Db,
    private readonly changes: ChangeRecorder,
    /** Seals the signing secret at rest (AES-256-GCM under a key derived from AUTH_SECRET). */
    private readonly sealer: Sealer,
    private readonly allowPrivate: boolean,
    /** Wakes the local worker after a test event or a redelivery was queued. */
    private readonly nudge: () => void,
  ) {}

  async list(userId: string, teamId: string): Promise<WebhookListDto> {
    await this.requireManager(this.db, teamId, userId);
    return { webhooks: (await repo.listByTeamId(this.db, teamId)).map(toWebhookDto) };
  }

  async create(actor: WebhookActor, teamId: string, input: CreateWebhookInput): Promise<WebhookCreatedDto> {
    await this.requireManager(this.db, teamId, actor.userId);
    await this.requireReachableUrl(input.url);
    const secret = newWebhookSecret();
    const sealed = await this.sealer.seal({ s: secret });
    const row = await this.changes.run(this.db, actor, async (tx, record) => {
      await this.requireManager(tx, teamId, actor.userId);
      if ((await repo.countByTeamLocked(tx, teamId)) >= WEBHOOK_LIMITS.perTeamMax) throw new AppError('too_many_webhooks');
      const created = await repo.createOne(tx, {
        teamId,
        url: input.url,
        events: input.events,
        description: input.description,
        secret: sealed,
        createdById: actor.userId,
      });
      await record({ kind: 'webhook.created', teamId, webhookId: created.id, url: created.url, events: created.events });
      return created;
    });
    return { ...toWebhookDto(row), secret };
  }

  async update(actor: WebhookActor, teamId: string, webhookId: string, input: UpdateWebhookInput): Promise<WebhookDto> {
    await this.requireManager(this.db, teamId, actor.userId);
    if (input.url !== undefined) await this.requireReachableUrl(input.url);
    const row = await this.changes.run(this.db, actor, async (tx, record) => {
      await this.requireManager(tx, teamId, actor.userId);
      const before = await repo.getOneInTeam(tx, teamId, webhookId, true);
      if (!before) throw notFound();
      const after = await repo.updateOne(tx, webhookId, {
        url: input.url,
        events: input.events,
        description: input.description,
        active: input.active,
      });
      const changed = (['url', 'events', 'description', 'active'] as const).filter(
        (key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]),
      );
      if (changed.length > 0) {
        const changes = Object.fromEntries(changed.map((key) => [key, { from: before[key], to: after[key] }]));
        await record({ kind: 'webhook.updated', teamId, webhookId, url: after.url, changes });
      }
      return after;
    });
    return toWebhookDto(row);
  }

  async remove(actor: WebhookActor, teamId: string, webhookId: string): Promise<void> {
    await this.changes.run(this.db, actor, async (tx, record) => {
      await this.requireManager(tx, teamId, actor.userId);
      const hook = await repo.getOneInTeam(tx, teamId, webhookId, true);
      if (!hook) throw notFound();
      await repo.deleteOne(tx, webhookId);
      await record({ kind: 'webhook.deleted', teamId, webhookId, url: hook.url, events: hook.events });
    });
  }

  async deliveries(
    userId: string,
    teamId: string,
    webhookId: string,
    query: ListWebhookDeliveriesQuery,
  ): Promise<WebhookDeliveryListDto> {
    await this.requireHook(this.db, teamId, webhookId, userId);
    const { rows, total } = await repo.listDeliveries(this.db, webhookId, query.limit, query.offset);
    return { deliveries: rows.map(toDeliveryDto), total };
  }

  /**
   * Sends a delivery's body again as a new delivery (a new row and `webhook-id`; the original stays in the log as it
   * was), to the hook's current URL, signed with its secret.
   */
  async redeliver(userId: string, teamId: string, webhookId: string, deliveryId: number): Promise<WebhookDeliveryDto> {
    const row = await this.db.transaction(async (tx) => {
      await this.requireHook(tx, teamId, webhookId, userId);
      const original = await repo.getDelivery(tx, webhookId, deliveryId);
      if (!original) throw new AppError('webhook_delivery_not_found');
      return repo.insertDelivery(tx, webhookId, original.eventType, original.body);
    });
    this.nudge();
    return toDeliveryDto(row);
  }

  /** 'Send test event': a `ping` delivered like the others (even while the hook is paused), whatever it subscribes to. */
  async sendTest(actor: WebhookActor, teamId: string, webhookId: string): Promise<WebhookDeliveryDto> {
    const row = await this.db.transaction(async (tx) => {
      const hook = await this.requireHook(tx, teamId, webhookId, actor.userId);
      const team = await getTeam(tx, teamId);
      if (!team) throw new AppError('team_not_found');
      const body = JSON.stringify({
        type: WEBHOOK_PING_EVENT,
        timestamp: new Date().toISOString(),
        data: {
          team: { id: team.id, name: team.name },
          actor: { id: actor.userId, fullName: actor.fullName },
          webhook: { id: hook.id, url: hook.url, events: hook.events },
        },
      });
      return repo.insertDelivery(tx, webhookId, WEBHOOK_PING_EVENT, body);
    });
    this.nudge();
    return toDeliveryDto(row);
  }

  private requireManager(db: DbOrTx, teamId: string, userId: string) {
    return requireTeamRight(db, teamId, userId, canManageWebhooks, 'webhook_manage_denied');
  }

  private async requireHook(db: DbOrTx, teamId: string, webhookId: string, userId: string): Promise<repo.WebhookRow> {
    await this.requireManager(db, teamId, userId);
    const hook = await repo.getOneInTeam(db, teamId, webhookId);
    if (!hook) throw notFound();
    return hook;
  }

  /**
   * HTTPS (HTTP only where private addresses are allowed: local tests), and not resolving to a private, local or
   * link-local address: refused early here, and checked again at every attempt (DNS may change). A host that does not
   * resolve now is accepted; its deliveries fail until it does.
   */
  private async requireReachableUrl(raw: string): Promise<void> {
    const url = new URL(raw);
    if (url.protocol !== 'https:' && !this.allowPrivate) {
      throw new AppError('webhook_url_insecure', { fields: { url: ERROR_MESSAGES.webhook_url_insecure } });
    }
    const resolved = await resolveWebhookHost(url, this.allowPrivate);
    if (!resolved.ok && resolved.reason === 'refused') {
      throw new AppError('webhook_url_refused', { fields: { url: ERROR_MESSAGES.webhook_url_refused } });
    }
  }
}
