import { format } from 'date-fns';
import { Check, Mail, Send, X } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { TEAM_ROLE_LABELS } from '../../../../domain/constants';
import { MSG } from '../../../../domain/messages';
import type { InvitationDto } from '../../../../domain/schemas/team';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { cn } from '../../../lib/cn';
import { toastError } from '../../../lib/errors';
import { useMyInvitations, useRespondToInvitation } from '../api/my-invitations';
import { useCancelInvitationFlow } from './cancel-invitation-flow';
import { RoleBadge } from './role-badge';

const day = (iso: string) => format(new Date(iso), 'MMM dd, yyyy');

const RESPONSES = [
  { accept: true, label: 'Accept', variant: 'primary', icon: Check },
  { accept: false, label: 'Decline', variant: 'secondary', icon: X },
] as const;

interface SectionProps {
  title: string;
  icon: ReactNode;
  className?: string;
  listClassName: string;
  children: ReactNode;
}

function Section({ title, icon, className, listClassName, children }: SectionProps) {
  return (
    <Card className={cn('p-4', className)}>
      <h2 className="mb-3 flex items-center gap-2 text-base font-semibold">
        {icon}
        {title}
      </h2>
      <ul className={listClassName}>{children}</ul>
    </Card>
  );
}

/** Pending invitations for the signed-in user, shown at the top of the dashboard. */
export function InvitationPanel() {
  // Opened from the invitation's mail (/dashboard?invitation=…&proof=…): its proof shows it and goes with the answer.
  const [params] = useSearchParams();
  const { data } = useMyInvitations({
    invitation: params.get('invitation') ?? undefined,
    proof: params.get('proof') ?? undefined,
  });
  const respond = useRespondToInvitation();
  const { ask, dialog } = useCancelInvitationFlow();
  const [busyId, setBusyId] = useState<string | null>(null);
  const proofFor = (id: string) => (params.get('invitation') === id ? (params.get('proof') ?? undefined) : undefined);

  const received = data?.received ?? [];
  const sent = data?.sent ?? [];
  if (received.length === 0 && sent.length === 0) return null;

  const onRespond = async (inv: InvitationDto, accept: boolean) => {
    setBusyId(inv.id);
    try {
      await respond.mutateAsync({ id: inv.id, accept, proof: proofFor(inv.id) });
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
        <Section
          title={`Team Invitations (${received.length})`}
          icon={<Mail className="h-5 w-5 text-brand-600 dark:text-indigo-300" aria-hidden />}
          className="border-brand-600/40 dark:border-indigo-800"
          listClassName="space-y-3"
        >
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
                {RESPONSES.map(({ accept, label, variant, icon: Icon }) => (
                  <Button
                    key={label}
                    size="sm"
                    variant={variant}
                    aria-label={`${label} invitation to ${inv.teamName}`}
                    isLoading={busyId === inv.id && respond.variables?.accept === accept}
                    disabled={busyId === inv.id}
                    onClick={() => void onRespond(inv, accept)}
                  >
                    <Icon className="h-4 w-4" aria-hidden />
                    {label}
                  </Button>
                ))}
              </div>
            </li>
          ))}
        </Section>
      )}
      {sent.length > 0 && (
        <Section
          title={`Sent Invitations (${sent.length})`}
          icon={<Send className="h-5 w-5 text-slate-500 dark:text-slate-400" aria-hidden />}
          listClassName="divide-y divide-slate-200 dark:divide-slate-700"
        >
          {sent.map((inv) => (
            <li key={inv.id} className="flex flex-wrap items-center gap-3 py-2">
              <div className="min-w-0 flex-1">
                <p className="truncate text-sm font-medium">{inv.email}</p>
                <p className="text-xs text-slate-600 dark:text-slate-400">
                  {inv.teamName} · {TEAM_ROLE_LABELS[inv.role]} · {day(inv.invitedAt)}
                </p>
              </div>
              <Button size="sm" variant="secondary" aria-label={`Cancel invitation for ${inv.email}`} onClick={() => ask(inv)}>
                Cancel
              </Button>
            </li>
          ))}
        </Section>
      )}
      {dialog}
    </div>
  );
}
