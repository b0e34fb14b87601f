// The dashboard module's public surface.
export { DashboardService } from './dashboard.service';
