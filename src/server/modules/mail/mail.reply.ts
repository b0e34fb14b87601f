import { OUTSIDE_TEXTS } from '../../../domain/outside-texts';

/** The reply address of a notification mail about a task to `userId` (issue 40), or null: mail in is not set up. */
export type ReplyAddressFor = (userId: string) => Promise<string | null>;

/**
 * A notification mail's Reply-To and footer lines: with a reply address, 'Reply to this email to comment' comes
 * first; without one, the footer alone.
 */
export async function replyParts(
  replyAddress: ReplyAddressFor | undefined,
  userId: string,
  footer: string,
): Promise<{ replyTo?: string; footer: string[] }> {
  const replyTo = (await replyAddress?.(userId)) ?? null;
  return replyTo ? { replyTo, footer: [OUTSIDE_TEXTS.replyFooter, footer] } : { footer: [footer] };
}
