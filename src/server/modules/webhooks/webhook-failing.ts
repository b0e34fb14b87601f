import { notificationTarget } from '../../../domain/notification-target';
import { NOTIFICATION_TEXT } from '../../../domain/schemas/notification';
import type { Config } from '../../config';
import type { DbOrTx } from '../../db/client';
import { enqueueMails, mayMailUnprompted, renderMail } from '../mail';
import { createMany, listInAppMuted, wantsEmail } from '../notifications';
import { listTeamManagers } from './webhooks.repo';

export type FailingNoticeSettings = Pick<Config, 'publicUrl' | 'emailVerification'>;

/**
 * A hook just became failing: its team's owners and admins get a notification and (unless they turned it off, or
 * their address is unproven where proof is required) a mail, written in the caller's transaction. Returns the
 * notifications written, for the realtime event the caller publishes after commit.
 */
export async function noticeWebhookFailing(
  tx: DbOrTx,
  settings: FailingNoticeSettings,
  hook: { id: string; teamId: string; url: string },
): Promise<{ id: string; userId: string }[]> {
  const managers = await listTeamManagers(tx, hook.teamId);
  const people = managers.filter((m) => m.isActive);
  if (people.length === 0) return [];
  const teamName = people[0]!.teamName;
  const text = NOTIFICATION_TEXT.webhook_failing;
  const data = { teamId: hook.teamId };
  const muted = await listInAppMuted(
    tx,
    people.map((p) => p.id),
  );
  const created = await createMany(
    tx,
    people
      .filter((p) => !muted.has(`${p.id}|webhook_failing`))
      .map((p) => ({
        userId: p.id,
        type: 'webhook_failing' as const,
        title: text.title,
        message: text.message(hook.url, teamName),
        data,
      })),
  );
  const link = settings.publicUrl + notificationTarget({ type: 'webhook_failing', data });
  const mailed = [];
  for (const p of people) {
    if (!mayMailUnprompted(p, settings.emailVerification) || !(await wantsEmail(tx, p.id, 'webhook_failing'))) continue;
    mailed.push({
      kind: 'webhook_failing' as const,
      to: p.email,
      ...renderMail({
        subject: `A webhook of ${teamName} is failing`,
        heading: 'A webhook keeps failing',
        paragraphs: [
          `Deliveries to ${hook.url} have failed for 24 hours, so the webhook of the team ${teamName} is marked failing.`,
          'Crewboard keeps sending new events to it. Check the receiver, then look at its delivery log and redeliver what was missed.',
        ],
        action: { label: 'Open the team’s webhooks', url: link },
        footer: 'You get this mail as an owner or admin of the team. You can turn it off in Settings → Notifications.',
      }),
    });
  }
  await enqueueMails(tx, mailed);
  return created.map((n) => ({ id: n.id, userId: n.userId }));
}
