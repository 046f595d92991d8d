/**
 * Retry timing for calls to a machine-translation engine (issue 17). Pure: the caller passes the
 * random source and the clock.
 */

/** How many retries, and the bounds of their delays. */
export interface BackoffOptions {
  /** How many delays (retries) to plan. */
  attempts: number;
  /** The bound of the first delay, in milliseconds; it doubles with each retry. */
  baseMs: number;
  /** No bound grows past this, in milliseconds. */
  maxMs: number;
}

/** The longest wait a `Retry-After` header may impose. */
export const MAX_RETRY_AFTER_MS = 60_000;

/**
 * Full-jitter exponential backoff: delay `i` (from 0) is a whole number of milliseconds drawn
 * uniformly from [0, min(maxMs, baseMs * 2^i)] with `random` (values in [0, 1), like
 * `Math.random`). No attempts (or a count that is not a positive number) gives no delays.
 */
export function retryDelays(options: BackoffOptions, random: () => number): number[] {
  const attempts = Number.isFinite(options.attempts) ? Math.floor(options.attempts) : 0;
  const baseMs = Number.isFinite(options.baseMs) ? Math.max(0, options.baseMs) : 0;
  const maxMs = Number.isNaN(options.maxMs) ? 0 : Math.max(0, options.maxMs);
  const delays: number[] = [];
  for (let i = 0; i < attempts; i++) {
    const bound = baseMs === 0 ? 0 : Math.floor(Math.min(maxMs, baseMs * 2 ** i));
    const r = Math.min(Math.max(random(), 0), 1 - Number.EPSILON);
    delays.push(Math.floor(r * (bound + 1)));
  }
  return delays;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
/** IMF-fixdate: `Sun, 06 Nov 1994 08:49:37 GMT`. */
const IMF_FIXDATE = /^[A-Za-z]{3}, (\d{2}) ([A-Za-z]{3}) (\d{4}) (\d{2}):(\d{2}):(\d{2}) GMT$/;
/** Obsolete RFC 850: `Sunday, 06-Nov-94 08:49:37 GMT`. */
const RFC_850 = /^[A-Za-z]{6,9}, (\d{2})-([A-Za-z]{3})-(\d{2}) (\d{2}):(\d{2}):(\d{2}) GMT$/;
/** Obsolete asctime: `Sun Nov  6 08:49:37 1994`. */
const ASCTIME = /^[A-Za-z]{3} ([A-Za-z]{3}) ([ \d]\d) (\d{2}):(\d{2}):(\d{2}) (\d{4})$/;

/** The instant of an HTTP-date (RFC 9110, section 5.6.7), or null when it is not one. */
function httpDate(value: string): number | null {
  let fields: { year: number; month: string; day: string; time: [string, string, string] } | null = null;
  let m = IMF_FIXDATE.exec(value);
  if (m !== null) fields = { year: Number(m[3]), month: m[2]!, day: m[1]!, time: [m[4]!, m[5]!, m[6]!] };
  else if ((m = RFC_850.exec(value)) !== null) {
    // A two-digit year: 70..99 in the 1900s, the rest in the 2000s.
    const yy = Number(m[3]);
    fields = { year: yy >= 70 ? 1900 + yy : 2000 + yy, month: m[2]!, day: m[1]!, time: [m[4]!, m[5]!, m[6]!] };
  } else if ((m = ASCTIME.exec(value)) !== null) {
    fields = { year: Number(m[6]), month: m[1]!, day: m[2]!, time: [m[3]!, m[4]!, m[5]!] };
  }
  if (fields === null) return null;
  const month = MONTHS.indexOf(fields.month.toLowerCase());
  const day = Number(fields.day.trim());
  const [hours, minutes, seconds] = fields.time.map(Number) as [number, number, number];
  if (month < 0 || day < 1 || hours > 23 || minutes > 59 || seconds > 60) return null;
  const midnight = Date.UTC(fields.year, month, day);
  // 31 Feb and the like roll over into the next month: not a date.
  if (new Date(midnight).getUTCDate() !== day) return null;
  return midnight + ((hours * 60 + minutes) * 60 + seconds) * 1000;
}

/**
 * The wait a `Retry-After` header asks for, in milliseconds: delay-seconds (digits only) or an
 * HTTP-date (IMF-fixdate, or the obsolete RFC 850 and asctime forms) measured from `nowMs` (a
 * date in the past: 0). Capped at 60 s. Null when the header is absent or not one of those forms.
 */
export function retryAfterMs(headerValue: string | null, nowMs: number): number | null {
  if (headerValue === null) return null;
  const value = headerValue.trim();
  if (value === '') return null;
  if (/^\d{1,16}$/.test(value)) return Math.min(MAX_RETRY_AFTER_MS, Number(value) * 1000);
  if (/^\d+$/.test(value)) return MAX_RETRY_AFTER_MS;
  const at = httpDate(value);
  if (at === null) return null;
  return Math.min(MAX_RETRY_AFTER_MS, Math.max(0, at - nowMs));
}
