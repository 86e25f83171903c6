// Clocks as client-go's correlator sees them (k8s.io/utils/clock PassiveClock): a reading
// is nanoseconds since the Unix epoch, a bigint, because UnixNano exceeds 2^53.

export interface PassiveClock {
  /** Nanoseconds since the Unix epoch. */
  now(): bigint;
}

export const NANOS_PER_SECOND = 1_000_000_000n;
const NANOS_PER_MILLI = 1_000_000n;

/** Wall-clock time with nanosecond steps: Date.now() as the base, process.hrtime for what passes after. */
export class RealClock implements PassiveClock {
  private readonly baseWall = BigInt(Date.now()) * NANOS_PER_MILLI;
  private readonly baseHr = process.hrtime.bigint();
  now(): bigint {
    return this.baseWall + (process.hrtime.bigint() - this.baseHr);
  }
}

/** A clock that reads what it was last set to (k8s.io/utils/clock/testing FakePassiveClock). */
export class FakeClock implements PassiveClock {
  constructor(private t: bigint) {}
  now(): bigint {
    return this.t;
  }
  setTime(t: bigint): void {
    this.t = t;
  }
  step(d: bigint): void {
    this.t += d;
  }
}

/** A clock that moves forward by `step` on every reading (k8s.io/utils/clock/testing SimpleIntervalClock). */
export class SimpleIntervalClock implements PassiveClock {
  constructor(
    private t: bigint,
    private readonly stepBy: bigint,
  ) {}
  now(): bigint {
    this.t += this.stepBy;
    return this.t;
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
