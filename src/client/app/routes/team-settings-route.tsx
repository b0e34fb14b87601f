import { ArrowLeft } from 'lucide-react';
import { Link, useParams } from 'react-router';
import { ERROR_MESSAGES } from '../../../domain/errors';
import { canManageMembers, canSetTeamAccess } from '../../../domain/permissions';
import { EmptyState } from '../../components/ui/empty-state';
import { PageHeader } from '../../components/ui/page-header';
import { Spinner } from '../../components/ui/spinner';
import { useDocumentTitle } from '../../lib/use-document-title';
import { TeamAuditSection } from '../../features/audit/components/team-audit-section';
import { CustomFieldsSection } from '../../features/custom-fields/components/custom-fields-section';
import { EstimateUnitSection } from '../../features/time-tracking/components/estimate-unit-section';
import { TeamTransferSection } from '../../features/transfer/components/team-transfer-section';
import { WebhooksSection } from '../../features/webhooks/components/webhooks-section';
import { useTeams } from '../../features/teams/api/get-teams';
import { TeamAccessSection } from '../../features/teams/components/team-access-section';
import { useProviders } from '../../features/auth/api/google-api';

/**
 * /teams/:id/settings: a team's custom fields (issue 38), its estimate unit (issue 39), integrations and records (issue
 * 26). Every member sees the custom fields (owners and admins change them), export and import; the estimate unit,
 * webhooks and the audit log are for its owner and admins (the server checks each request again).
 */
export function TeamSettingsPage() {
  const { id = '' } = useParams();
  const teams = useTeams();
  const providers = useProviders();
  const team = teams.data?.find((t) => t.id === id);
  useDocumentTitle(team ? `${team.name} settings` : 'Team settings');
  if (teams.isPending) return <Spinner />;
  if (!team) {
    return (
      <div>
        <PageHeader title="Team settings" />
        <EmptyState title="Team not found" message="This team does not exist, or you are not a member of it." />
      </div>
    );
  }
  // Issue 41: a team that requires SSO, seen from a session that did not come from it, stays closed.
  if (team.ssoLocked) {
    return (
      <div>
        <PageHeader title={`${team.name} settings`} />
        <EmptyState title={ERROR_MESSAGES.sso_required} message="Sign in with single sign-on to open this team." />
      </div>
    );
  }
  const isManager = canManageMembers(team.myRole);
  return (
    <div className="space-y-8">
      <div>
        <Link to="/teams" className="inline-flex items-center gap-1 text-sm text-brand-700 hover:underline dark:text-indigo-300">
          <ArrowLeft className="h-4 w-4" aria-hidden />
          Teams
        </Link>
        <PageHeader
          title={`${team.name} settings`}
          subtitle="Custom fields, estimates, integrations, records, export and import"
        />
      </div>
      <CustomFieldsSection team={team} />
      {isManager && <EstimateUnitSection team={team} />}
      {canSetTeamAccess(team.myRole) && <TeamAccessSection team={team} ssoAvailable={providers.data?.sso} />}
      <TeamTransferSection team={team} />
      {isManager && <WebhooksSection team={team} />}
      {isManager && <TeamAuditSection team={team} />}
    </div>
  );
}
