// The time tracking module's public surface (issue 39): its routes.
export { registerTimeTracking } from './time-tracking.routes';
