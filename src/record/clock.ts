// Clocks as client-go's correlator sees them (k8s.io/utils/clock PassiveClock): a reading
// is nanoseconds since the Unix epoch, a bigint, because UnixNano exceeds 2^53.

export interface PassiveClock {
  /** Nanoseconds since the Unix epoch. */
  now(): bigint;
}

export const NANOS_PER_SECOND = 1_000_000_000n;
const NANOS_PER_MILLI = 1_000_000n;

/**
 * The wall clock, as Go's time.Now() reads it for event timestamps: a laptop's sleep or a
 * clock step shows at once (a base taken once at start plus monotonic time would drift from
 * the wall after either). Date.now() has milliseconds; the monotonic clock's sub-millisecond
 * part fills the rest, and readings within one millisecond are kept increasing, so event
 * names (object name + "." + hex nanoseconds) stay unique.
 */
export class RealClock implements PassiveClock {
  private last = 0n;
  private lastWallMs = -1;

  constructor(
    private readonly wallMs: () => number = Date.now,
    private readonly monotonicNs: () => bigint = () => process.hrtime.bigint(),
  ) {}

  now(): bigint {
    const wall = this.wallMs();
    let t = BigInt(wall) * NANOS_PER_MILLI + (this.monotonicNs() % NANOS_PER_MILLI);
    if (wall === this.lastWallMs && t <= this.last) t = this.last + 1n;
    this.last = t;
    this.lastWallMs = wall;
    return t;
  }
}

/** Nanoseconds for a time string (RFC 3339, any fraction). */
export function parseTime(s: string): bigint {
  const m = /^(.*?)(?:\.(\d+))?(Z|[+-]\d\d:\d\d)$/.exec(s);
  if (!m) throw new RangeError(`not an RFC 3339 time: ${s}`);
  const wholeSeconds = BigInt(Date.parse(`${m[1]}${m[3]}`)) * NANOS_PER_MILLI;
  const fraction = m[2] ? BigInt((m[2] + '000000000').slice(0, 9)) : 0n;
  return wholeSeconds + fraction;
}

/** metav1.Time on the wire: RFC 3339 in UTC, whole seconds (Go truncates the fraction). */
export function formatTime(ns: bigint): string {
  const seconds = ns >= 0n ? ns / NANOS_PER_SECOND : (ns - NANOS_PER_SECOND + 1n) / NANOS_PER_SECOND;
  return new Date(Number(seconds) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** metav1.MicroTime on the wire: RFC 3339 in UTC with exactly six fractional digits. */
export function formatMicroTime(ns: bigint): string {
  const seconds = ns >= 0n ? ns / NANOS_PER_SECOND : (ns - NANOS_PER_SECOND + 1n) / NANOS_PER_SECOND;
  const micros = (ns - seconds * NANOS_PER_SECOND) / 1000n;
  return new Date(Number(seconds) * 1000).toISOString().replace(/\.\d{3}Z$/, `.${micros.toString().padStart(6, '0')}Z`);
}
