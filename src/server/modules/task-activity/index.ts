// The task activity module's public surface: its service, and recording a task's edit (or a status's moved tasks) in
// their history.
export {
  recordDependencyChange,
  recordStatusMoves,
  recordSubmitted,
  recordTaskEdit,
  recordTimeEntryChange,
} from './task-activity.record';
export { TaskActivityService } from './task-activity.service';
