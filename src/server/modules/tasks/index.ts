// The tasks module's public surface: its service, the task-assigned mail, and tasks' answers by id (the recurrence
// module records the tasks its schedule makes with them: wired in modules/index.ts, as it may not import this module).
export { taskAssignedMail } from './task-mails';
export { TasksService } from './tasks.service';
export { taskCards } from './task-dto';
