import type { UserTokenPurpose } from '../../../domain/constants';
import type { ChangeOf } from '../../../domain/changes';
import { type OutgoingMail, type RenderedMail, renderMail } from '../mail';

/** The mails of the account's own links: verification, password reset, and the notice that the password changed. */

export function verifyEmailMail(input: { fullName: string; email: string; url: string }): RenderedMail {
  return renderMail({
    subject: 'Verify your email address',
    heading: 'Verify your email address',
    paragraphs: [
      `Hello ${input.fullName}, please confirm that ${input.email} is your email address for Crewboard.`,
      'The link works once and expires in 24 hours.',
    ],
    action: { label: 'Verify email address', url: input.url },
    footer:
      'You received this email because this address was used to create a Crewboard account. If that was not you, ignore it.',
  });
}

export function resetPasswordMail(input: { url: string }): RenderedMail {
  return renderMail({
    subject: 'Reset your Crewboard password',
    heading: 'Reset your password',
    paragraphs: [
      'Someone asked to reset the password of the Crewboard account for this email address.',
      'The link works once and expires in 1 hour. Until you choose a new password, the old one keeps working.',
    ],
    action: { label: 'Reset password', url: input.url },
    footer: 'If you did not ask for this, ignore this email: nothing changes.',
  });
}

/** After a change of password; `forgotUrl` is where to start over if it was not the account's owner. */
export function passwordChangedMail(input: { email: string; forgotUrl: string; signedOut: boolean }): RenderedMail {
  return renderMail({
    subject: 'Your Crewboard password was changed',
    heading: 'Your password was changed',
    paragraphs: [
      `The password of the Crewboard account ${input.email} was just changed.`,
      ...(input.signedOut ? ['Every session of the account was signed out: sign in again with the new password.'] : []),
      'If you did not do this, reset your password now.',
    ],
    action: { label: 'Reset password', url: input.forgotUrl },
    footer: 'You received this email because the password of your Crewboard account changed.',
  });
}

/** Settings → Account → Change email: the link to the new address; the address changes only when it is opened. */
export function changeEmailMail(input: { fullName: string; email: string; url: string }): RenderedMail {
  return renderMail({
    subject: 'Confirm your new email address',
    heading: 'Confirm your new email address',
    paragraphs: [
      `Hello ${input.fullName}, please confirm that ${input.email} should become the email address of your Crewboard account.`,
      'The link works once and expires in 24 hours. Until you open it, your account keeps its current address.',
    ],
    action: { label: 'Confirm email address', url: input.url },
    footer: 'If you did not ask for this, ignore this email: nothing changes.',
  });
}

/** To the address an account just left, so that its owner learns of a change they did not make. */
export function emailChangedMail(input: { oldEmail: string; newEmail: string }): RenderedMail {
  return renderMail({
    subject: 'Your Crewboard email address was changed',
    heading: 'Your email address was changed',
    paragraphs: [
      `The Crewboard account that used ${input.oldEmail} now signs in with ${input.newEmail}.`,
      // A reset link would go to the new address: the person to turn to is the administrator.
      'If you did not make this change, contact your Crewboard administrator at once.',
    ],
    footer: 'You received this email because this address was the email address of a Crewboard account.',
  });
}

/** Where each emailed link goes (under PUBLIC_URL; its token in the query), and the mail that carries it. */
const LINKS: Record<UserTokenPurpose, { page: string; render: (to: string, fullName: string, url: string) => RenderedMail }> = {
  verify_email: { page: '/verify-email', render: (email, fullName, url) => verifyEmailMail({ fullName, email, url }) },
  reset_password: { page: '/reset-password', render: (_email, _fullName, url) => resetPasswordMail({ url }) },
  change_email: { page: '/confirm-email', render: (email, fullName, url) => changeEmailMail({ fullName, email, url }) },
};

/** The mail of a one-time link made for the account (its kind is the link's purpose). */
export function accountLinkMail(publicUrl: string, link: ChangeOf<'account.link_issued'>): OutgoingMail {
  const { page, render } = LINKS[link.purpose];
  const url = `${publicUrl}${page}?token=${encodeURIComponent(link.token)}`;
  return { kind: link.purpose, to: link.to, ...render(link.to, link.fullName, url) };
}
