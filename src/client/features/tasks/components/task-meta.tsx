import { format, parseISO } from 'date-fns';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * Card date format (spec §9): 'MMM dd', read straight off the API's 'YYYY-MM-DD'. A board draws its cards in its
 * first render, and date-fns' first parse and format cost 15 ms of a cold load (CPU profile); anything else goes
 * through date-fns as before.
 */
export function formatCardDate(date: string): string {
  const m = /^\d{4}-(\d{2})-(\d{2})$/.exec(date);
  const month = m ? MONTHS[Number(m[1]) - 1] : undefined;
  return m && month ? `${month} ${m[2]}` : format(parseISO(date), 'MMM dd');
}
export const formatLongDate = (date: string) => format(parseISO(date), 'MMM dd, yyyy');
