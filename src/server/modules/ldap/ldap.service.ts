import { anonymousActor, userActor } from '../../../domain/changes';
import { type InvitationRole, LIMITS } from '../../../domain/constants';
import type { ErrorReason } from '../../../domain/errors';
import type { Db, Tx } from '../../db/client';
import type { UserRow } from '../../db/schema';
import type { ChangeRecorder, RecordChange } from '../../lib/changes';
import { isUniqueViolation } from '../../lib/errors';
import { type AuthService, type DirectorySignIn, DirectoryUnreachable, type PasswordDirectory } from '../auth';
import * as identities from '../oidc';
import * as teams from '../teams';
import * as usersRepo from '../users';
import type { LdapConfig, LdapGroupMapping } from './ldap.config';
import { type DirectoryUser, DirectoryUnavailable, LdapDirectory } from './ldap.directory';

/** A mapped role's weight: a person in two groups of one team gets the higher role. */
const ROLE_RANK: Record<InvitationRole, number> = { guest: 0, viewer: 1, member: 2, admin: 3 };

/** The memberships the group map gives a person: team → the role and the group that gives it. */
export function mappedMemberships(
  map: readonly LdapGroupMapping[],
  groups: readonly string[],
): Map<string, { role: InvitationRole; group: string }> {
  const wanted = new Map<string, { role: InvitationRole; group: string }>();
  for (const { groupDn, teamId, role } of map) {
    if (!groups.includes(groupDn)) continue;
    const held = wanted.get(teamId);
    if (!held || ROLE_RANK[role] > ROLE_RANK[held.role]) wanted.set(teamId, { role, group: groupDn });
  }
  return wanted;
}

/** A refusal decided inside the account's transaction (nothing it did is kept). */
class Refused extends Error {
  constructor(readonly reason: ErrorReason) {
    super(reason);
  }
}

/**
 * Directory sign-in (issue 41, decision 0031): the directory checks the password (LdapDirectory); the account is the
 * one linked to the entry's DN (oauth_identities, issuer `ldap:<LDAP_URL>`), else the account with the same verified
 * address (linked now), else a new account (its address verified: the directory vouches for it). Then LDAP_GROUP_MAP
 * is reconciled: each team the map names gets the person's membership as the directory's groups say (added, role
 * changed, removed; a team's owner is left alone), each change through the change path (audit rows).
 */
export class LdapService implements PasswordDirectory {
  private readonly directory: LdapDirectory;
  readonly issuer: string;

  constructor(
    private readonly db: Db,
    private readonly changes: ChangeRecorder,
    private readonly auth: Pick<AuthService, 'afterUserCreated'>,
    private readonly config: LdapConfig,
    private readonly log: (message: string) => void = () => {},
  ) {
    this.directory = new LdapDirectory(config);
    this.issuer = `ldap:${config.url}`;
  }

  async signIn(identifier: string, password: string, ip: string | null): Promise<DirectorySignIn> {
    let answer: Awaited<ReturnType<LdapDirectory['authenticate']>>;
    try {
      answer = await this.directory.authenticate(identifier, password);
    } catch (error) {
      if (!(error instanceof DirectoryUnavailable)) throw error;
      this.log(error.message);
      throw new DirectoryUnreachable(error);
    }
    if (answer.kind === 'rejected') return null;
    if (answer.kind === 'disabled') {
      const linked = await identities.getUserByIdentity(this.db, this.issuer, answer.dn);
      return { refused: 'directory_account_disabled', userId: linked?.id ?? null };
    }
    let user: UserRow;
    try {
      user = await this.accountFor(answer.user, ip);
    } catch (error) {
      if (error instanceof Refused) return { refused: error.reason, userId: null };
      throw error;
    }
    if (this.config.groupMap.length > 0 && user.isActive) await this.reconcileGroups(user, answer.user.groups, ip);
    return { user };
  }

  /** The linked account, else the one with the same verified address (linked now), else a new one. */
  private async accountFor(entry: DirectoryUser, ip: string | null): Promise<UserRow> {
    const linked = await identities.getUserByIdentity(this.db, this.issuer, entry.dn);
    if (linked) return linked;
    const email = entry.email;
    if (!email || !email.includes('@') || email.length > LIMITS.emailMax) throw new Refused('directory_no_email');
    const attempt = () =>
      this.changes.run(this.db, anonymousActor(email, ip), async (tx, record) => {
        const existing = await usersRepo.getOneByEmail(tx, email);
        if (existing) {
          // Whoever registered the address first without proving it must not be handed the directory's person.
          if (!existing.emailVerified) throw new Refused('directory_link_unverified');
          await identities.createIdentity(tx, { issuer: this.issuer, subject: entry.dn, userId: existing.id, email });
          return existing;
        }
        const fullName = (entry.name ?? email.split('@')[0] ?? 'User').slice(0, LIMITS.fullNameMax);
        const created = await usersRepo.createOne(tx, { email, fullName, emailVerified: true });
        await identities.createIdentity(tx, { issuer: this.issuer, subject: entry.dn, userId: created.id, email });
        await this.auth.afterUserCreated(tx, record, created, 'ldap', ip);
        return created;
      });
    try {
      return await attempt();
    } catch (error) {
      // Two first sign-ins racing: the loser finds what the winner created.
      if (isUniqueViolation(error)) {
        const again = await identities.getUserByIdentity(this.db, this.issuer, entry.dn);
        return again ?? attempt();
      }
      throw error;
    }
  }

  /**
   * Makes the person's memberships in the teams LDAP_GROUP_MAP names what their groups say, in one transaction by
   * the person signing in. Teams the map does not name are not touched; nor is a team's owner; a mapped team that
   * does not exist (deleted since) is skipped.
   */
  async reconcileGroups(user: UserRow, groups: readonly string[], ip: string | null): Promise<void> {
    const wanted = mappedMemberships(this.config.groupMap, groups);
    const governed = [...new Set(this.config.groupMap.map((m) => m.teamId))];
    await this.changes.run(this.db, userActor(user.id, user.email, ip), async (tx, record) => {
      for (const teamId of governed) await this.reconcileTeam(tx, record, user, teamId, wanted.get(teamId));
    });
  }

  private async reconcileTeam(
    tx: Tx,
    record: RecordChange,
    user: UserRow,
    teamId: string,
    want: { role: InvitationRole; group: string } | undefined,
  ): Promise<void> {
    if (!(await teams.getOneById(tx, teamId))) return;
    const current = await teams.getMemberByUserId(tx, teamId, user.id);
    if (current?.role === 'owner') return;
    if (want && !current) {
      const row = await teams.addMember(tx, { teamId, userId: user.id, role: want.role });
      if (!row) return;
      const member = { memberId: row.id, userId: user.id, email: user.email };
      await record({ kind: 'ldap.member_added', teamId, member, role: want.role, group: want.group });
      return;
    }
    if (!current) return;
    const member = { memberId: current.id, userId: user.id, email: user.email };
    if (want && current.role !== want.role) {
      if (await teams.updateMemberRole(tx, teamId, current.id, want.role)) {
        await record({ kind: 'member.role_changed', teamId, member, from: current.role, to: want.role });
      }
    } else if (!want) {
      // Recorded while the row is there: the webhook carries the member as they were.
      await record({ kind: 'member.removed', teamId, member, role: current.role, left: false });
      await teams.deleteMember(tx, teamId, current.id);
      await teams.deleteInvitationsByTeamAndEmail(tx, teamId, user.email);
    }
  }
}
