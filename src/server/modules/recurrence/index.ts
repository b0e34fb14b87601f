// The recurrence module's public surface (issue 39, decision 0027): its routes and schedule, and the hooks the tasks
// service calls in its create and update transactions (`repeat` on a task). Keep these signatures stable.
export { registerRecurrence } from './recurrence.routes';
export { RepeatSchedule, repeatOnCreate, repeatOnSubtreeUpdate, repeatOnUpdate, type TaskCards } from './recurrence.service';
