import { format } from 'date-fns';
import { Check, Mail, Send, X } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { TEAM_ROLE_LABELS } from '../../../../domain/constants';
import { MSG } from '../../../../domain/messages';
import type { InvitationDto } from '../../../../domain/schemas/team';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { toastError } from '../../../lib/errors';
import { useMyInvitations, useRespondToInvitation } from '../api/my-invitations';
import { useCancelInvitationFlow } from './cancel-invitation-flow';
import { RoleBadge } from './role-badge';

const day = (iso: string) => format(new Date(iso), 'MMM dd, yyyy');

/** Pending invitations for the signed-in user, shown at the top of the dashboard. */
export function InvitationPanel() {
  const { data } = useMyInvitations();
  const respond = useRespondToInvitation();
  const { ask, dialog } = useCancelInvitationFlow();
  const [busyId, setBusyId] = useState<string | null>(null);

  const received = data?.received ?? [];
  const sent = data?.sent ?? [];
  if (received.length === 0 && sent.length === 0) return null;

  const onRespond = async (inv: InvitationDto, accept: boolean) => {
    setBusyId(inv.id);
    try {
      await respond.mutateAsync({ id: inv.id, accept });
      toast.success(accept ? MSG.invitationAccepted : MSG.invitationDeclined);
    } catch (error) {
      toastError(error, MSG.respondFailed);
    } finally {
      setBusyId(null);
    }
  };

  return (
    <div className="mb-6 space-y-4">
      {received.length > 0 && (
        <Card className="border-brand-600/40 p-4 dark:border-indigo-800">
          <h2 className="mb-3 flex items-center gap-2 text-base font-semibold">
            <Mail className="h-5 w-5 text-brand-600 dark:text-indigo-300" aria-hidden />
            Team Invitations ({received.length})
          </h2>
          <ul className="space-y-3">
            {received.map((inv) => (
              <li
                key={inv.id}
                className="flex flex-col gap-3 rounded-lg bg-slate-50 p-3 sm:flex-row sm:items-center dark:bg-slate-800/60"
              >
                <div className="min-w-0 flex-1">
                  <p className="text-sm">
                    <span className="font-medium">{inv.inviterName}</span> invited you to join{' '}
                    <span className="font-semibold">{inv.teamName}</span> as <RoleBadge role={inv.role} />
                  </p>
                  <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">
                    {inv.inviterEmail} · {day(inv.invitedAt)}
                  </p>
                </div>
                <div className="flex gap-2">
                  <Button
                    size="sm"
                    aria-label={`Accept invitation to ${inv.teamName}`}
                    isLoading={busyId === inv.id && respond.variables?.accept === true}
                    disabled={busyId === inv.id}
                    onClick={() => void onRespond(inv, true)}
                  >
                    <Check className="h-4 w-4" aria-hidden />
                    Accept
                  </Button>
                  <Button
                    size="sm"
                    variant="secondary"
                    aria-label={`Decline invitation to ${inv.teamName}`}
                    isLoading={busyId === inv.id && respond.variables?.accept === false}
                    disabled={busyId === inv.id}
                    onClick={() => void onRespond(inv, false)}
                  >
                    <X className="h-4 w-4" aria-hidden />
                    Decline
                  </Button>
                </div>
              </li>
            ))}
          </ul>
        </Card>
      )}
      {sent.length > 0 && (
        <Card className="p-4">
          <h2 className="mb-3 flex items-center gap-2 text-base font-semibold">
            <Send className="h-5 w-5 text-slate-500 dark:text-slate-400" aria-hidden />
            Sent Invitations ({sent.length})
          </h2>
          <ul className="divide-y divide-slate-200 dark:divide-slate-700">
            {sent.map((inv) => (
              <li key={inv.id} className="flex flex-wrap items-center gap-3 py-2">
                <div className="min-w-0 flex-1">
                  <p className="truncate text-sm font-medium">{inv.email}</p>
                  <p className="text-xs text-slate-600 dark:text-slate-400">
                    {inv.teamName} · {TEAM_ROLE_LABELS[inv.role]} · {day(inv.invitedAt)}
                  </p>
                </div>
                <Button
                  size="sm"
                  variant="secondary"
                  aria-label={`Cancel invitation for ${inv.email}`}
                  onClick={() => ask(inv)}
                >
                  Cancel
                </Button>
              </li>
            ))}
          </ul>
        </Card>
      )}
      {dialog}
    </div>
  );
}
