// The analytics module's public surface: its service, and the two shared task-history queries the dashboard reads.
export { completionMonths, taskStatusSpans } from './analytics.repo';
export { type AnalyticsCaller, AnalyticsService } from './analytics.service';
