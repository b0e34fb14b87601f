/**
 * The discovery documents of RFC 7644 §4 (ServiceProviderConfig, ResourceTypes, Schemas): what this service supports,
 * written from RFC 7643 §5–§7 for the attributes Crewboard keeps.
 */
import { SCIM_PAGE, SCIM_SCHEMAS } from '../../../domain/schemas/scim';

type Attribute = Record<string, unknown>;

const attribute = (name: string, extra: Partial<Attribute> = {}): Attribute => ({
  name,
  type: 'string',
  multiValued: false,
  description: '',
  required: false,
  caseExact: false,
  mutability: 'readWrite',
  returned: 'default',
  uniqueness: 'none',
  ...extra,
});

const USER_ATTRIBUTES: Attribute[] = [
  attribute('userName', {
    description: "The person's email address (stored lower-cased); unique.",
    required: true,
    uniqueness: 'server',
  }),
  attribute('name', {
    type: 'complex',
    description: 'Crewboard keeps one full name: formatted, else givenName and familyName joined.',
    subAttributes: [
      attribute('formatted'),
      attribute('givenName', { returned: 'never' }),
      attribute('familyName', { returned: 'never' }),
    ],
  }),
  attribute('displayName', { description: 'The full name (read from name when both are given).' }),
  attribute('emails', {
    type: 'complex',
    multiValued: true,
    description: 'The one address, the same as userName.',
    mutability: 'readOnly',
    subAttributes: [attribute('value'), attribute('type'), attribute('primary', { type: 'boolean' })],
  }),
  attribute('active', {
    type: 'boolean',
    description: 'false deactivates: sessions, API tokens and the calendar feed end at once.',
  }),
];

const GROUP_ATTRIBUTES: Attribute[] = [
  attribute('displayName', { description: "The team's name.", required: true }),
  attribute('members', {
    type: 'complex',
    multiValued: true,
    description: "The team's members (added with the role member; the team's owner is never removed).",
    subAttributes: [
      attribute('value', { mutability: 'immutable' }),
      attribute('display', { mutability: 'readOnly' }),
      attribute('$ref', { type: 'reference', referenceTypes: ['User'], mutability: 'immutable' }),
      attribute('type', { mutability: 'immutable', canonicalValues: ['User'] }),
    ],
  }),
];

export function scimSchemas(base: string) {
  const schema = (id: string, name: string, description: string, attributes: Attribute[]) => ({
    schemas: [SCIM_SCHEMAS.schema],
    id,
    name,
    description,
    attributes,
    meta: { resourceType: 'Schema', location: `${base}/Schemas/${id}` },
  });
  return [
    schema(SCIM_SCHEMAS.user, 'User', 'A Crewboard account', USER_ATTRIBUTES),
    schema(SCIM_SCHEMAS.group, 'Group', 'A Crewboard team', GROUP_ATTRIBUTES),
  ];
}

export function scimResourceTypes(base: string) {
  const type = (id: string, endpoint: string, schema: string, description: string) => ({
    schemas: [SCIM_SCHEMAS.resourceType],
    id,
    name: id,
    endpoint,
    description,
    schema,
    meta: { resourceType: 'ResourceType', location: `${base}/ResourceTypes/${id}` },
  });
  return [
    type('User', '/Users', SCIM_SCHEMAS.user, 'A Crewboard account'),
    type('Group', '/Groups', SCIM_SCHEMAS.group, 'A Crewboard team'),
  ];
}

export function scimServiceProviderConfig(base: string, documentationUri: string) {
  return {
    schemas: [SCIM_SCHEMAS.serviceProviderConfig],
    documentationUri,
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: SCIM_PAGE.maxCount },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: false },
    authenticationSchemes: [
      {
        type: 'oauthbearertoken',
        name: 'SCIM token',
        description: 'Authorization: Bearer scim_…, a token a super admin creates in the admin panel (SCIM tokens).',
        primary: true,
      },
    ],
    meta: { resourceType: 'ServiceProviderConfig', location: `${base}/ServiceProviderConfig` },
  };
}
