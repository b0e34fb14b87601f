import { Crown, UserMinus } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import type { InvitationRole } from '../../../../domain/constants';
import { MSG } from '../../../../domain/messages';
import { canActOnMember, canTransferOwnershipTo } from '../../../../domain/permissions';
import { TEAM_TRANSFER_MSG, type TeamDto, type TeamMemberDto } from '../../../../domain/schemas/team';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { OptionsSelect } from '../../../components/ui/options-select';
import { toastError } from '../../../lib/errors';
import { useAuthStore } from '../../../stores/auth-store';
import { useChangeMemberRole, useRemoveMember } from '../api/team-members';
import { useTransferOwnership } from '../api/transfer-ownership';
import { MemberAvatar } from './member-avatar';
import { INVITATION_ROLE_OPTIONS, RoleBadge } from './role-badge';

/**
 * The member list. Owner and admins may switch roles and remove others; the owner may also hand the team to another
 * member; everyone else sees badges.
 */
export function TeamMembers({ team }: { team: TeamDto }) {
  const userId = useAuthStore((s) => s.user?.id) ?? '';
  const changeRole = useChangeMemberRole();
  const removeMember = useRemoveMember();
  const [removing, setRemoving] = useState<TeamMemberDto | null>(null);
  const transfer = useTransferOwnership();
  const [transferring, setTransferring] = useState<TeamMemberDto | null>(null);

  const onRoleChange = async (member: TeamMemberDto, role: InvitationRole) => {
    try {
      await changeRole.mutateAsync({ teamId: team.id, memberId: member.id, role });
      toast.success(MSG.memberRoleUpdated);
    } catch (error) {
      toastError(error, MSG.memberRoleFailed);
    }
  };

  const onRemove = async () => {
    if (!removing) return;
    try {
      await removeMember.mutateAsync({ teamId: team.id, memberId: removing.id });
      toast.success(MSG.memberRemoved);
    } catch (error) {
      toastError(error, MSG.memberRemoveFailed);
    } finally {
      setRemoving(null);
    }
  };

  const onTransfer = async () => {
    if (!transferring) return;
    try {
      await transfer.mutateAsync({ teamId: team.id, memberId: transferring.id });
      toast.success(TEAM_TRANSFER_MSG.done(transferring.user.fullName));
    } catch (error) {
      toastError(error, TEAM_TRANSFER_MSG.failed);
    } finally {
      setTransferring(null);
    }
  };

  return (
    <section aria-labelledby="team-members-heading">
      <h3 id="team-members-heading" className="mb-2 text-sm font-semibold text-slate-900 dark:text-slate-100">
        Members ({team.members.length})
      </h3>
      <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200 dark:divide-slate-700 dark:border-slate-700">
        {team.members.map((member) => {
          const manageable = canActOnMember(team.myRole, userId, member);
          return (
            <li key={member.id} className="flex flex-wrap items-center gap-3 p-3">
              <MemberAvatar user={member.user} />
              <div className="min-w-0 flex-1 basis-40">
                <p className="truncate text-sm font-medium">
                  {member.user.fullName}
                  {member.userId === userId && <span className="ml-1 text-slate-500 dark:text-slate-400">(you)</span>}
                </p>
                <p className="truncate text-xs text-slate-600 dark:text-slate-400">{member.user.email}</p>
              </div>
              {manageable ? (
                <div className="flex basis-full items-center justify-end gap-2 sm:basis-auto">
                  <OptionsSelect
                    label={`Role for ${member.user.fullName}`}
                    srOnlyLabel
                    value={member.role}
                    disabled={changeRole.isPending}
                    onChange={(e) => void onRoleChange(member, e.target.value as InvitationRole)}
                    className="w-28"
                    options={INVITATION_ROLE_OPTIONS}
                  />
                  {canTransferOwnershipTo(team.myRole, userId, member) && (
                    <Button
                      variant="ghost"
                      size="icon"
                      aria-label={`${TEAM_TRANSFER_MSG.action} to ${member.user.fullName}`}
                      title={`${TEAM_TRANSFER_MSG.action} to ${member.user.fullName}`}
                      onClick={() => setTransferring(member)}
                    >
                      <Crown className="h-4 w-4 text-amber-700 dark:text-amber-400" aria-hidden />
                    </Button>
                  )}
                  <Button
                    variant="ghost"
                    size="icon"
                    aria-label={`Remove ${member.user.fullName}`}
                    title={`Remove ${member.user.fullName}`}
                    onClick={() => setRemoving(member)}
                  >
                    <UserMinus className="h-4 w-4 text-red-700 dark:text-red-400" aria-hidden />
                  </Button>
                </div>
              ) : (
                <RoleBadge role={member.role} />
              )}
            </li>
          );
        })}
      </ul>
      <ConfirmDialog
        open={removing !== null}
        title="Remove Member"
        message={removing ? MSG.confirmRemoveMember(removing.user.fullName) : ''}
        confirmLabel="Remove"
        isLoading={removeMember.isPending}
        onConfirm={() => void onRemove()}
        onCancel={() => setRemoving(null)}
      />
      <ConfirmDialog
        open={transferring !== null}
        title={TEAM_TRANSFER_MSG.title}
        message={transferring ? TEAM_TRANSFER_MSG.confirm(transferring.user.fullName, team.name) : ''}
        confirmLabel={TEAM_TRANSFER_MSG.confirmLabel}
        isLoading={transfer.isPending}
        onConfirm={() => void onTransfer()}
        onCancel={() => setTransferring(null)}
      />
    </section>
  );
}
