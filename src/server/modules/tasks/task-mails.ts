import { TASK_PRIORITY_LABELS, type TaskPriority } from '../../../domain/constants';
import { formatLongDate } from '../../../domain/dates';
import { notificationTarget } from '../../../domain/notification-target';
import type { Config } from '../../config';
import type { DbOrTx } from '../../db/client';
import { mayMailUnprompted, type OutgoingMail, type ReplyAddressFor, renderMail, replyParts } from '../mail';
import { assignedMailFacts } from './task-mails.repo';

export type TaskMailSettings = Pick<Config, 'publicUrl' | 'emailVerification'>;

export interface AssignedTask {
  id: string;
  title: string;
  priority: TaskPriority;
  dueDate: string | null;
  projectId: string;
}

/**
 * The 'task assigned to you' mail for `assigneeId`, or null: when they assigned it to themselves, turned this mail
 * off (Settings → Notifications), are deactivated, or (EMAIL_VERIFICATION required) have not proven their address.
 */
export async function taskAssignedMail(
  db: DbOrTx,
  settings: TaskMailSettings,
  input: {
    actorId: string;
    assigneeId: string;
    task: AssignedTask;
    projectName: string;
    /** The task's reply address for the assignee (issue 40), when mail in is set up. */
    replyAddress?: ReplyAddressFor;
  },
): Promise<OutgoingMail | null> {
  if (input.assigneeId === input.actorId) return null;
  // One statement, in the change's transaction (issue 42): the assignee, the actor's name, the assignee's preference.
  const assignee = await assignedMailFacts(db, input.assigneeId, input.actorId);
  if (!assignee?.isActive || !assignee.wanted || !mayMailUnprompted(assignee, settings.emailVerification)) return null;
  const { task } = input;
  const url = settings.publicUrl + notificationTarget({ type: 'task_assigned', data: { projectId: task.projectId } });
  const { replyTo, footer } = await replyParts(
    input.replyAddress,
    assignee.id,
    'You can turn these emails off in Settings → Notifications.',
  );
  return {
    kind: 'task_assigned',
    to: assignee.email,
    ...(replyTo && { replyTo }),
    ...renderMail({
      subject: `Assigned to you: ${task.title}`,
      heading: 'A task was assigned to you',
      paragraphs: [
        `${assignee.actorName ?? 'Someone'} assigned you “${task.title}” in the project ${input.projectName}.`,
        `Priority: ${TASK_PRIORITY_LABELS[task.priority]}. ${task.dueDate ? `Due ${formatLongDate(task.dueDate)}.` : 'No due date.'}`,
      ],
      action: { label: 'Open the project’s tasks', url },
      footer,
    }),
  };
}
