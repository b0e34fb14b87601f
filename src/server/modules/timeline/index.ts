// The timeline module's public surface: its service (GET /api/timeline is registered by timeline.routes.ts).
export { TimelineService, timelineOrder } from './timeline.service';
