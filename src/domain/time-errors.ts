/**
 * Time tracking's texts for a refused duration or day (issue 39), and the days an entry may have: plain data shared by
 * schemas/time.ts and the client's forms, which read them from here, never from schemas/ (an import from there tied the
 * client's start-up script and the schemas chunk in a circle once: every page stuck at 'Loading...').
 */
import { TIME_LIMITS } from './constants';

export const TIME_MINUTES_INVALID = 'Enter a duration such as 1h 30m, 90m or 1.5h';

export const TIME_ENTRY_TOO_LONG = `An entry is at most ${TIME_LIMITS.entryMinutesMax / 60} hours`;

/**
 * A day of time tracking is from 1900 to 2999. Any ISO date is not enough: PostgreSQL has no year 0000 (and refused it
 * with a 500 once), and no one logs time in the year 0001.
 */
export const TIME_DATE_INVALID = 'Enter a date between 1900 and 2999';

/** An ISO date (YYYY-MM-DD, already a valid one) in the range an entry's day may have. */
export const isTimeEntryDay = (date: string): boolean => date >= '1900-01-01' && date <= '2999-12-31';
