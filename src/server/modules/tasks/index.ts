// The tasks module's public surface: its service, and the task-assigned mail.
export { taskAssignedMail } from './task-mails';
export { TasksService } from './tasks.service';
