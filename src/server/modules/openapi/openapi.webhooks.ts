import { z } from 'zod';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../../../domain/constants';
import { isoDateTime, uuid } from '../../../domain/schemas/common';
import { projectDto } from '../../../domain/schemas/project';
import { taskDto } from '../../../domain/schemas/task';
import { commentDto } from '../../../domain/schemas/task-detail';
import { statusDto } from '../../../domain/schemas/workflow';
import { teamMemberDto } from '../../../domain/schemas/team';
import { importCountsAll } from '../../../domain/schemas/transfer';
import { WEBHOOK_PING_EVENT } from '../../../domain/schemas/webhook';

/**
 * The bodies of the webhook deliveries (issue 35, item 11), published in the OpenAPI document: each event's body is
 * a named schema under `components.schemas` (`WebhookEvent<Type>`, e.g. `WebhookEventTaskCreated`), and the
 * operation that adds a webhook (`createWebhook`, on the webhooks page of /api/docs) lists them as its `callbacks`
 * (OpenAPI 3.0's way to describe requests the server sends to a URL the caller gave).
 *
 * Every body is `{ type, timestamp, data: { team, actor, <object> } }` (webhooks.outbox.ts, webhooks.repo.ts), signed
 * with the Standard Webhooks headers (`webhook-id`, `webhook-timestamp`, `webhook-signature`).
 */

/** An object that was gone (or no longer visible to the actor) when the event was made: its id only. */
const gone = z.object({ id: uuid }).describe('The object was gone when the event was made: its id only.');

const importObject = z.object({
  source: z.enum(['trello', 'csv', 'crewboard']),
  teamCreated: z.boolean(),
  project: z.object({ id: uuid, name: z.string(), created: z.boolean() }).nullable(),
  counts: importCountsAll,
  warnings: z.number().int(),
});

/** A status of a project's workflow, as the API lists it, with its project. */
const statusObject = statusDto.extend({ projectId: uuid });

/** A dependency: `taskId` is (or was) blocked by `blockedById`; a side in another team (its project moved) is null. */
const dependencyObject = z.object({
  taskId: uuid.nullable().describe('The blocked task; null when it is in another team now.'),
  blockedById: uuid.nullable().describe('The blocker; null when it is in another team now.'),
});

type EventName = WebhookEventType | typeof WEBHOOK_PING_EVENT;

/** Each event: the name of its object in `data`, that object's schema, and what it means. */
const OBJECTS: Record<EventName, { key: string; schema: z.ZodType; description: string }> = {
  'task.created': { key: 'task', schema: taskDto, description: 'A task was created (or moved here from another team).' },
  'task.updated': { key: 'task', schema: taskDto, description: 'A task changed, other than its status: the task after.' },
  'task.moved': { key: 'task', schema: taskDto, description: "A task's status changed: the task after." },
  'task.deleted': {
    key: 'task',
    schema: taskDto,
    description: 'A task was deleted (or moved to another team): the task before.',
  },
  'comment.created': { key: 'comment', schema: commentDto, description: 'A comment was added to a task.' },
  'project.created': { key: 'project', schema: projectDto.or(gone), description: 'A project was created.' },
  'project.updated': { key: 'project', schema: projectDto.or(gone), description: 'A project changed.' },
  'project.deleted': { key: 'project', schema: projectDto.or(gone), description: 'A project was deleted: as it was.' },
  'member.joined': { key: 'member', schema: teamMemberDto.or(gone), description: 'Someone joined the team.' },
  'member.left': { key: 'member', schema: teamMemberDto.or(gone), description: 'Someone left or was removed from the team.' },
  'import.completed': {
    key: 'import',
    schema: importObject,
    description: 'An import (Trello, CSV or a Crewboard export) finished: one event per import, with what it created.',
  },
  'status.created': { key: 'status', schema: statusObject, description: "A status was added to a project's workflow." },
  'status.updated': {
    key: 'status',
    schema: statusObject,
    description:
      "A status was renamed, recategorised, recoloured, given another WIP limit or moved in its workflow's order: the status after.",
  },
  'status.deleted': {
    key: 'status',
    schema: statusObject.extend({
      movedTo: statusDto.nullable().describe('Where its tasks went (null: it had none).'),
      movedTaskCount: z.number().int(),
    }),
    description: "A status was deleted from a project's workflow, as it was; its tasks, if any, moved to `movedTo` with it.",
  },
  'task.dependency_added': {
    key: 'dependency',
    schema: dependencyObject,
    description: 'A task became blocked by another task (both of this team when it was added).',
  },
  'task.dependency_removed': {
    key: 'dependency',
    schema: dependencyObject,
    description: 'A task is no longer blocked by another task.',
  },
  [WEBHOOK_PING_EVENT]: {
    key: 'webhook',
    schema: z.object({ id: uuid, url: z.string(), events: z.array(z.enum(WEBHOOK_EVENT_TYPES)) }),
    description: "'Send test event': sent to one webhook when asked, whatever it subscribes to.",
  },
};

/** The body of one event, as a zod schema. */
export function webhookEventBody(type: EventName): z.ZodType {
  const { key, schema, description } = OBJECTS[type];
  return z
    .object({
      type: z.literal(type),
      timestamp: isoDateTime,
      data: z.object({
        team: z.object({ id: uuid, name: z.string() }),
        actor: z.object({ id: uuid, fullName: z.string() }).nullable(),
        [key]: schema,
      }),
    })
    .describe(description);
}

/** Every event the server sends (the subscribable ones and the test event). */
export const WEBHOOK_EVENT_NAMES: readonly EventName[] = [...WEBHOOK_EVENT_TYPES, WEBHOOK_PING_EVENT];

/** `task.created` -> `WebhookEventTaskCreated`: the component that names its body. */
export const webhookSchemaName = (type: string) =>
  `WebhookEvent${type
    .split(/[^A-Za-z0-9]+/)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('')}`;

type Json = Record<string, unknown>;

/**
 * Adds the event bodies to the document's components and, as callbacks, to the operation that adds a webhook. The
 * JSON Schemas are made by zod for OpenAPI 3.0 (the document's version).
 */
export function addWebhookSchemas(doc: Json, createOperation: { path: string; method: string }): void {
  const components = (doc.components as Json | undefined) ?? {};
  const schemas = { ...((components.schemas as Json | undefined) ?? {}) };
  const callbacks: Json = {};
  for (const type of WEBHOOK_EVENT_NAMES) {
    const name = webhookSchemaName(type);
    schemas[name] = z.toJSONSchema(webhookEventBody(type), { target: 'openapi-3.0' });
    callbacks[type] = {
      '{$request.body#/url}': {
        post: {
          operationId: `webhook${name.slice('WebhookEvent'.length)}`,
          summary: `The \`${type}\` event`,
          description: `${OBJECTS[type].description} Signed with the Standard Webhooks headers; retried until a 2xx answer.`,
          security: [],
          requestBody: { required: true, content: { 'application/json': { schema: { $ref: `#/components/schemas/${name}` } } } },
          responses: {
            '200': { description: 'Received (any 2xx answer ends the delivery).' },
            '400': { description: 'Refused: any other answer, or none in time, is retried later.' },
          },
        },
      },
    };
  }
  components.schemas = schemas;
  doc.components = components;
  const item = (doc.paths as Json | undefined)?.[createOperation.path] as Json | undefined;
  const operation = item?.[createOperation.method] as Json | undefined;
  if (operation) operation.callbacks = { ...((operation.callbacks as Json | undefined) ?? {}), ...callbacks };
}
