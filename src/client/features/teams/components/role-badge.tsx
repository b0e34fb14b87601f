import { INVITATION_ROLES, TEAM_ROLE_LABELS, type TeamRole } from '../../../../domain/constants';
import { teamRoleTone } from '../../../../domain/teams';
import { Badge } from '../../../components/ui/badge';
import { labelled } from '../../../components/ui/options-select';

/** The roles a member can be invited as or switched to (the owner's role is never offered). */
export const INVITATION_ROLE_OPTIONS = labelled(INVITATION_ROLES, TEAM_ROLE_LABELS);

export function RoleBadge({ role }: { role: TeamRole }) {
  return <Badge tone={teamRoleTone(role)}>{TEAM_ROLE_LABELS[role]}</Badge>;
}
