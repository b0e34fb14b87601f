import { OUTSIDE_TEXTS } from '../../../../domain/outside-texts';

/** The words of 'Email to this project' (issue 40; the issue's own from domain/outside-texts.ts). */
export const INTAKE_TEXT = {
  ...OUTSIDE_TEXTS,
  sectionDescription:
    'Mail sent to this project’s address becomes a task: the subject its title, the text its description, the attachments its files.',
  notConfigured: 'Mail intake is not set up on this server. A server administrator turns it on with INBOUND_MAIL_DOMAIN.',
  switchLabel: 'Intake address',
  switchDescription: 'Off by default. Turning it off stops the address at once.',
  addressLabel: 'Address of this project',
  addressHint:
    'Anyone who knows it can add tasks here: give it only to those who should. Reset makes a new one, and the old one stops at once.',
  addressUnavailable: "This address cannot be shown any more (the server's key changed). Reset it to get a new one.",
  copied: 'Address copied',
  copyFailed: 'Could not copy: the address is selected, copy it with your keyboard',
  resetConfirmTitle: 'Reset the intake address?',
  resetConfirmMessage: 'Mail to the current address is refused from now on. Whoever sends tasks here needs the new one.',
  resetDone: 'A new address was made',
  turnedOn: 'The intake address is on',
  turnedOff: 'The intake address is off',
  saveFailed: 'Failed to change the intake address',
  loadFailed: 'Failed to load the intake address',
} as const;
