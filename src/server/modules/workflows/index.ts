// The workflows module's public surface: its service (a project's statuses, issue 36), and the reads a task write
// needs (the tasks service checks a task's status against its project's workflow).
export { WorkflowsService } from './workflows.service';
export { listLiveByProjectId as liveStatuses, shareLiveStatus } from './workflows.repo';
