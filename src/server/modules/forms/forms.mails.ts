import type { Change } from '../../../domain/changes';
import { type OutgoingMail, renderMail } from '../mail';

/** The confirmation a form's requester gets (issue 40): queued by the mail subscriber on `request.received`. */
export function requestReceivedMail(c: Extract<Change, { kind: 'request.received' }>): OutgoingMail {
  return {
    kind: 'request_received',
    to: c.email,
    ...renderMail({
      // One line whatever the requester typed (the transport folds headers too).
      subject: `We received your request: ${c.task.title.replace(/\s+/g, ' ')}`,
      heading: 'Thanks! Your request was received.',
      paragraphs: [
        `Your request “${c.task.title}” to ${c.projectName} was received.`,
        'Follow its status here, without signing in:',
      ],
      action: { label: 'Follow your request', url: c.statusUrl },
      footer: `You get this mail because this address was given on the form “${c.formName}”.`,
    }),
  };
}
