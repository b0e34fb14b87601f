import { format } from 'date-fns';
import { Mail, X } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { useTeamInvitations } from '../api/team-invitations';
import { useCancelInvitationFlow } from './cancel-invitation-flow';
import { RoleBadge } from './role-badge';

/** Pending invitations of a team, each with a cancel button (owner and admins). */
export function PendingInvitations({ teamId }: { teamId: string }) {
  const { data: invitations = [] } = useTeamInvitations(teamId, true);
  const { ask, dialog } = useCancelInvitationFlow();

  if (invitations.length === 0) return null;
  return (
    <section aria-labelledby="pending-heading">
      <h3 id="pending-heading" className="mb-2 text-sm font-semibold text-slate-900 dark:text-slate-100">
        Pending Invitations ({invitations.length})
      </h3>
      <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200 dark:divide-slate-700 dark:border-slate-700">
        {invitations.map((inv) => (
          <li key={inv.id} className="flex flex-wrap items-center gap-3 p-3">
            <Mail className="h-4 w-4 shrink-0 text-slate-500 dark:text-slate-400" aria-hidden />
            <div className="min-w-0 flex-1">
              <p className="truncate text-sm font-medium">{inv.email}</p>
              <p className="text-xs text-slate-600 dark:text-slate-400">
                Invited {format(new Date(inv.invitedAt), 'MMM dd, yyyy')} by {inv.inviterName}
              </p>
            </div>
            <RoleBadge role={inv.role} />
            <Button
              variant="ghost"
              size="icon"
              aria-label={`Cancel invitation for ${inv.email}`}
              title={`Cancel invitation for ${inv.email}`}
              onClick={() => ask(inv)}
            >
              <X className="h-4 w-4" aria-hidden />
            </Button>
          </li>
        ))}
      </ul>
      {dialog}
    </section>
  );
}
