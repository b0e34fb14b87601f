import { Send } from 'lucide-react';
import type { FormEvent } from 'react';
import type { InvitationRole } from '../../../../domain/constants';
import { MSG } from '../../../../domain/messages';
import { inviteInput } from '../../../../domain/schemas/team';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/field';
import { OptionsSelect } from '../../../components/ui/options-select';
import { saveForm } from '../../../lib/save-form';
import { useFormState } from '../../../lib/use-form-state';
import { useInviteMember } from '../api/team-invitations';
import { INVITATION_ROLE_OPTIONS } from './role-badge';

const EMPTY: { email: string; role: InvitationRole } = { email: '', role: 'member' };
/** Owner and admins invite by email as Member, Admin, Viewer or Guest (issue 41). */
export function InviteMemberForm({ teamId }: { teamId: string }) {
  const form = useFormState(EMPTY);
  const invite = useInviteMember();

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    e.stopPropagation();
    const body = form.validate(inviteInput);
    if (!body) return;
    const sent = await saveForm(form, () => invite.mutateAsync({ teamId, input: body }), {
      saved: MSG.inviteSent,
      failed: MSG.inviteFailed,
    });
    if (sent) form.reset();
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
          {...form.bind('email')}
          className="flex-1"
        />
        <OptionsSelect
          label="Invitation role"
          srOnlyLabel
          {...form.bind('role')}
          className="sm:w-32"
          options={INVITATION_ROLE_OPTIONS}
        />
        <Button type="submit" disabled={!form.values.email.trim()} isLoading={invite.isPending} className="justify-center">
          <Send className="h-4 w-4" aria-hidden />
          Send Invitation
        </Button>
      </form>
    </section>
  );
}
