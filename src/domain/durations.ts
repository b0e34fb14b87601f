/**
 * Time tracking's durations (issue 39): what a person types in 'Log time' or an estimate, and how Crewboard writes a
 * number of minutes back.
 */

const UNITS: Record<string, number> = {
  h: 60,
  hr: 60,
  hrs: 60,
  hour: 60,
  hours: 60,
  m: 1,
  min: 1,
  mins: 1,
  minute: 1,
  minutes: 1,
};

/**
 * Minutes from a typed duration, or null when it is not one (or is not more than zero): '1h 30m', '1h30m', '90m',
 * '90 min', '1.5h', '1,5h', '2 hours', '1:30' (hours:minutes), and a bare number, read as hours ('2', '1.5') as in
 * most time trackers. Rounded to whole minutes.
 */
export function parseDuration(text: string): number | null {
  const s = text.trim().toLowerCase().replace(/,/g, '.');
  if (s === '') return null;
  let minutes: number;
  const clock = /^(\d{1,4}):([0-5]\d)$/.exec(s);
  if (clock) minutes = Number(clock[1]) * 60 + Number(clock[2]);
  else if (/^\d+(\.\d+)?$/.test(s)) minutes = Number(s) * 60;
  else {
    const parts = s.replace(/\s+/g, ' ').match(/\d+(?:\.\d+)?\s?[a-z]+/g);
    if (!parts || parts.join('').replace(/\s/g, '') !== s.replace(/\s/g, '')) return null;
    minutes = 0;
    const seen = new Set<number>();
    for (const part of parts) {
      const m = /^(\d+(?:\.\d+)?)\s?([a-z]+)$/.exec(part)!;
      const unit = UNITS[m[2]!];
      if (unit === undefined || seen.has(unit)) return null;
      seen.add(unit);
      minutes += Number(m[1]) * unit;
    }
  }
  const rounded = Math.round(minutes);
  return Number.isFinite(rounded) && rounded > 0 ? rounded : null;
}

/** '3h 20m', '2h', '45m', '0m' (negative counts as 0). */
export function formatDuration(totalMinutes: number): string {
  const minutes = Math.max(0, Math.round(totalMinutes));
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  if (h === 0) return `${m}m`;
  return m === 0 ? `${h}h` : `${h}h ${m}m`;
}

/** A timer's elapsed time for the top bar: '0:07', '12:05', '1:02:03' (hours only when there are any). */
export function formatElapsed(totalSeconds: number): string {
  const s = Math.max(0, Math.floor(totalSeconds));
  const h = Math.floor(s / 3600);
  const mm = String(Math.floor((s % 3600) / 60));
  const ss = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${mm.padStart(2, '0')}:${ss}` : `${mm}:${ss}`;
}

/** A stopped timer's whole minutes: rounded to the nearest, and 0 under a minute (nothing is logged then). */
export function timerMinutes(elapsedMs: number): number {
  return elapsedMs < 60_000 ? 0 : Math.round(elapsedMs / 60_000);
}

/** What a timer stopped under a minute says. */
export const TIMER_TOO_SHORT = 'Less than a minute: nothing logged';

/** 'Logged 3h 20m of 5h estimate', 'Logged 3h 20m' (no estimate in time), 'Logged 2h · 5 points'. */
export function loggedSummary(logged: number, estimate: { minutes: number | null; points: number | null }): string {
  if (estimate.minutes !== null) return `Logged ${formatDuration(logged)} of ${formatDuration(estimate.minutes)} estimate`;
  if (estimate.points !== null)
    return `Logged ${formatDuration(logged)} · ${estimate.points} ${estimate.points === 1 ? 'point' : 'points'}`;
  return `Logged ${formatDuration(logged)}`;
}
