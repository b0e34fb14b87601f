// The task activity module's public surface: its service, and recording a task's edit in its history.
export { recordTaskEdit } from './task-activity.record';
export { TaskActivityService } from './task-activity.service';
