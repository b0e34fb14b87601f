import type { TeamDto } from '../../../../domain/schemas/team';

/** The team's audit log: issue 26 (owners and admins). Placeholder until it lands. */
export function TeamAuditSection(_props: { team: TeamDto }) {
  return null;
}
