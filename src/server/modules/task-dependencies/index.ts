// The task dependencies module's public surface: its service, and the ids the single task read carries.
export { TaskDependenciesService, visibleDependencyIds } from './task-dependencies.service';
