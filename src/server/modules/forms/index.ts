// The request forms module's public surface (issue 40): its routes, and the confirmation mail the mail subscriber queues.
// Nothing else reads its tables.
export { requestReceivedMail } from './forms.mails';
export { registerForms } from './forms.routes';
