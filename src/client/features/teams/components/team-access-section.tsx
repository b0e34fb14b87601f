import { useState } from 'react';
import type { TeamDto, UpdateTeamAccessInput } from '../../../../domain/schemas/team';
import { PageSection } from '../../../components/ui/page-section';
import { Switch } from '../../../components/ui/switch';
import { toastError } from '../../../lib/errors';
import { ERROR_MESSAGES } from '../../../../domain/errors';
import { useUpdateTeamAccess } from '../api/team-access';

/** The section's texts (issue 41); the e2e reads them too. */
export const TEAM_ACCESS_TEXT = {
  title: 'Access',
  description: 'What viewers may do, and how members must sign in to reach this team.',
  viewersMayComment: 'Viewers may comment',
  viewersMayCommentHelp: 'Viewers change nothing in this team; with this on they may still comment on its tasks.',
  requiresSso: 'Require single sign-on',
  requiresSsoHelp: 'Members who did not sign in with SSO see this team as locked.',
  /** The server refuses to require single sign-on where none is configured (nobody could open the team again). */
  ssoUnavailable: ERROR_MESSAGES.team_sso_unavailable,
  failed: "Could not change the team's access",
} as const;

/** The team's two access switches, in the order shown; `said` is what a screen reader hears once one is saved. */
const ACCESS_SWITCHES = [
  {
    key: 'viewersMayComment',
    label: TEAM_ACCESS_TEXT.viewersMayComment,
    help: TEAM_ACCESS_TEXT.viewersMayCommentHelp,
    said: (on: boolean) => (on ? 'Viewers may now comment' : 'Viewers may no longer comment'),
  },
  {
    key: 'requiresSso',
    label: TEAM_ACCESS_TEXT.requiresSso,
    help: TEAM_ACCESS_TEXT.requiresSsoHelp,
    said: (on: boolean) => (on ? 'This team now requires single sign-on' : 'This team no longer requires single sign-on'),
  },
] as const satisfies readonly { key: keyof UpdateTeamAccessInput; label: string; help: string; said: (on: boolean) => string }[];

/**
 * `ssoAvailable`: whether this server offers single sign-on (GET /api/auth/providers; undefined while unknown).
 * Team settings → Access (issue 41), for the team's owner and admins (canSetTeamAccess; the server checks again): whether
 * viewers may comment, and whether the team admits only members signed in by single sign-on. Each switch saves at once
 * (PATCH /api/teams/:id/access with that one field) and shows its new state until the team is read again.
 */
export function TeamAccessSection({ team, ssoAvailable }: { team: TeamDto; ssoAvailable: boolean | undefined }) {
  const save = useUpdateTeamAccess();
  const [chosen, setChosen] = useState<UpdateTeamAccessInput | null>(null);
  const [status, setStatus] = useState('');
  const change = (input: UpdateTeamAccessInput, said: string) => {
    setChosen(input);
    save.mutate(
      { teamId: team.id, input },
      {
        onSuccess: () => setStatus(said),
        onError: (error) => toastError(error, TEAM_ACCESS_TEXT.failed),
        onSettled: () => setChosen(null),
      },
    );
  };
  const current = {
    viewersMayComment: chosen?.viewersMayComment ?? team.viewersMayComment,
    requiresSso: chosen?.requiresSso ?? team.requiresSso,
  };
  return (
    <PageSection headingId="team-access-heading" title={TEAM_ACCESS_TEXT.title} description={TEAM_ACCESS_TEXT.description}>
      <div className="max-w-2xl space-y-4 rounded-lg border border-slate-200 p-4 dark:border-slate-700">
        {ACCESS_SWITCHES.map(({ key, label, help, said }) => {
          // Turning SSO on takes a server where it is configured; turning it off is always possible.
          const unavailable = key === 'requiresSso' && !current.requiresSso && ssoAvailable === false;
          return (
            <Switch
              key={key}
              label={label}
              description={unavailable ? TEAM_ACCESS_TEXT.ssoUnavailable : help}
              checked={current[key]}
              disabled={save.isPending || unavailable}
              onCheckedChange={(on) => change({ [key]: on }, said(on))}
            />
          );
        })}
      </div>
      <p role="status" className="sr-only">
        {status}
      </p>
    </PageSection>
  );
}
