/** The calendar page's own texts (not in domain/messages.ts, whose bundle the sign-in page carries). */
export const EMPTY_TEXT = 'No tasks due in this period';
export const LOAD_FAILED_TEXT = 'The tasks could not be loaded.';
