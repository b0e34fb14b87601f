import type { TeamDto } from '../../../../domain/schemas/team';

/** Export and import: issue 26. Placeholder until it lands. */
export function TeamTransferSection(_props: { team: TeamDto }) {
  return null;
}
