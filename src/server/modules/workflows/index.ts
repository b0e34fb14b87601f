// The workflows module's public surface: its service (a project's statuses, issue 36).
export { WorkflowsService } from './workflows.service';
