/**
 * RFC 7644 §3.5.2 PATCH, applied to what Crewboard keeps of a User (address, name, external id, active) and a Group
 * (name, external id, members). Attributes it does not keep (title, phone numbers, the enterprise extension…) are
 * ignored, as a provider expects of a service that does not support them; a malformed operation is a 400.
 */
import type { ScimPatchInput } from '../../../domain/schemas/scim';
import { invalidValue, ScimError } from './scim.errors';

type Operation = ScimPatchInput['Operations'][number];

/** What a SCIM User is in Crewboard. */
export interface UserState {
  email: string;
  fullName: string;
  externalId: string | null;
  active: boolean;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `active` as a boolean: some providers send "True"/"False". */
export function scimBoolean(value: unknown, attribute: string): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
  throw invalidValue(`${attribute} must be true or false`);
}

function text(value: unknown, attribute: string): string {
  if (typeof value === 'string') return value;
  throw invalidValue(`${attribute} must be a string`);
}

const opKind = (op: Operation) => {
  const kind = op.op.toLowerCase();
  if (kind !== 'add' && kind !== 'replace' && kind !== 'remove') {
    throw new ScimError(400, `Unknown operation ${JSON.stringify(op.op.slice(0, 20))}`, 'invalidSyntax');
  }
  return kind;
};

const withoutSchema = (path: string, resource: 'User' | 'Group') =>
  path.replace(new RegExp(`^urn:ietf:params:scim:schemas:core:2\\.0:${resource}:`, 'i'), '').trim();

/** A person's name from SCIM's parts: the formatted name, else given and family names, else the display name. */
export function fullNameFrom(
  parts: { formatted?: string | null; givenName?: string | null; familyName?: string | null; displayName?: string | null },
  fallback: string,
): string {
  const joined = [parts.givenName, parts.familyName]
    .map((p) => p?.trim())
    .filter(Boolean)
    .join(' ');
  const name = parts.formatted?.trim() || joined || parts.displayName?.trim() || fallback;
  return name.slice(0, 100);
}

export function applyUserPatch(current: UserState, operations: readonly Operation[]): UserState {
  const next = { ...current };
  const name: { formatted?: string; givenName?: string; familyName?: string; displayName?: string } = {};
  const set = (path: string, value: unknown) => {
    const key = withoutSchema(path, 'User').toLowerCase();
    if (key === 'active') next.active = scimBoolean(value, 'active');
    else if (key === 'username') next.email = text(value, 'userName');
    else if (key === 'externalid') next.externalId = value === null ? null : text(value, 'externalId');
    else if (key === 'displayname') name.displayName = text(value, 'displayName');
    else if (key === 'name' && isObject(value)) for (const [k, v] of Object.entries(value)) set(`name.${k}`, v);
    else if (key === 'name.formatted') name.formatted = text(value, 'name.formatted');
    else if (key === 'name.givenname') name.givenName = text(value, 'name.givenName');
    else if (key === 'name.familyname') name.familyName = text(value, 'name.familyName');
    // Any other attribute: not kept by Crewboard, ignored.
  };
  for (const op of operations) {
    const kind = opKind(op);
    if (kind === 'remove') {
      if (!op.path) throw new ScimError(400, 'A remove operation needs a path', 'noTarget');
      const key = withoutSchema(op.path, 'User').toLowerCase();
      if (key === 'externalid') next.externalId = null;
      else if (key === 'username' || key === 'active') throw new ScimError(400, `${op.path} cannot be removed`, 'mutability');
      continue;
    }
    if (op.path) set(op.path, op.value);
    else if (isObject(op.value)) for (const [k, v] of Object.entries(op.value)) set(k, v);
    else throw invalidValue('An operation without a path needs an object value');
  }
  if (name.formatted !== undefined || name.givenName !== undefined || name.familyName !== undefined) {
    // Crewboard keeps one full name: a part replaced keeps the other part of the current name.
    const [given = '', ...family] = current.fullName.split(' ');
    next.fullName = fullNameFrom(
      {
        formatted: name.formatted,
        givenName: name.givenName ?? given,
        familyName: name.familyName ?? family.join(' '),
      },
      current.fullName,
    );
  } else if (name.displayName !== undefined) {
    next.fullName = fullNameFrom({ displayName: name.displayName }, current.fullName);
  }
  return next;
}

/** What a Group PATCH leaves: its name, external id and the set of member user ids (in the order first named). */
export interface GroupState {
  name: string;
  externalId: string | null;
  memberIds: string[];
}

function jsonString(quoted: string): string {
  try {
    return JSON.parse(`"${quoted}"`) as string;
  } catch {
    throw new ScimError(400, 'The member filter value is not a valid string', 'invalidFilter');
  }
}

const MEMBER_FILTER = /^members\s*\[\s*value\s+eq\s+"((?:[^"\\]|\\.)*)"\s*\]$/i;

function memberIds(value: unknown): string[] {
  const list = Array.isArray(value) ? value : [value];
  return list.map((m) => {
    if (isObject(m) && typeof m.value === 'string') return m.value;
    throw invalidValue('members must be a list of {"value": "<user id>"}');
  });
}

export function applyGroupPatch(current: GroupState, operations: readonly Operation[]): GroupState {
  let name = current.name;
  let externalId = current.externalId;
  const members = new Set(current.memberIds);
  const setMembers = (kind: 'add' | 'replace', value: unknown) => {
    if (kind === 'replace') members.clear();
    for (const id of memberIds(value)) members.add(id);
  };
  const set = (kind: 'add' | 'replace', path: string, value: unknown) => {
    const key = withoutSchema(path, 'Group').toLowerCase();
    if (key === 'displayname') name = text(value, 'displayName');
    else if (key === 'externalid') externalId = value === null ? null : text(value, 'externalId');
    else if (key === 'members') setMembers(kind, value ?? []);
    else throw new ScimError(400, `Unknown attribute ${JSON.stringify(path.slice(0, 80))}`, 'invalidPath');
  };
  for (const op of operations) {
    const kind = opKind(op);
    if (kind === 'remove') {
      if (!op.path) throw new ScimError(400, 'A remove operation needs a path', 'noTarget');
      const path = withoutSchema(op.path, 'Group');
      const one = MEMBER_FILTER.exec(path);
      if (one) members.delete(jsonString(one[1]!));
      else if (path.toLowerCase() === 'members') {
        // With a value: those members (Entra ID); without: every member.
        if (op.value === undefined || op.value === null) members.clear();
        else for (const id of memberIds(op.value)) members.delete(id);
      } else if (path.toLowerCase() === 'externalid') externalId = null;
      else throw new ScimError(400, `${op.path} cannot be removed`, 'mutability');
      continue;
    }
    if (op.path) set(kind, op.path, op.value);
    else if (isObject(op.value)) for (const [k, v] of Object.entries(op.value)) set(kind, k, v);
    else throw invalidValue('An operation without a path needs an object value');
  }
  return { name, externalId, memberIds: [...members] };
}
