// The task checklist module's public surface.
export { TaskChecklistService } from './task-checklist.service';
