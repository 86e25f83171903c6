// The time axis: a tick step a label fits in, ticks on round local times, and their labels
// (a date where a day starts). Pure: the time zone offset is passed in.

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Round steps, smallest first. */
export const TICK_STEPS = [
  SECOND, 2 * SECOND, 5 * SECOND, 10 * SECOND, 15 * SECOND, 30 * SECOND,
  MINUTE, 2 * MINUTE, 5 * MINUTE, 10 * MINUTE, 15 * MINUTE, 30 * MINUTE,
  HOUR, 2 * HOUR, 3 * HOUR, 6 * HOUR, 12 * HOUR,
  DAY, 2 * DAY, 7 * DAY, 14 * DAY, 28 * DAY,
];

/** The smallest round step at least `minPx` wide at `msPerPx`. */
export function tickStep(msPerPx: number, minPx: number): number {
  for (const step of TICK_STEPS) if (step / msPerPx >= minPx) return step;
  return TICK_STEPS[TICK_STEPS.length - 1];
}

/**
 * Tick times in [start, end], on multiples of step in local time (offsetMs: local minus
 * UTC, as -Date#getTimezoneOffset() * 60000 gives it).
 */
export function ticks(start: number, end: number, step: number, offsetMs: number): number[] {
  const out: number[] = [];
  const first = Math.ceil((start + offsetMs) / step) * step - offsetMs;
  for (let t = first; t <= end && out.length < 1000; t += step) out.push(t);
  return out;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (n: number) => String(n).padStart(2, '0');

/** A tick's label: the date at a local midnight or for day steps, else the time (seconds when the step has them). */
export function tickLabel(t: number, step: number, offsetMs: number): string {
  const d = new Date(t + offsetMs);
  const midnight = d.getUTCHours() === 0 && d.getUTCMinutes() === 0 && d.getUTCSeconds() === 0;
  if (step >= DAY || midnight) return `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}`;
  const hm = `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}`;
  return step < MINUTE ? `${hm}:${two(d.getUTCSeconds())}` : hm;
}

/** A time for the status line and the cursor: local date and time to the second. */
export function fullTime(t: number, offsetMs: number): string {
  const d = new Date(t + offsetMs);
  return `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`;
}

/** How wide the plot is in words: "10 s", "5 min", "3 h", "2 d". */
export function spanText(ms: number): string {
  if (ms < 2 * MINUTE) return `${Math.round(ms / SECOND)} s`;
  if (ms < 2 * HOUR) return `${Math.round(ms / MINUTE)} min`;
  if (ms < 2 * DAY) return `${Math.round((ms / HOUR) * 10) / 10} h`;
  return `${Math.round((ms / DAY) * 10) / 10} d`;
}
