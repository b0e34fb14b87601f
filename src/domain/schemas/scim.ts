/**
 * SCIM 2.0 provisioning (issue 41, decision 0031): the admin's SCIM tokens (`/api/admin/scim-tokens`) and the wire
 * shapes of `/scim/v2` (RFC 7643 resources, RFC 7644 messages). Inputs are loose objects: an identity provider sends
 * attributes Crewboard does not keep (titles, phone numbers, the enterprise extension), which are ignored, never an error.
 */
import { z } from 'zod';
import { isoDateTime, uuid } from './common';

export const SCIM_SCHEMAS = {
  user: 'urn:ietf:params:scim:schemas:core:2.0:User',
  group: 'urn:ietf:params:scim:schemas:core:2.0:Group',
  listResponse: 'urn:ietf:params:scim:api:messages:2.0:ListResponse',
  patchOp: 'urn:ietf:params:scim:api:messages:2.0:PatchOp',
  error: 'urn:ietf:params:scim:api:messages:2.0:Error',
  serviceProviderConfig: 'urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig',
  resourceType: 'urn:ietf:params:scim:schemas:core:2.0:ResourceType',
  schema: 'urn:ietf:params:scim:schemas:core:2.0:Schema',
} as const;

/** The media type of every /scim/v2 answer (RFC 7644 §3.1); requests may also come as application/json. */
export const SCIM_CONTENT_TYPE = 'application/scim+json';

/** A SCIM token: `scim_` and 32 random bytes in base64url. `prefix` is what the list shows of it. */
export const SCIM_TOKEN_PREFIX = 'scim_';
export const SCIM_TOKEN_LIMITS = { nameMax: 80, perAdminMax: 20 } as const;
/** Paging of the lists (RFC 7644 §3.4.2.4): `count` defaults to, and is capped at, this. */
export const SCIM_PAGE = { defaultCount: 100, maxCount: 200 } as const;

// ---- the admin's tokens (/api/admin/scim-tokens) ----

export const createScimTokenInput = z
  .object({
    name: z
      .string({ error: 'Name is required' })
      .trim()
      .min(1, 'Name is required')
      .max(SCIM_TOKEN_LIMITS.nameMax, `Name must be at most ${SCIM_TOKEN_LIMITS.nameMax} characters`),
  })
  .strict();
export type CreateScimTokenInput = z.infer<typeof createScimTokenInput>;

/** A SCIM token as listed: never its secret. `createdBy`: the super admin whose teams new SCIM groups become. */
export const scimTokenDto = z.object({
  id: uuid,
  name: z.string(),
  prefix: z.string(),
  createdAt: isoDateTime,
  lastUsedAt: isoDateTime.nullable(),
  createdBy: z.object({ id: uuid, email: z.string(), fullName: z.string() }),
});
export type ScimTokenDto = z.infer<typeof scimTokenDto>;

export const scimTokenListDto = z.object({ tokens: z.array(scimTokenDto) });
export type ScimTokenListDto = z.infer<typeof scimTokenListDto>;

/** The answer to a creation: the token and, this once only, its secret. */
export const scimTokenCreatedDto = scimTokenDto.extend({ token: z.string() });
export type ScimTokenCreatedDto = z.infer<typeof scimTokenCreatedDto>;

// ---- /scim/v2 requests ----

/** `?filter=…&startIndex=…&count=…` (RFC 7644 §3.4.2); `attributes`/`excludedAttributes` as comma lists. */
export const scimListQuery = z.object({
  filter: z.string().max(1000).optional(),
  startIndex: z.coerce.number().int().optional(),
  count: z.coerce.number().int().optional(),
  attributes: z.string().max(1000).optional(),
  excludedAttributes: z.string().max(1000).optional(),
});
export type ScimListQuery = z.infer<typeof scimListQuery>;

export const scimGetQuery = scimListQuery.pick({ attributes: true, excludedAttributes: true });

/** A resource's id in the path: any text (an unknown or malformed one answers 404, as RFC 7644 says). */
export const scimIdParams = z.object({ id: z.string().max(200) });

const multiValue = z.looseObject({
  value: z.string().max(320).optional(),
  type: z.string().max(40).optional(),
  primary: z.union([z.boolean(), z.string()]).optional(),
  display: z.string().max(200).optional(),
});

/** RFC 7643 §4.1 as Crewboard reads it: userName (an email), name, displayName, emails, active, externalId. */
export const scimUserInput = z.looseObject({
  schemas: z.array(z.string()).optional(),
  userName: z.string().max(320),
  externalId: z.string().max(500).nullish(),
  displayName: z.string().max(200).nullish(),
  name: z
    .looseObject({
      formatted: z.string().max(200).nullish(),
      givenName: z.string().max(100).nullish(),
      familyName: z.string().max(100).nullish(),
    })
    .nullish(),
  emails: z.array(multiValue).max(20).nullish(),
  /** Some providers send "True"/"False" as strings. */
  active: z.union([z.boolean(), z.string()]).optional(),
});
export type ScimUserInput = z.infer<typeof scimUserInput>;

const memberRef = z.looseObject({ value: z.string().max(200), display: z.string().max(200).optional() });

/** RFC 7643 §4.2: a group is a team; its members are the team's people. */
export const scimGroupInput = z.looseObject({
  schemas: z.array(z.string()).optional(),
  displayName: z.string().max(200),
  externalId: z.string().max(500).nullish(),
  members: z.array(memberRef).max(10_000).nullish(),
});
export type ScimGroupInput = z.infer<typeof scimGroupInput>;

/** RFC 7644 §3.5.2. `op` is case-insensitive (some providers send "Replace"). */
export const scimPatchInput = z.looseObject({
  schemas: z.array(z.string()).optional(),
  Operations: z
    .array(
      z.looseObject({
        op: z.string().max(20),
        path: z.string().max(500).optional(),
        value: z.unknown().optional(),
      }),
    )
    .min(1)
    .max(1000),
});
export type ScimPatchInput = z.infer<typeof scimPatchInput>;

// ---- /scim/v2 answers ----

const meta = z.object({
  resourceType: z.string(),
  created: isoDateTime,
  lastModified: isoDateTime,
  location: z.string(),
});

// Optional attributes last, in the order the serializer writes them (required first).
export const scimUserResource = z.object({
  schemas: z.array(z.string()),
  id: uuid,
  userName: z.string(),
  displayName: z.string(),
  name: z.object({ formatted: z.string() }),
  emails: z.array(z.object({ value: z.string(), type: z.string(), primary: z.boolean() })),
  active: z.boolean(),
  meta,
  /** Absent when the identity provider gave none (unassigned, RFC 7643 §2.5). */
  externalId: z.string().optional(),
});
export type ScimUserResource = z.infer<typeof scimUserResource>;

export const scimGroupResource = z.object({
  schemas: z.array(z.string()),
  id: uuid,
  displayName: z.string(),
  meta,
  externalId: z.string().optional(),
  /**
   * Left out on `excludedAttributes=members`. Each member also has `$ref` (its User's URL), last: a loose extra key,
   * since a property named `$ref` is read as a reference by the OpenAPI tooling.
   */
  members: z.array(z.looseObject({ value: uuid, display: z.string(), type: z.literal('User') })).optional(),
});
export type ScimGroupResource = z.infer<typeof scimGroupResource>;

const listOf = <T extends z.ZodType>(resource: T) =>
  z.object({
    schemas: z.array(z.string()),
    totalResults: z.number().int(),
    startIndex: z.number().int(),
    itemsPerPage: z.number().int(),
    Resources: z.array(resource),
  });
export const scimUserList = listOf(scimUserResource);
export const scimGroupList = listOf(scimGroupResource);
export type ScimList<T> = { schemas: string[]; totalResults: number; startIndex: number; itemsPerPage: number; Resources: T[] };

/** RFC 7644 §3.12: `status` is the HTTP status as a string. */
export const scimErrorResponse = z.object({
  schemas: z.array(z.string()),
  status: z.string(),
  scimType: z.string().optional(),
  detail: z.string().optional(),
});
export type ScimErrorBody = z.infer<typeof scimErrorResponse>;

/** The discovery documents (ServiceProviderConfig, Schemas, ResourceTypes): fixed JSON, described loosely. */
export const scimDocument = z.looseObject({ schemas: z.array(z.string()) });
