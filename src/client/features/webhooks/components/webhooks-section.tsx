import type { TeamDto } from '../../../../domain/schemas/team';

/** Webhooks: issue 26 (owners and admins). Placeholder until it lands. */
export function WebhooksSection(_props: { team: TeamDto }) {
  return null;
}
