// The projects module's public surface: its service, and reading a project its caller may see.
export { getVisibleById } from './projects.repo';
export { ProjectsService } from './projects.service';
