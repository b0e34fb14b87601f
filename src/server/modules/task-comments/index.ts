// The task comments module's public surface: its service, the new-comment mails, and who follows a task.
export { newCommentMails } from './comment-mails';
export { listMailRecipients, listWatcherIds } from './task-comments.repo';
export { TaskCommentsService } from './task-comments.service';
