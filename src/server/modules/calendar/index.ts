// The calendar module's public surface: its service, and deleting a user's calendar feed (when their credentials go).
export { deleteOne } from './calendar.repo';
export { CalendarService } from './calendar.service';
