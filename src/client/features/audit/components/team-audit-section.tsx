import { TEAM_AUDIT_ACTIONS } from '../../../../domain/audit';
import type { TeamDto } from '../../../../domain/schemas/team';
import { teamKeys } from '../../../lib/queries/teams';
import { type AuditFilters, auditQueryOf } from '../api/audit-api';
import { AuditLog } from './audit-log';

/** Under the team's key: a change to the team (realtime) refreshes its log too. */
const teamAuditKey = (teamId: string) => (filters: AuditFilters) =>
  [...teamKeys.detail(teamId), 'audit', auditQueryOf(filters)] as const;

/** The team's audit log (issue 26), on /teams/:id/settings for its owner and admins (the server checks again). */
export function TeamAuditSection({ team }: { team: TeamDto }) {
  return (
    <AuditLog
      title="Audit log"
      description="Role changes, members, invitations, deleted projects and webhook changes in this team."
      path={`/api/teams/${team.id}/audit`}
      queryKey={teamAuditKey(team.id)}
      actions={TEAM_AUDIT_ACTIONS}
    />
  );
}
