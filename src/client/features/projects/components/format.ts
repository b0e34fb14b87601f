import { format, parseISO } from 'date-fns';

/** Project dates as 'MMM dd, yyyy' (spec §9). */
export const formatProjectDate = (isoDate: string) => format(parseISO(isoDate), 'MMM dd, yyyy');
