import type { PersonActor } from '../../../domain/changes';
import type { InvitationRole } from '../../../domain/constants';
import type { ErrorReason } from '../../../domain/errors';
import {
  canActOnMember,
  canEditTeam,
  canLeaveTeam,
  canManageMembers,
  canSetEstimateUnit,
  canSetTeamAccess,
  canTransferOwnership,
} from '../../../domain/permissions';
import type {
  CreateTeamInput,
  InvitationDto,
  MyInvitationsDto,
  TeamDto,
  TeamMemberDto,
  UpdateTeamAccessInput,
  UpdateTeamInput,
} from '../../../domain/schemas/team';
import type { Config } from '../../config';
import type { Db, Tx } from '../../db/client';
import type { UserRow } from '../../db/schema';
import { AppError, isUniqueViolation } from '../../lib/errors';
import type { ChangeRecorder, RecordChange } from '../../lib/changes';
import type { RateLimiter } from '../../lib/rate-limit';
import { verifyInvitationProof } from './invitation-mail';
import { requireTeamMember, requireTeamRight } from '../../db/membership';
import { withoutSsoLock } from '../../db/sso-lock';
import { toInvitationDto, toTeamDto, toTeamMemberDto } from './teams.mapper';
import * as repo from './teams.repo';

/**
 * The signed-in caller, as the services need them; `ip`, where the request came from, and `apiTokenId`, the API token
 * they came with, for the change's actor (the audit log names the token).
 */
export type Actor = Pick<UserRow, 'id' | 'email' | 'fullName'> & { ip?: string | null; apiTokenId?: string | null };

/** The caller as the actor of a change. */
const changeActor = (actor: Actor): PersonActor =>
  actor.apiTokenId
    ? { kind: 'token', userId: actor.id, email: actor.email, ip: actor.ip ?? null, tokenId: actor.apiTokenId }
    : { kind: 'user', userId: actor.id, email: actor.email, ip: actor.ip ?? null };

const notFound = () => new AppError('team_not_found');

/**
 * Teams, members and invitations. Authorization comes from the caller's membership rows
 * (DESIGN.md "Authorization"): a team the caller cannot see is 404, a forbidden change is 403.
 * Events are published only after the change has committed.
 */
export class TeamsService {
  constructor(
    private readonly db: Db,
    private readonly changes: ChangeRecorder,
    private readonly rateLimiter: RateLimiter,
    /** Days an invitation stays answerable (INVITATION_TTL_DAYS). */
    private readonly invitationTtlDays: number,
    /** The secret invitation proofs are signed with, and whether an address must be proven to answer. */
    private readonly links: Pick<Config, 'authSecret' | 'emailVerification'>,
  ) {}

  /** Runs a change of the caller's in one transaction (lib/changes.ts). */
  private change<T>(actor: Actor, work: (tx: Tx, record: RecordChange) => Promise<T>): Promise<T> {
    return this.changes.run(this.db, changeActor(actor), work);
  }

  // ---- teams ----

  async list(actor: Actor, q?: string): Promise<TeamDto[]> {
    // The teams that require SSO are listed to a caller signed in another way too, marked locked (ssoLocked).
    const rows = await withoutSsoLock(() => repo.listByMemberUserId(this.db, actor.id, q));
    const members = await withoutSsoLock(() =>
      repo.listMembersByTeamIds(
        this.db,
        rows.map((t) => t.id),
        actor.id,
      ),
    );
    const byTeam = new Map<string, repo.MemberWithUser[]>();
    for (const m of members) {
      const list = byTeam.get(m.member.teamId) ?? [];
      list.push(m);
      byTeam.set(m.member.teamId, list);
    }
    return rows.map((t) => toTeamDto(t, byTeam.get(t.id) ?? [], actor.id));
  }

  async get(actor: Actor, teamId: string): Promise<TeamDto> {
    await requireTeamMember(this.db, teamId, actor.id);
    return this.load(teamId, actor.id);
  }

  private async load(teamId: string, viewerId: string): Promise<TeamDto> {
    const team = await repo.getOneById(this.db, teamId);
    if (!team) throw notFound();
    const members = await repo.listMembersByTeamIds(this.db, [teamId], viewerId);
    return toTeamDto(team, members, viewerId);
  }

  /** The team and its owner membership, in one transaction. */
  async create(actor: Actor, input: CreateTeamInput): Promise<TeamDto> {
    const team = await this.change(actor, async (tx, record) => {
      const created = await repo.createOne(tx, { name: input.name, description: input.description ?? null, ownerId: actor.id });
      await repo.addMember(tx, { teamId: created.id, userId: actor.id, role: 'owner' });
      await record({ kind: 'team.created', teamId: created.id });
      return created;
    });
    return this.load(team.id, actor.id);
  }

  async update(actor: Actor, teamId: string, input: UpdateTeamInput): Promise<TeamDto> {
    await this.requireEditable(teamId, actor.id, input);
    await this.change(actor, async (tx, record) => {
      const values = { name: input.name, description: input.description ?? null, estimateUnit: input.estimateUnit };
      const updated = await repo.updateOne(tx, teamId, values, input.version);
      if (!updated) {
        if (!(await repo.getOneById(tx, teamId))) throw notFound();
        throw new AppError('stale_edit');
      }
      await repo.renamePendingInvitations(tx, teamId, updated.name);
      await record({ kind: 'team.updated', teamId });
    });
    return this.load(teamId, actor.id);
  }

  /**
   * The owner edits the team; an admin may change its estimate unit only (issue 39), the name and description sent as
   * they are (the form sends the whole team). 404 for a stranger, 403 `team_edit_denied` otherwise.
   */
  private async requireEditable(teamId: string, userId: string, input: UpdateTeamInput): Promise<void> {
    const role = await requireTeamMember(this.db, teamId, userId);
    if (canEditTeam(role)) return;
    const team =
      canSetEstimateUnit(role) && input.estimateUnit !== undefined ? await repo.getOneById(this.db, teamId) : undefined;
    const unitOnly = team && team.name === input.name && (team.description ?? null) === (input.description ?? null);
    if (!unitOnly) throw new AppError('team_edit_denied');
  }

  /**
   * The team's access rules (issue 41): whether viewers comment, whether members must sign in with single sign-on.
   * Owner and admins (404 for a stranger, 403 `team_access_denied` for anyone else). Requiring single sign-on takes a
   * server where it is configured (`ssoConfigured`): else nobody could open the team again (400 `team_sso_unavailable`).
   */
  async setAccess(
    actor: Actor,
    teamId: string,
    input: UpdateTeamAccessInput,
    ssoConfigured: () => Promise<boolean>,
  ): Promise<TeamDto> {
    // Read before the transaction: the SSO settings are read through the pool (one connection on PGlite).
    const ssoReady = input.requiresSso === true ? await ssoConfigured() : true;
    await this.change(actor, async (tx, record) => {
      await requireTeamRight(tx, teamId, actor.id, canSetTeamAccess, 'team_access_denied');
      if (!ssoReady) throw new AppError('team_sso_unavailable');
      const values = {
        ...(input.viewersMayComment !== undefined && { viewersMayComment: input.viewersMayComment }),
        ...(input.requiresSso !== undefined && { requiresSso: input.requiresSso }),
      };
      const updated = await repo.updateAccess(tx, teamId, values);
      if (!updated) throw notFound();
      const { viewersMayComment, requiresSso } = updated;
      await record({ kind: 'team.access_changed', teamId, viewersMayComment, requiresSso });
    });
    return this.load(teamId, actor.id);
  }

  async remove(actor: Actor, teamId: string): Promise<void> {
    await requireTeamRight(this.db, teamId, actor.id, canEditTeam, 'team_delete_denied');
    await this.change(actor, async (tx, record) => {
      const team = await repo.getOneById(tx, teamId);
      if (!team || !(await repo.deleteOne(tx, teamId))) throw notFound();
      await record({ kind: 'team.deleted', teamId, teamName: team.name });
    });
  }

  /** A non-owner member leaves; their invitations to the team go too. */
  async leave(actor: Actor, teamId: string): Promise<void> {
    await requireTeamRight(this.db, teamId, actor.id, canLeaveTeam, 'owner_cannot_leave');
    await this.change(actor, async (tx, record) => {
      const mine = await repo.getMemberByUserId(tx, teamId, actor.id);
      // Made the owner since the check (a transfer of ownership): the owner stays.
      if (mine && !canLeaveTeam(mine.role)) throw new AppError('owner_cannot_leave');
      if (!mine) throw notFound();
      // Recorded while the row is there: the webhook carries the member as they were.
      const member = { memberId: mine.id, userId: actor.id, email: actor.email };
      await record({ kind: 'member.removed', teamId, member, role: mine.role, left: true });
      if (!(await repo.deleteMember(tx, teamId, mine.id))) throw notFound();
      await repo.deleteInvitationsByTeamAndEmail(tx, teamId, actor.email);
    });
  }

  /**
   * The owner hands the team to another active member, who becomes its owner; the old owner stays as an admin. One
   * transaction behind the team row's lock, the caller's role read under it: of two transfers at once the second
   * finds its caller no longer the owner (403). The new owner's user row is locked too, against their account's
   * deletion meanwhile (which refuses an owner, and would otherwise leave the team without one).
   */
  async transferOwnership(actor: Actor, teamId: string, memberId: string): Promise<TeamDto> {
    await this.change(actor, async (tx, record) => {
      if (!(await repo.lockOneById(tx, teamId))) throw notFound();
      await requireTeamRight(tx, teamId, actor.id, canTransferOwnership, 'team_transfer_denied');
      const target = await repo.getMemberInTeam(tx, teamId, memberId);
      if (!target || target.member.status !== 'active') throw new AppError('member_not_found');
      if (target.member.userId === actor.id) throw new AppError('transfer_to_self');
      if (!(await repo.lockActiveUser(tx, target.member.userId))) throw new AppError('member_not_found');
      const mine = await repo.getMemberByUserId(tx, teamId, actor.id);
      if (!mine) throw notFound();
      // Removed (or left) since it was read: nothing is written, the team keeps its owner.
      if (!(await repo.updateMemberRole(tx, teamId, target.member.id, 'owner'))) throw new AppError('member_not_found');
      await repo.updateMemberRole(tx, teamId, mine.id, 'admin', true);
      await repo.setOwner(tx, teamId, target.member.userId);
      await record({
        kind: 'team.ownership_transferred',
        teamId,
        newOwner: { memberId: target.member.id, userId: target.user.id, email: target.user.email, from: target.member.role },
        oldOwner: { memberId: mine.id, userId: mine.userId, email: actor.email },
      });
    });
    return this.load(teamId, actor.id);
  }

  // ---- members ----

  private async requireTargetMember(actor: Actor, teamId: string, memberId: string, self: ErrorReason) {
    const role = await requireTeamRight(this.db, teamId, actor.id, canManageMembers, 'team_manage_denied');
    const target = await repo.getMemberInTeam(this.db, teamId, memberId);
    if (!target) throw new AppError('member_not_found');
    if (!canActOnMember(role, actor.id, target.member)) {
      throw new AppError(target.member.userId === actor.id ? self : 'owner_untouchable');
    }
    return target;
  }

  async changeRole(actor: Actor, teamId: string, memberId: string, newRole: InvitationRole): Promise<TeamMemberDto> {
    const target = await this.requireTargetMember(actor, teamId, memberId, 'cannot_change_own_role');
    const updated = await this.change(actor, async (tx, record) => {
      const row = await repo.updateMemberRole(tx, teamId, memberId, newRole);
      if (!row) throw new AppError('member_not_found');
      // A role set to what it was is no change: nothing is recorded (no audit row), but open views refresh as before.
      const member = { memberId, userId: row.userId, email: target.user.email };
      if (target.member.role !== newRole)
        await record({ kind: 'member.role_changed', teamId, member, from: target.member.role, to: newRole });
      return row;
    });
    return toTeamMemberDto({ member: updated, user: target.user });
  }

  /** Removes a member and that user's invitations to the team, in one transaction. */
  async removeMember(actor: Actor, teamId: string, memberId: string): Promise<void> {
    const target = await this.requireTargetMember(actor, teamId, memberId, 'cannot_remove_self');
    await this.change(actor, async (tx, record) => {
      // Recorded while the row is there: the webhook carries the member as they were.
      const member = { memberId, userId: target.user.id, email: target.user.email };
      await record({ kind: 'member.removed', teamId, member, role: target.member.role, left: false });
      if (!(await repo.deleteMember(tx, teamId, memberId))) throw new AppError('member_not_found');
      await repo.deleteInvitationsByTeamAndEmail(tx, teamId, target.user.email);
    });
  }

  // ---- invitations ----

  async listTeamInvitations(actor: Actor, teamId: string): Promise<InvitationDto[]> {
    await requireTeamRight(this.db, teamId, actor.id, canManageMembers, 'team_manage_denied');
    return (await repo.listLiveByTeamId(this.db, teamId, this.invitationTtlDays)).map(toInvitationDto);
  }

  /**
   * Refused when the email belongs to a member or a live invitation exists; a dead one (expired, or
   * from someone who may no longer invite) gives way in the same transaction. The partial unique
   * index `team_invitations_one_pending_key` settles races: of two identical invitations sent at
   * once, exactly one is stored.
   */
  async invite(actor: Actor, teamId: string, input: { email: string; role: InvitationRole }): Promise<InvitationDto> {
    await requireTeamRight(this.db, teamId, actor.id, canManageMembers, 'team_manage_denied');
    await this.rateLimiter.take('invite', teamId);
    const email = input.email.trim().toLowerCase();
    const team = await repo.getOneById(this.db, teamId);
    if (!team) throw notFound();
    if (await repo.isMemberEmail(this.db, teamId, email)) throw new AppError('already_member');
    if (await repo.getLiveInvitation(this.db, teamId, email, this.invitationTtlDays)) throw new AppError('invitation_exists');
    let row: repo.InvitationRow;
    try {
      row = await this.change(actor, async (tx, record) => {
        await repo.deleteDeadInvitations(tx, teamId, email, this.invitationTtlDays);
        const created = await repo.createInvitation(tx, {
          teamId,
          teamName: team.name,
          email,
          role: input.role,
          invitedBy: actor.id,
          inviterName: actor.fullName,
          inviterEmail: actor.email,
        });
        await record({ kind: 'invitation.sent', teamId, invitationId: created.id, email, role: input.role });
        return created;
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError('invitation_exists');
      throw error;
    }
    return toInvitationDto(row);
  }

  async myInvitations(
    actor: Actor & Pick<UserRow, 'emailVerified'>,
    link: { invitation?: string; proof?: string } = {},
  ): Promise<MyInvitationsDto> {
    const [received, sent] = await Promise.all([
      repo.listLiveByEmail(this.db, actor.email, this.invitationTtlDays),
      repo.listLiveSentBy(this.db, actor.id, this.invitationTtlDays),
    ]);
    const proofOf = (id: string) => (id === link.invitation ? link.proof : undefined);
    const proven = received.filter((inv) => this.isProvenAddress(actor, inv.id, proofOf(inv.id)));
    return { received: proven.map(toInvitationDto), sent: sent.map(toInvitationDto) };
  }

  /** An invitation is visible to its invitee and to the members of its team; others get 404. */
  private async requireVisibleInvitation(actor: Actor, invitationId: string) {
    const invitation = await repo.getInvitationById(this.db, invitationId, this.invitationTtlDays);
    if (!invitation) throw new AppError('invitation_not_found');
    const isInvitee = invitation.email === actor.email.toLowerCase();
    const role = await repo.getMemberRole(this.db, invitation.teamId, actor.id);
    if (!isInvitee && !role) throw new AppError('invitation_not_found');
    return { invitation, isInvitee, role };
  }

  /** Owner and admins of the team cancel a pending invitation, which deletes it. */
  async cancelInvitation(actor: Actor, invitationId: string): Promise<void> {
    const { invitation, role } = await this.requireVisibleInvitation(actor, invitationId);
    if (!canManageMembers(role)) throw new AppError('team_manage_denied');
    if (invitation.status !== 'pending') throw new AppError('invitation_answered');
    await this.change(actor, async (tx, record) => {
      if (!(await repo.deletePendingInvitation(tx, invitationId))) throw new AppError('invitation_answered');
      const { teamId, email, role } = invitation;
      await record({ kind: 'invitation.cancelled', teamId, invitationId, email, role });
    });
  }

  /**
   * With EMAIL_VERIFICATION=required, accepting (and declining, and reading it) needs the invited address proven: verified on the account, or this
   * invitation's own emailed link followed (its proof), else whoever registered the address first could join (as
   * admin, if that was the role). With `off`, addresses are unproven by choice and accepting asks for neither.
   */
  private requireProvenAddress(actor: Pick<UserRow, 'emailVerified'>, invitationId: string, proof: string | undefined) {
    if (!this.isProvenAddress(actor, invitationId, proof)) throw new AppError('email_unverified');
  }

  /** The rule of requireProvenAddress, for listing (issue 35, item 2: an unproven address reads no invitation either). */
  private isProvenAddress(actor: Pick<UserRow, 'emailVerified'>, invitationId: string, proof: string | undefined): boolean {
    if (this.links.emailVerification !== 'required' || actor.emailVerified) return true;
    return Boolean(proof && verifyInvitationProof(this.links.authSecret, invitationId, proof));
  }

  /**
   * Only the invitee answers, and only a live invitation (db/invitations.ts). Accepting marks the
   * invitation and creates the active membership with the invited role in one transaction; an
   * answered invitation cannot be answered again.
   */
  async respond(
    actor: Actor & Pick<UserRow, 'emailVerified'>,
    invitationId: string,
    accept: boolean,
    proof?: string,
  ): Promise<InvitationDto> {
    const { invitation, isInvitee } = await this.requireVisibleInvitation(actor, invitationId);
    if (!isInvitee) throw new AppError('invitation_not_for_you');
    if (invitation.status !== 'pending') throw new AppError('invitation_answered');
    if (!invitation.isLive) throw new AppError('invitation_expired');
    // Declining too (issue 35, item 2): else whoever registered the address first could kill the invitation.
    this.requireProvenAddress(actor, invitationId, proof);
    const answered = await this.change(actor, async (tx, record) => {
      // Checked again as it is written: answered, cancelled or dead since the read, it is refused.
      const answered = await repo.answerInvitation(tx, invitationId, accept ? 'accepted' : 'declined', this.invitationTtlDays);
      if (!answered) throw new AppError('invitation_answered');
      const { teamId, email } = answered;
      if (!accept) {
        await record({ kind: 'invitation.declined', teamId, invitationId, email });
        return answered;
      }
      const member = await repo.addMember(tx, { teamId, userId: actor.id, role: answered.role });
      // Already a member (the unique key): the invitation is answered and nothing else changed.
      if (!member) return answered;
      await record({
        kind: 'member.joined',
        teamId,
        member: { memberId: member.id, userId: actor.id, email: actor.email },
        invitation: { id: invitationId, email, role: answered.role, invitedBy: answered.invitedBy },
      });
      return answered;
    });
    return toInvitationDto(answered);
  }
}
