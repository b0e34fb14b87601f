import { useEffect, useState } from 'react';
import { relativeTime } from '../../../../../domain/dates';

const absolute = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** The minute, for relative times that move on while the panel is open. */
function useMinute(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), 60_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/** '2 hours ago', with the exact date and time on hover (and for assistive technology, in dateTime). */
export function TimeAgo({ at, prefix = '' }: { at: string; prefix?: string }) {
  const now = useMinute();
  const date = new Date(at);
  return (
    <time dateTime={at} title={`${prefix}${absolute.format(date)}`}>
      {relativeTime(date, now)}
    </time>
  );
}
