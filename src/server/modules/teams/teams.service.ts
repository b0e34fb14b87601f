import type { InvitationRole } from '../../../domain/constants';
import type { ErrorReason } from '../../../domain/errors';
import { canActOnMember, canEditTeam, canLeaveTeam, canManageMembers, canTransferOwnership } from '../../../domain/permissions';
import type {
  CreateTeamInput,
  InvitationDto,
  MyInvitationsDto,
  TeamDto,
  TeamMemberDto,
  UpdateTeamInput,
} from '../../../domain/schemas/team';
import type { Config } from '../../config';
import type { Db, DbOrTx } from '../../db/client';
import type { UserRow } from '../../db/schema';
import { AppError, isUniqueViolation } from '../../lib/errors';
import type { DomainEvent, EventBus } from '../../lib/events';
import type { RateLimiter } from '../../lib/rate-limit';
import { type AuditEntry, recordAudit } from '../audit/audit.record';
import { enqueueMail } from '../mail/mail.repo';
import { wantsEmail } from '../notifications/preferences.repo';
import { memberWebhookEvent } from '../webhooks/webhooks.outbox';
import { getOneByEmail } from '../users/users.repo';
import { invitationMail, invitationUrl, verifyInvitationProof } from './invitation-mail';
import { requireTeamMember, requireTeamRight } from './membership';
import { toInvitationDto, toTeamDto, toTeamMemberDto } from './teams.mapper';
import * as repo from './teams.repo';

/** The signed-in caller, as the services need them; `ip`, where the request came from, for the audit log. */
export type Actor = Pick<UserRow, 'id' | 'email' | 'fullName'> & { ip?: string | null };

/** An audit row of this team's, done by `actor`. */
const teamAudit = (actor: Actor, teamId: string, entry: Omit<AuditEntry, 'actorId' | 'actorEmail' | 'ip' | 'teamId'>) => ({
  ...entry,
  actorId: actor.id,
  actorEmail: actor.email,
  ip: actor.ip ?? null,
  teamId,
});

const notFound = () => new AppError('team_not_found');

/**
 * Teams, members and invitations. Authorization comes from the caller's membership rows
 * (DESIGN.md "Authorization"): a team the caller cannot see is 404, a forbidden change is 403.
 * Events are published only after the change has committed.
 */
export class TeamsService {
  constructor(
    private readonly db: Db,
    private readonly events: EventBus,
    private readonly rateLimiter: RateLimiter,
    /** Days an invitation stays answerable (INVITATION_TTL_DAYS). */
    private readonly invitationTtlDays: number,
    /** What the invitation mail's link is built from: PUBLIC_URL, and the secret its proof is signed with. */
    private readonly links: Pick<Config, 'publicUrl' | 'authSecret' | 'emailVerification'>,
  ) {}

  private publish(...events: DomainEvent[]) {
    for (const event of events) this.events.publish(event);
  }

  // ---- teams ----

  async list(actor: Actor, q?: string): Promise<TeamDto[]> {
    const rows = await repo.listByMemberUserId(this.db, actor.id, q);
    const members = await repo.listMembersByTeamIds(
      this.db,
      rows.map((t) => t.id),
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
    const members = await repo.listMembersByTeamIds(this.db, [teamId]);
    return toTeamDto(team, members, viewerId);
  }

  /** The team and its owner membership, in one transaction. */
  async create(actor: Actor, input: CreateTeamInput): Promise<TeamDto> {
    const team = await this.db.transaction(async (tx) => {
      const created = await repo.createOne(tx, { name: input.name, description: input.description ?? null, ownerId: actor.id });
      await repo.addMember(tx, { teamId: created.id, userId: actor.id, role: 'owner' });
      return created;
    });
    this.publish({ type: 'team.created', teamId: team.id, actorId: actor.id });
    return this.load(team.id, actor.id);
  }

  async update(actor: Actor, teamId: string, input: UpdateTeamInput): Promise<TeamDto> {
    await requireTeamRight(this.db, teamId, actor.id, canEditTeam, 'team_edit_denied');
    await this.db.transaction(async (tx) => {
      const values = { name: input.name, description: input.description ?? null };
      const updated = await repo.updateOne(tx, teamId, values, input.version);
      if (!updated) {
        if (!(await repo.getOneById(tx, teamId))) throw notFound();
        throw new AppError('stale_edit');
      }
      await repo.renamePendingInvitations(tx, teamId, updated.name);
    });
    this.publish({ type: 'team.updated', teamId, actorId: actor.id });
    return this.load(teamId, actor.id);
  }

  async remove(actor: Actor, teamId: string): Promise<void> {
    await requireTeamRight(this.db, teamId, actor.id, canEditTeam, 'team_delete_denied');
    await this.db.transaction(async (tx) => {
      const team = await repo.getOneById(tx, teamId);
      if (!team || !(await repo.deleteOne(tx, teamId))) throw notFound();
      await recordAudit(
        tx,
        teamAudit(actor, teamId, { action: 'team.deleted', targetType: 'team', targetId: teamId, targetLabel: team.name }),
      );
    });
    this.publish({ type: 'team.deleted', teamId, actorId: actor.id });
  }

  /** A non-owner member leaves; their invitations to the team go too. */
  async leave(actor: Actor, teamId: string): Promise<void> {
    await requireTeamRight(this.db, teamId, actor.id, canLeaveTeam, 'owner_cannot_leave');
    const memberId = await this.db.transaction(async (tx) => {
      const mine = await repo.getMemberByUserId(tx, teamId, actor.id);
      // Made the owner since the check (a transfer of ownership): the owner stays.
      if (mine?.role === 'owner') throw new AppError('owner_cannot_leave');
      if (mine) await memberWebhookEvent(tx, { teamId, type: 'member.left', actorId: actor.id, memberId: mine.id });
      if (!mine || !(await repo.deleteMember(tx, teamId, mine.id))) throw notFound();
      await repo.deleteInvitationsByTeamAndEmail(tx, teamId, actor.email);
      await recordAudit(
        tx,
        teamAudit(actor, teamId, {
          action: 'team.member_removed',
          targetType: 'user',
          targetId: actor.id,
          targetLabel: actor.email,
          details: { memberId: mine.id, role: mine.role, left: true },
        }),
      );
      return mine.id;
    });
    this.publish({ type: 'team.member_removed', teamId, actorId: actor.id, userId: actor.id, memberId });
  }

  /**
   * The owner hands the team to another active member, who becomes its owner; the old owner stays as an admin. One
   * transaction behind the team row's lock, the caller's role read under it: of two transfers at once the second
   * finds its caller no longer the owner (403). The new owner's user row is locked too, against their account's
   * deletion meanwhile (which refuses an owner, and would otherwise leave the team without one).
   */
  async transferOwnership(actor: Actor, teamId: string, memberId: string): Promise<TeamDto> {
    const moved = await this.db.transaction(async (tx) => {
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
      // One action, one row: the new owner's change; the old owner's (to admin) is in its details.
      await recordAudit(
        tx,
        teamAudit(actor, teamId, {
          action: 'team.role_changed',
          targetType: 'user',
          targetId: target.user.id,
          targetLabel: target.user.email,
          details: {
            memberId: target.member.id,
            from: target.member.role,
            to: 'owner',
            ownershipTransfer: true,
            previousOwnerTo: 'admin',
          },
        }),
      );
      return { oldOwner: mine, newOwner: target.member };
    });
    const base = { teamId, actorId: actor.id };
    this.publish(
      { type: 'team.member_updated', ...base, userId: moved.newOwner.userId, memberId: moved.newOwner.id },
      { type: 'team.member_updated', ...base, userId: moved.oldOwner.userId, memberId: moved.oldOwner.id },
      { type: 'team.updated', ...base },
    );
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
    const updated = await this.db.transaction(async (tx) => {
      const row = await repo.updateMemberRole(tx, teamId, memberId, newRole);
      // A role set to what it was is no change: no audit row.
      if (row && target.member.role !== newRole) {
        await recordAudit(
          tx,
          teamAudit(actor, teamId, {
            action: 'team.role_changed',
            targetType: 'user',
            targetId: target.user.id,
            targetLabel: target.user.email,
            details: { memberId, from: target.member.role, to: newRole },
          }),
        );
      }
      return row;
    });
    if (!updated) throw new AppError('member_not_found');
    this.publish({ type: 'team.member_updated', teamId, actorId: actor.id, userId: updated.userId, memberId });
    return toTeamMemberDto({ member: updated, user: target.user });
  }

  /** Removes a member and that user's invitations to the team, in one transaction. */
  async removeMember(actor: Actor, teamId: string, memberId: string): Promise<void> {
    const target = await this.requireTargetMember(actor, teamId, memberId, 'cannot_remove_self');
    await this.db.transaction(async (tx) => {
      await memberWebhookEvent(tx, { teamId, type: 'member.left', actorId: actor.id, memberId });
      if (!(await repo.deleteMember(tx, teamId, memberId))) throw new AppError('member_not_found');
      await repo.deleteInvitationsByTeamAndEmail(tx, teamId, target.user.email);
      await recordAudit(
        tx,
        teamAudit(actor, teamId, {
          action: 'team.member_removed',
          targetType: 'user',
          targetId: target.user.id,
          targetLabel: target.user.email,
          details: { memberId, role: target.member.role, left: false },
        }),
      );
    });
    this.publish({ type: 'team.member_removed', teamId, actorId: actor.id, userId: target.user.id, memberId });
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
      row = await this.db.transaction(async (tx) => {
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
        await this.mailInvitation(tx, created);
        await recordAudit(
          tx,
          teamAudit(actor, teamId, {
            action: 'invitation.sent',
            targetType: 'invitation',
            targetId: created.id,
            targetLabel: email,
            details: { role: input.role },
          }),
        );
        return created;
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError('invitation_exists');
      throw error;
    }
    this.publish({ type: 'invitation.created', teamId, actorId: actor.id, invitationId: row.id, email });
    return toInvitationDto(row);
  }

  /** The invitation's mail, queued with it; not when the invitee has an account and turned invitation mail off. */
  private async mailInvitation(tx: DbOrTx, invitation: repo.InvitationRow): Promise<void> {
    const invitee = await getOneByEmail(tx, invitation.email);
    if (invitee && !(await wantsEmail(tx, invitee.id, 'team_invite'))) return;
    const url = invitationUrl(this.links.publicUrl, this.links.authSecret, invitation.id);
    await enqueueMail(tx, {
      kind: 'invitation',
      to: invitation.email,
      ...invitationMail(invitation, url, this.invitationTtlDays),
    });
  }

  async myInvitations(actor: Actor): Promise<MyInvitationsDto> {
    const [received, sent] = await Promise.all([
      repo.listLiveByEmail(this.db, actor.email, this.invitationTtlDays),
      repo.listLiveSentBy(this.db, actor.id, this.invitationTtlDays),
    ]);
    return { received: received.map(toInvitationDto), sent: sent.map(toInvitationDto) };
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
    await this.db.transaction(async (tx) => {
      if (!(await repo.deletePendingInvitation(tx, invitationId))) throw new AppError('invitation_answered');
      await recordAudit(
        tx,
        teamAudit(actor, invitation.teamId, {
          action: 'invitation.cancelled',
          targetType: 'invitation',
          targetId: invitationId,
          targetLabel: invitation.email,
          details: { role: invitation.role },
        }),
      );
    });
    this.publish({
      type: 'invitation.cancelled',
      teamId: invitation.teamId,
      actorId: actor.id,
      invitationId,
      email: invitation.email,
    });
  }

  /**
   * With EMAIL_VERIFICATION=required, accepting needs the invited address proven: verified on the account, or this
   * invitation's own emailed link followed (its proof), else whoever registered the address first could join (as
   * admin, if that was the role). With `off`, addresses are unproven by choice and accepting asks for neither.
   */
  private requireProvenAddress(actor: Pick<UserRow, 'emailVerified'>, invitationId: string, proof: string | undefined) {
    if (this.links.emailVerification !== 'required' || actor.emailVerified) return;
    if (proof && verifyInvitationProof(this.links.authSecret, invitationId, proof)) return;
    throw new AppError('email_unverified');
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
    if (accept) this.requireProvenAddress(actor, invitationId, proof);
    const result = await this.db.transaction(async (tx) => {
      // Checked again as it is written: answered, cancelled or dead since the read, it is refused.
      const answered = await repo.answerInvitation(tx, invitationId, accept ? 'accepted' : 'declined', this.invitationTtlDays);
      if (!answered) throw new AppError('invitation_answered');
      const member = accept
        ? await repo.addMember(tx, { teamId: answered.teamId, userId: actor.id, role: answered.role })
        : undefined;
      if (member) {
        await memberWebhookEvent(tx, { teamId: answered.teamId, type: 'member.joined', actorId: actor.id, memberId: member.id });
      }
      if (member) {
        // Two facts, one row each: the invitation was accepted, and the team gained a member (docs: audit).
        const audit = (entry: Omit<AuditEntry, 'actorId' | 'actorEmail' | 'ip' | 'teamId'>) =>
          recordAudit(tx, teamAudit(actor, answered.teamId, entry));
        const invited = { invitationId, role: answered.role, invitedBy: answered.invitedBy };
        await audit({
          action: 'invitation.accepted',
          targetType: 'invitation',
          targetId: invitationId,
          targetLabel: answered.email,
          details: invited,
        });
        await audit({
          action: 'team.member_added',
          targetType: 'user',
          targetId: actor.id,
          targetLabel: actor.email,
          details: { memberId: member.id, ...invited },
        });
      }
      return { answered, member };
    });
    const { answered, member } = result;
    const base = { teamId: answered.teamId, actorId: actor.id, invitationId, email: answered.email };
    if (accept) {
      this.publish({ type: 'invitation.accepted', ...base });
      if (member) {
        this.publish({
          type: 'team.member_added',
          teamId: answered.teamId,
          actorId: actor.id,
          userId: actor.id,
          memberId: member.id,
        });
      }
    } else {
      this.publish({ type: 'invitation.declined', ...base });
    }
    return toInvitationDto(answered);
  }
}
