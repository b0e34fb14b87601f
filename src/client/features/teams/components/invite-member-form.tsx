import { Send } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { toast } from 'sonner';
import { INVITATION_ROLES, type InvitationRole, TEAM_ROLE_LABELS } from '../../../../domain/constants';
import { MSG } from '../../../../domain/messages';
import { inviteInput } from '../../../../domain/schemas/team';
import { Button } from '../../../components/ui/button';
import { SelectField, TextField } from '../../../components/ui/field';
import { errorMessage } from '../../../lib/error-messages';
import { useInviteMember } from '../api/team-invitations';

/** Owner and admins invite by email as Member or Admin. */
export function InviteMemberForm({ teamId }: { teamId: string }) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<InvitationRole>('member');
  const [error, setError] = useState<string>();
  const invite = useInviteMember();

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    e.stopPropagation();
    const parsed = inviteInput.safeParse({ email, role });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    try {
      await invite.mutateAsync({ teamId, input: parsed.data });
      toast.success(MSG.inviteSent);
      setEmail('');
      setRole('member');
    } catch (err) {
      toast.error(errorMessage(err, MSG.inviteFailed));
    }
  };

  return (
    <section aria-labelledby="invite-heading">
      <h3 id="invite-heading" className="mb-2 text-sm font-semibold text-slate-900 dark:text-slate-100">
        Invite Member
      </h3>
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-3 sm:flex-row sm:items-start">
        <TextField
          label="Email address"
          srOnlyLabel
          type="email"
          placeholder="Enter email address"
          value={email}
          onChange={(e) => {
            setEmail(e.target.value);
            setError(undefined);
          }}
          error={error}
          className="flex-1"
        />
        <SelectField
          label="Invitation role"
          srOnlyLabel
          value={role}
          onChange={(e) => setRole(e.target.value as InvitationRole)}
          className="sm:w-32"
        >
          {INVITATION_ROLES.map((r) => (
            <option key={r} value={r}>
              {TEAM_ROLE_LABELS[r]}
            </option>
          ))}
        </SelectField>
        <Button type="submit" disabled={!email.trim()} isLoading={invite.isPending} className="justify-center">
          <Send className="h-4 w-4" aria-hidden />
          Send Invitation
        </Button>
      </form>
    </section>
  );
}
