import { emailInput } from '../../../domain/schemas/common';
import {
  SCIM_PAGE,
  SCIM_SCHEMAS,
  type ScimGroupInput,
  type ScimGroupResource,
  type ScimList,
  type ScimListQuery,
  type ScimPatchInput,
  type ScimUserInput,
  type ScimUserResource,
} from '../../../domain/schemas/scim';
import { teamName } from '../../../domain/schemas/team';
import type { Db, Tx } from '../../db/client';
import type { UserRow } from '../../db/schema';
import type { RecordChange } from '../../lib/changes';
import type { ChangeRecorder } from '../../lib/changes';
import { isUniqueViolation, pgCode } from '../../lib/errors';
import { revokeAllSessionsOfUser, revokeCredentialsOfUser } from '../auth';
import { addMember, createOne as createTeam, deleteMember } from '../teams';
import { invalidValue, ScimError, scimNotFound } from './scim.errors';
import { page, parseEqFilter } from './scim.filter';
import { applyGroupPatch, applyUserPatch, fullNameFrom, type GroupState, scimBoolean, type UserState } from './scim.patch';
import * as repo from './scim.repo';
import type { ScimCaller } from './scim-tokens.service';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const isUuid = (id: string) => UUID.test(id);

/** A team created by SCIM without an externalId is linked all the same: '' marks "a SCIM group, no external id". */
const NO_EXTERNAL_ID = '';

/** RFC 7644 §3.3: a value another resource holds is 409 with scimType uniqueness. */
const uniqueness = (what = 'A user with this userName') => new ScimError(409, `${what} already exists`, 'uniqueness');
const userExternalIdTaken = () => uniqueness('A user with this externalId');
const groupExternalIdTaken = () => uniqueness('A group with this externalId');

function validEmail(userName: string): string {
  const parsed = emailInput.safeParse(userName);
  if (!parsed.success) throw invalidValue('userName must be an email address');
  return parsed.data;
}

function validTeamName(displayName: string): string {
  const parsed = teamName.safeParse(displayName);
  if (!parsed.success) throw invalidValue(`displayName: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  return parsed.data;
}

/** `excludedAttributes=members` (Entra ID asks it of every group read): leave the members out. */
export const withoutMembers = (query: Pick<ScimListQuery, 'excludedAttributes'>) =>
  (query.excludedAttributes ?? '')
    .split(',')
    .map((a) => a.trim().toLowerCase())
    .includes('members');

/**
 * SCIM 2.0 (issue 41, decision 0031): Users are accounts, Groups are the teams SCIM created or linked. Every write is
 * one change through the change recorder, by the token's creator (actor kind 'scim'). Deprovisioning (DELETE, or
 * active false) deactivates and ends the person's sessions, API tokens and calendar feed in the same transaction.
 */
export class ScimService {
  constructor(
    private readonly db: Db,
    private readonly changes: ChangeRecorder,
    /** `${PUBLIC_URL}/scim/v2`: the base of each resource's meta.location. */
    private readonly base: string,
  ) {}

  // ---- Users ----

  private userResource(row: UserRow): ScimUserResource {
    return {
      schemas: [SCIM_SCHEMAS.user],
      id: row.id,
      userName: row.email,
      displayName: row.fullName,
      name: { formatted: row.fullName },
      emails: [{ value: row.email, type: 'work', primary: true }],
      active: row.isActive,
      meta: {
        resourceType: 'User',
        created: row.createdAt.toISOString(),
        lastModified: row.updatedAt.toISOString(),
        location: `${this.base}/Users/${row.id}`,
      },
      ...(row.scimExternalId ? { externalId: row.scimExternalId } : {}),
    };
  }

  async listUsers(query: ScimListQuery): Promise<ScimList<ScimUserResource>> {
    const userName = parseEqFilter(query.filter, 'userName');
    const { start, size, offset } = page(query.startIndex, query.count, SCIM_PAGE);
    const { rows, total } = await repo.listUsers(this.db, { email: userName }, offset, size);
    return list(
      rows.map((r) => this.userResource(r)),
      total,
      start,
    );
  }

  async getUser(id: string): Promise<ScimUserResource> {
    const row = isUuid(id) ? await repo.getUserById(this.db, id) : undefined;
    if (!row) throw scimNotFound('User', id);
    return this.userResource(row);
  }

  private stateOf(input: ScimUserInput, current?: UserRow): UserState {
    const email = validEmail(input.userName);
    return {
      email,
      fullName: fullNameFrom({ ...input.name, displayName: input.displayName }, current?.fullName ?? email.split('@')[0]!),
      // An empty externalId is none (the unique index of migration 0023 would make two of them a conflict).
      externalId: input.externalId || null,
      active: input.active === undefined ? (current?.isActive ?? true) : scimBoolean(input.active, 'active'),
    };
  }

  async createUser(caller: ScimCaller, input: ScimUserInput): Promise<ScimUserResource> {
    const state = this.stateOf(input);
    const row = await this.write(caller, async (tx, record) => {
      const existing = await repo.lockUserByEmail(tx, state.email);
      if (existing && !existing.scimDeletedAt) throw uniqueness();
      if (state.externalId && (await repo.getUserIdByExternalId(tx, state.externalId))) throw userExternalIdTaken();
      if (existing) return this.restoreUser(tx, record, existing, state);
      const created = await repo.createUser(tx, {
        email: state.email,
        fullName: state.fullName,
        scimExternalId: state.externalId,
        isActive: state.active,
      });
      const fields = ['userName', 'name', 'active', ...(state.externalId ? ['externalId'] : [])];
      await record({
        kind: 'scim.user_provisioned',
        userId: created.id,
        email: created.email,
        previousEmail: null,
        created: true,
        fields,
      });
      return created;
    });
    return this.userResource(row);
  }

  /**
   * A create for the address of a person the provider DELETEd: RFC 7644 §3.6 says a deleted resource counts in no
   * uniqueness check, and Crewboard keeps one account per address, so the account comes back (its work is still its
   * own) as a SCIM User again, under its id, with what the create says. Nothing it lost at the DELETE comes back.
   */
  private async restoreUser(tx: Tx, record: RecordChange, current: UserRow, state: UserState): Promise<UserRow> {
    const restored = await repo.updateUser(tx, current.id, {
      fullName: state.fullName,
      scimExternalId: state.externalId,
      isActive: state.active,
      emailVerified: true,
      scimDeletedAt: null,
    });
    const fields = ['restored', 'name', 'active', ...(state.externalId ? ['externalId'] : [])];
    await record({
      kind: 'scim.user_provisioned',
      userId: current.id,
      email: current.email,
      previousEmail: null,
      created: false,
      fields,
    });
    if (restored.isActive !== current.isActive) await this.recordActive(tx, record, restored);
    return restored;
  }

  async replaceUser(caller: ScimCaller, id: string, input: ScimUserInput): Promise<ScimUserResource> {
    return this.changeUser(caller, id, (current) => this.stateOf(input, current));
  }

  async patchUser(caller: ScimCaller, id: string, input: ScimPatchInput): Promise<ScimUserResource> {
    return this.changeUser(caller, id, (current) => {
      const next = applyUserPatch(
        { email: current.email, fullName: current.fullName, externalId: current.scimExternalId, active: current.isActive },
        input.Operations,
      );
      const email = next.email === current.email ? next.email : validEmail(next.email);
      return { ...next, email, externalId: next.externalId || null };
    });
  }

  /**
   * DELETE: the person is no SCIM resource any more, but the account is not deleted (their tasks, comments and history
   * stay theirs). RFC 7644 §3.6 lets a service provider keep a deleted resource as long as every later operation on it
   * answers 404 and no list shows it: `scim_deleted_at` marks that (read by every query of scim.repo), which sets a
   * DELETE apart from PATCH `active: false`, a deactivation the provider can undo and still reads back (active false).
   * The account is deactivated as by `active: false` (sessions, API tokens and calendar feed end in this transaction)
   * and unlinked (its externalId goes: it no longer blocks a new User with that externalId). Chosen over a separate
   * table of deleted ids or a sentinel externalId: one nullable column, and a create for the same address brings the
   * account back (restoreUser) rather than answering 409, as §3.6 asks of a deleted resource.
   */
  async deleteUser(caller: ScimCaller, id: string): Promise<void> {
    if (!isUuid(id)) throw scimNotFound('User', id);
    await this.write(caller, async (tx, record) => {
      const current = await repo.lockUserById(tx, id);
      if (!current) throw scimNotFound('User', id);
      // The break-glass accounts stay in the hands of the instance: a super admin is demoted by the CLI first.
      if (current.role === 'super_admin') throw new ScimError(400, 'A super admin is not deleted by SCIM', 'mutability');
      const deleted = await repo.updateUser(tx, id, { isActive: false, scimExternalId: null, scimDeletedAt: new Date() });
      await record({
        kind: 'scim.user_provisioned',
        userId: id,
        email: current.email,
        previousEmail: null,
        created: false,
        fields: ['deleted', ...(current.scimExternalId ? ['externalId'] : [])],
      });
      if (current.isActive) await this.recordActive(tx, record, deleted);
    });
  }

  private async changeUser(caller: ScimCaller, id: string, next: (current: UserRow) => UserState): Promise<ScimUserResource> {
    if (!isUuid(id)) throw scimNotFound('User', id);
    const row = await this.write(caller, async (tx, record) => {
      const current = await repo.lockUserById(tx, id);
      if (!current) throw scimNotFound('User', id);
      const state = next(current);
      if (!state.active && current.isActive && current.role === 'super_admin') {
        // The break-glass accounts stay in the hands of the instance: a super admin is demoted by the CLI first.
        throw new ScimError(400, 'A super admin is not deactivated by SCIM', 'mutability');
      }
      if (state.email !== current.email && (await repo.getUserIdByEmail(tx, state.email, id))) throw uniqueness();
      if (
        state.externalId &&
        state.externalId !== current.scimExternalId &&
        (await repo.getUserIdByExternalId(tx, state.externalId, id))
      ) {
        throw userExternalIdTaken();
      }
      const fields = [
        ...(state.email !== current.email ? ['userName'] : []),
        ...(state.fullName !== current.fullName ? ['name'] : []),
        ...(state.externalId !== current.scimExternalId ? ['externalId'] : []),
      ];
      let updated = current;
      if (fields.length > 0 || state.active !== current.isActive) {
        updated = await repo.updateUser(tx, id, {
          email: state.email,
          fullName: state.fullName,
          scimExternalId: state.externalId,
          isActive: state.active,
          // The identity provider vouches for the address it sets.
          ...(state.email !== current.email ? { emailVerified: true } : {}),
        });
      }
      if (fields.length > 0) {
        const previousEmail = state.email !== current.email ? current.email : null;
        await record({ kind: 'scim.user_provisioned', userId: id, email: updated.email, previousEmail, created: false, fields });
      }
      if (state.active !== current.isActive) await this.recordActive(tx, record, updated);
      return updated;
    });
    return this.userResource(row);
  }

  /** Deactivated: every session, API token and the calendar feed end in this transaction; reactivated: nothing comes back. */
  private async recordActive(tx: Tx, record: RecordChange, user: UserRow): Promise<void> {
    if (user.isActive) {
      await record({ kind: 'account.activated', userId: user.id, email: user.email });
      return;
    }
    await revokeAllSessionsOfUser(tx, user.id);
    await revokeCredentialsOfUser(tx, record, user.id, 'deprovisioned');
    await record({ kind: 'account.deactivated', userId: user.id, email: user.email });
  }

  // ---- Groups ----

  private groupResource(team: repo.TeamRow, members: repo.GroupMember[] | null): ScimGroupResource {
    return {
      schemas: [SCIM_SCHEMAS.group],
      id: team.id,
      displayName: team.name,
      meta: {
        resourceType: 'Group',
        created: team.createdAt.toISOString(),
        lastModified: team.updatedAt.toISOString(),
        location: `${this.base}/Groups/${team.id}`,
      },
      ...(team.scimExternalId ? { externalId: team.scimExternalId } : {}),
      ...(members
        ? {
            members: members.map((m) => ({
              value: m.userId,
              display: m.fullName,
              type: 'User' as const,
              $ref: `${this.base}/Users/${m.userId}`,
            })),
          }
        : {}),
    };
  }

  async listGroups(query: ScimListQuery): Promise<ScimList<ScimGroupResource>> {
    const name = parseEqFilter(query.filter, 'displayName');
    const { start, size, offset } = page(query.startIndex, query.count, SCIM_PAGE);
    const { rows, total } = await repo.listGroups(this.db, { name }, offset, size);
    const skip = withoutMembers(query);
    const members = skip
      ? null
      : await repo.listMembers(
          this.db,
          rows.map((r) => r.id),
        );
    return list(
      rows.map((r) => this.groupResource(r, members?.get(r.id) ?? null)),
      total,
      start,
    );
  }

  async getGroup(id: string, query: Pick<ScimListQuery, 'excludedAttributes'>): Promise<ScimGroupResource> {
    const team = isUuid(id) ? await repo.getGroupById(this.db, id) : undefined;
    if (!team) throw scimNotFound('Group', id);
    const members = withoutMembers(query) ? null : ((await repo.listMembers(this.db, [id])).get(id) ?? []);
    return this.groupResource(team, members);
  }

  /** A new group is a new team, owned by the super admin who made the token; its members join as members. */
  async createGroup(caller: ScimCaller, input: ScimGroupInput): Promise<ScimGroupResource> {
    const name = validTeamName(input.displayName);
    const memberIds = (input.members ?? []).map((m) => m.value);
    const teamId = await this.write(caller, async (tx, record) => {
      const team = await createTeam(tx, { name, description: null, ownerId: caller.userId });
      await repo.updateGroup(tx, team.id, { scimExternalId: input.externalId ?? NO_EXTERNAL_ID });
      await addMember(tx, { teamId: team.id, userId: caller.userId, role: 'owner' });
      await record({ kind: 'team.created', teamId: team.id });
      await record({ kind: 'scim.group_provisioned', teamId: team.id, teamName: name, created: true, fields: ['displayName'] });
      await this.reconcileMembers(tx, record, team.id, caller.userId, memberIds, false);
      return team.id;
    });
    return this.getGroup(teamId, {});
  }

  async replaceGroup(caller: ScimCaller, id: string, input: ScimGroupInput): Promise<ScimGroupResource> {
    return this.changeGroup(caller, id, () => ({
      name: input.displayName,
      externalId: input.externalId ?? null,
      memberIds: (input.members ?? []).map((m) => m.value),
    }));
  }

  async patchGroup(caller: ScimCaller, id: string, input: ScimPatchInput): Promise<ScimGroupResource> {
    return this.changeGroup(caller, id, (current) => applyGroupPatch(current, input.Operations));
  }

  /**
   * DELETE: the team is not deleted (its projects and tasks are not the identity provider's to destroy). It is unlinked
   * (no longer a SCIM group: 404 from now on) and loses every member but its owner, as the group's members went.
   */
  async deleteGroup(caller: ScimCaller, id: string): Promise<void> {
    if (!isUuid(id)) throw scimNotFound('Group', id);
    await this.write(caller, async (tx, record) => {
      const team = await repo.lockGroupById(tx, id);
      if (!team) throw scimNotFound('Group', id);
      const removed = await this.reconcileMembers(tx, record, id, team.ownerId, [], true);
      await repo.updateGroup(tx, id, { scimExternalId: null });
      await record({ kind: 'scim.group_unlinked', teamId: id, teamName: team.name, removedMembers: removed });
    });
  }

  private async changeGroup(
    caller: ScimCaller,
    id: string,
    next: (current: GroupState) => GroupState,
  ): Promise<ScimGroupResource> {
    if (!isUuid(id)) throw scimNotFound('Group', id);
    await this.write(caller, async (tx, record) => {
      const team = await repo.lockGroupById(tx, id);
      if (!team) throw scimNotFound('Group', id);
      const members = (await repo.listMembers(tx, [id])).get(id) ?? [];
      const current: GroupState = {
        name: team.name,
        externalId: team.scimExternalId || null,
        memberIds: members.map((m) => m.userId),
      };
      const state = next(current);
      const name = validTeamName(state.name);
      const fields = [
        ...(name !== team.name ? ['displayName'] : []),
        ...(state.externalId !== current.externalId ? ['externalId'] : []),
      ];
      if (fields.length > 0) {
        await repo.updateGroup(tx, id, { name, scimExternalId: state.externalId ?? NO_EXTERNAL_ID });
        await record({ kind: 'scim.group_provisioned', teamId: id, teamName: name, created: false, fields });
      }
      await this.reconcileMembers(tx, record, id, team.ownerId, state.memberIds, true);
    });
    return this.getGroup(id, {});
  }

  /**
   * Makes the team's members `wanted` (plus its owner, never removed): each added as a member, each removed as a
   * removal by an admin (member.removed). With `removeOthers` false only adds. Unknown user ids are a 400.
   */
  private async reconcileMembers(
    tx: Tx,
    record: RecordChange,
    teamId: string,
    ownerId: string,
    wanted: string[],
    removeOthers: boolean,
  ): Promise<number> {
    const ids = [...new Set(wanted)];
    const bad = ids.find((id) => !isUuid(id));
    const known = await repo.existingUserIds(tx, ids.filter(isUuid));
    const unknown = bad ?? ids.find((id) => !known.has(id));
    if (unknown !== undefined) throw invalidValue(`No user ${JSON.stringify(unknown.slice(0, 80))}`);
    const members = (await repo.listMembers(tx, [teamId])).get(teamId) ?? [];
    const present = new Set(members.map((m) => m.userId));
    for (const userId of ids) {
      if (present.has(userId)) continue;
      const added = await addMember(tx, { teamId, userId, role: 'member' });
      if (!added) continue;
      const email = (await repo.getUserById(tx, userId))?.email ?? '';
      await record({ kind: 'scim.member_added', teamId, member: { memberId: added.id, userId, email } });
    }
    if (!removeOthers) return 0;
    const keep = new Set(ids);
    let removed = 0;
    for (const m of members) {
      if (keep.has(m.userId) || m.userId === ownerId || m.role === 'owner') continue;
      // Recorded before the row goes (the webhook reads the member), as the teams service does.
      await record({
        kind: 'member.removed',
        teamId,
        member: { memberId: m.memberId, userId: m.userId, email: m.email },
        role: m.role,
        left: false,
      });
      if (await deleteMember(tx, teamId, m.memberId)) removed++;
    }
    return removed;
  }

  /**
   * One change through the recorder; a unique violation the checks above did not see (a race, or a group's externalId,
   * which the unique indexes of migration 0023 guard) is SCIM's 409.
   */
  private async write<T>(caller: ScimCaller, work: (tx: Tx, record: RecordChange) => Promise<T>): Promise<T> {
    try {
      return await this.changes.run(this.db, caller, work);
    } catch (error) {
      if (isUniqueViolation(error, 'teams_scim_external_id_key')) throw groupExternalIdTaken();
      if (isUniqueViolation(error, 'users_scim_external_id_key')) throw userExternalIdTaken();
      if (pgCode(error) === '23505') throw uniqueness();
      throw error;
    }
  }
}

function list<T>(resources: T[], total: number, startIndex: number): ScimList<T> {
  return {
    schemas: [SCIM_SCHEMAS.listResponse],
    totalResults: total,
    startIndex,
    itemsPerPage: resources.length,
    Resources: resources,
  };
}
