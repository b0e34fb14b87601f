import { useQuery } from '@tanstack/react-query';
import { UserMinus, UserPlus } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { toast } from 'sonner';
import type { ProjectDto } from '../../../../domain/schemas/project';
import { Avatar } from '../../../components/ui/avatar';
import { Button } from '../../../components/ui/button';
import { OptionsSelect } from '../../../components/ui/options-select';
import { PageSection } from '../../../components/ui/page-section';
import { Spinner } from '../../../components/ui/spinner';
import { LoadError } from '../../../components/ui/load-error';
import { toastError } from '../../../lib/errors';
import { teamQueryOptions } from '../../../lib/queries/teams';
import { useAddProjectGuest, useProjectGuests, useRemoveProjectGuest } from '../api/project-guests';

/** The section's texts (issue 41: 'Add guest'); the e2e reads them too. */
export const PROJECT_GUESTS_TEXT = {
  title: 'Guests',
  description:
    'Guests see only the projects they are added to, and change only the tasks assigned to them. Invite someone to the team as a Guest, then add them here.',
  choose: 'Guest to add',
  chooseEmpty: 'Choose a guest',
  add: 'Add guest',
  none: 'No guests have been added to this project.',
  noneLeft: "Every guest of this project's team is already added. Invite people to the team with the Guest role to add more.",
  loadFailed: "Could not load the project's guests",
  added: (name: string) => `${name} was added as a guest`,
  addFailed: 'Could not add the guest',
  removed: (name: string) => `${name} was removed from this project`,
  removeFailed: 'Could not remove the guest',
} as const;
const T = PROJECT_GUESTS_TEXT;

/**
 * Project settings → Guests (issue 41), for the team's owner and admins (canManageGuests; the server checks again): the
 * project's guests, 'Add guest' choosing among the team's members with the Guest role not yet added, and remove.
 */
export function ProjectGuestsSection({ project }: { project: ProjectDto }) {
  const guests = useProjectGuests(project.id, true);
  const team = useQuery(teamQueryOptions(project.teamId));
  const add = useAddProjectGuest(project.id);
  const remove = useRemoveProjectGuest(project.id);
  const [chosen, setChosen] = useState('');

  const added = new Set(guests.data?.guests.map((g) => g.userId));
  const candidates = (team.data?.members ?? [])
    .filter((m) => m.role === 'guest' && !added.has(m.userId))
    .map((m) => ({ value: m.userId, label: `${m.user.fullName} (${m.user.email})`, name: m.user.fullName }));
  const selected = candidates.find((c) => c.value === chosen);

  const onAdd = (e: FormEvent) => {
    e.preventDefault();
    if (!selected) return;
    add.mutate(
      { userId: selected.value },
      {
        onSuccess: () => {
          toast.success(T.added(selected.name));
          setChosen('');
        },
        onError: (error) => toastError(error, T.addFailed),
      },
    );
  };
  const onRemove = (userId: string, name: string) =>
    remove.mutate(userId, {
      onSuccess: () => toast.success(T.removed(name)),
      onError: (error) => toastError(error, T.removeFailed),
    });

  return (
    <PageSection headingId="project-guests-heading" title={T.title} description={T.description}>
      {guests.isError ? (
        <LoadError text={T.loadFailed} onRetry={() => void guests.refetch()} isRetrying={guests.isFetching} />
      ) : guests.isPending ? (
        <Spinner label="Loading guests..." />
      ) : (
        <div className="max-w-2xl space-y-4">
          {candidates.length > 0 ? (
            <form onSubmit={onAdd} className="flex flex-col gap-3 sm:flex-row sm:items-end">
              <OptionsSelect
                label={T.choose}
                className="flex-1"
                emptyOption={T.chooseEmpty}
                options={candidates}
                value={chosen}
                onChange={(e) => setChosen(e.target.value)}
              />
              <Button type="submit" disabled={!selected} isLoading={add.isPending} className="justify-center">
                <UserPlus className="h-4 w-4" aria-hidden />
                {T.add}
              </Button>
            </form>
          ) : (
            team.data && <p className="text-sm text-slate-600 dark:text-slate-300">{T.noneLeft}</p>
          )}
          {guests.data.guests.length === 0 ? (
            <p className="text-sm text-slate-700 dark:text-slate-200">{T.none}</p>
          ) : (
            <ul
              aria-label={`Guests of ${project.name}`}
              className="divide-y divide-slate-200 rounded-lg border border-slate-200 dark:divide-slate-700 dark:border-slate-700"
            >
              {guests.data.guests.map((g) => (
                <li key={g.userId} className="flex items-center gap-3 p-3">
                  <Avatar name={g.user.fullName} src={g.user.avatar} label={null} />
                  <div className="min-w-0 flex-1">
                    <p className="truncate text-sm font-medium">{g.user.fullName}</p>
                    <p className="truncate text-xs text-slate-600 dark:text-slate-300">{g.user.email}</p>
                  </div>
                  <Button
                    variant="ghost"
                    size="icon"
                    aria-label={`Remove ${g.user.fullName}`}
                    title={`Remove ${g.user.fullName}`}
                    disabled={remove.isPending}
                    onClick={() => onRemove(g.userId, g.user.fullName)}
                  >
                    <UserMinus className="h-4 w-4 text-red-700 dark:text-red-400" aria-hidden />
                  </Button>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </PageSection>
  );
}
