import { TEAM_ROLE_LABELS, type TeamRole } from '../../../../domain/constants';
import { teamRoleTone } from '../../../../domain/teams';
import { Badge } from '../../../components/ui/badge';

export function RoleBadge({ role }: { role: TeamRole }) {
  return <Badge tone={teamRoleTone(role)}>{TEAM_ROLE_LABELS[role]}</Badge>;
}
