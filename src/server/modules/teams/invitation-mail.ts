import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Config } from '../../config';
import type { DbOrTx } from '../../db/client';
import { type OutgoingMail, type RenderedMail, renderMail } from '../mail';
import { wantsEmail } from '../notifications';
import { getOneByEmail } from '../users';
import { getInvitationById, type InvitationRow } from './teams.repo';

/** The key of invitation proofs, derived from the server's secret for this use alone. */
const proofKey = (secret: string) => createHmac('sha256', secret).update('invitation-proof').digest();

/**
 * The proof carried by an invitation's emailed link: an HMAC of the invitation's id. Only the mail to the invited
 * address holds it, so whoever presents it has read that mailbox (it proves the address for this invitation).
 */
export function invitationProof(secret: string, invitationId: string): string {
  return createHmac('sha256', proofKey(secret)).update(invitationId).digest('base64url');
}

/** True when `proof` is the one mailed with this invitation (compared in constant time). */
export function verifyInvitationProof(secret: string, invitationId: string, proof: string): boolean {
  const expected = Buffer.from(invitationProof(secret, invitationId));
  const given = Buffer.from(proof);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The emailed link that opens the invitation: the dashboard, where it is listed, with its proof. */
export function invitationUrl(publicUrl: string, secret: string, invitationId: string): string {
  const query = new URLSearchParams({ invitation: invitationId, proof: invitationProof(secret, invitationId) });
  return `${publicUrl}/dashboard?${query}`;
}

export function invitationMail(invitation: InvitationRow, url: string, ttlDays: number): RenderedMail {
  const role = invitation.role === 'admin' ? 'an admin' : 'a member';
  return renderMail({
    subject: `${invitation.inviterName} invited you to ${invitation.teamName} on Crewboard`,
    heading: `Join ${invitation.teamName} on Crewboard`,
    paragraphs: [
      `${invitation.inviterName} (${invitation.inviterEmail}) invited you to the team ${invitation.teamName} as ${role}.`,
      `Sign in, or create an account, with this address (${invitation.email}) to accept or decline. The invitation expires in ${ttlDays} days.`,
    ],
    action: { label: 'Open the invitation', url },
    footer:
      'You received this email because someone invited this address to a team on Crewboard. If you did not expect it, ignore it.',
  });
}

export type InvitationMailSettings = Pick<Config, 'publicUrl' | 'authSecret' | 'invitationTtlDays'>;

/** The invitation's mail, or null when the invitee has an account and turned invitation mail off. */
export async function invitationMailFor(
  db: DbOrTx,
  settings: InvitationMailSettings,
  invitationId: string,
): Promise<OutgoingMail | null> {
  const invitation = await getInvitationById(db, invitationId, settings.invitationTtlDays);
  if (!invitation) return null;
  const invitee = await getOneByEmail(db, invitation.email);
  if (invitee && !(await wantsEmail(db, invitee.id, 'team_invite'))) return null;
  const url = invitationUrl(settings.publicUrl, settings.authSecret, invitation.id);
  return { kind: 'invitation', to: invitation.email, ...invitationMail(invitation, url, settings.invitationTtlDays) };
}
