// The inbound mail module's public surface (issue 40, tasks by email): its routes and mail receiving, what a test
// reads of a running app's receiving, and the reply address a notification mail about a task carries.
export { inboundMailOf, registerInboundMail } from './inbound-mail.routes';
export { issueReplyAddress } from './reply-address';
