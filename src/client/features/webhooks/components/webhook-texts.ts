import type { WebhookEventType } from '../../../../domain/constants';
import type { WebhookDeliveryStatus, WebhookStatus } from '../../../../domain/schemas/webhook';

/** The Webhooks section's texts (issue 26; quoted ones to the letter). */
export const WEBHOOK_TEXT = {
  section: 'Webhooks',
  sectionDescription:
    'Send this team’s events to another service as they happen: signed by the Standard Webhooks convention, retried for 24 hours.',
  add: 'Add webhook',
  addTitle: 'Add webhook',
  editTitle: 'Edit webhook',
  save: 'Save changes',
  url: 'Payload URL',
  urlHint: 'An HTTPS address that accepts POST requests.',
  description: 'Description',
  descriptionHint: 'Optional: what receives these events.',
  events: 'Events to send',
  selectAll: 'Select all events',
  noEvents: 'Choose at least one event',
  secretTitle: 'Webhook added',
  secretLabel: 'Signing secret',
  secretHelp:
    'Verify each request with this secret (any Standard Webhooks library takes it as it is). Copy it now: for your safety it will not be shown again.',
  copy: 'Copy',
  copied: 'Secret copied',
  copyFailed: 'Could not copy: select the secret and copy it yourself',
  done: 'Done',
  empty: 'No webhooks yet. Add one to send this team’s events to another service.',
  sendTest: 'Send test event',
  testSent: 'Test event queued',
  testFailed: 'Failed to send the test event',
  edit: 'Edit',
  pause: 'Pause',
  resume: 'Resume',
  paused: 'Webhook paused',
  resumed: 'Webhook resumed',
  delete: 'Delete',
  deleteTitle: 'Delete this webhook?',
  deleteMessage: 'Its events stop at once, and its delivery log is deleted with it. This cannot be undone.',
  deleted: 'Webhook deleted',
  created: 'Webhook added',
  saved: 'Webhook saved',
  createFailed: 'Failed to add the webhook',
  saveFailed: 'Failed to save the webhook',
  deleteFailed: 'Failed to delete the webhook',
  showLog: 'Delivery log',
  log: 'Recent deliveries',
  logEmpty: 'No deliveries yet. Send a test event to try it.',
  logFailed: 'Failed to load the delivery log',
  showMore: 'Show more',
  redeliver: 'Redeliver',
  redelivered: 'Redelivery queued',
  redeliverFailed: 'Failed to redeliver',
  columns: { event: 'Event', time: 'Time', status: 'Status', code: 'Response code', duration: 'Duration', actions: 'Actions' },
  failingSince: 'Failing since',
  loadFailed: 'Failed to load the webhooks',
} as const;

/** The events as the issue names them. */
export const WEBHOOK_EVENT_LABELS: Record<WebhookEventType, string> = {
  'task.created': 'Task created',
  'task.updated': 'Task updated',
  'task.moved': 'Task moved',
  'task.deleted': 'Task deleted',
  'comment.created': 'Comment added',
  'project.created': 'Project created',
  'project.updated': 'Project updated',
  'project.deleted': 'Project deleted',
  'member.joined': 'Member joined',
  'member.left': 'Member left',
  'import.completed': 'Import completed',
  'status.created': 'Status created',
  'status.updated': 'Status updated',
  'status.deleted': 'Status deleted',
  'task.dependency_added': 'Dependency added',
  'task.dependency_removed': 'Dependency removed',
};

export const WEBHOOK_STATUS_LABELS: Record<WebhookStatus, string> = { active: 'Active', paused: 'Paused', failing: 'Failing' };

export const DELIVERY_STATUS_LABELS: Record<WebhookDeliveryStatus, string> = {
  pending: 'Pending',
  delivered: 'Delivered',
  failed: 'Failed',
};
