// Port of client-go/util/flowcontrol/throttle.go's passive token bucket, which is
// golang.org/x/time/rate (v0.9) Limiter.AllowN(now, 1): the same float64 arithmetic, so
// the same decisions to the nanosecond.
import { NANOS_PER_SECOND, type PassiveClock } from './clock';

/** time.Duration's largest value: what Go's Time.Sub saturates to. */
const MAX_DURATION = 2n ** 63n - 1n;

/** Duration.Seconds(): whole seconds plus the remainder, each converted separately, as Go does. */
function durationSeconds(d: bigint): number {
  if (d >= 0n && d <= MAX_SAFE_NANOS) {
    // The same two integers in doubles (exact below 2^53), without BigInt division.
    const n = Number(d);
    const nsec = n % 1e9;
    return (n - nsec) / 1e9 + nsec / 1e9;
  }
  const sec = d / NANOS_PER_SECOND;
  const nsec = d % NANOS_PER_SECOND;
  return Number(sec) + Number(nsec) / 1e9;
}

/** Durations up to this many nanoseconds (104 days) are exact as doubles. */
const MAX_SAFE_NANOS = BigInt(Number.MAX_SAFE_INTEGER);
/** A limiter never used has Go's zero time: this is what it has waited. */
const NEVER_USED_SECONDS = durationSeconds(MAX_DURATION);

export class TokenBucketPassiveRateLimiter {
  /** rate.Limit(float64(qps)): qps arrives as a float32, as client-go's parameter is one. */
  private readonly limit: number;
  private tokens: number;
  /** The time of the last accepted call; undefined is Go's zero time. */
  private last: bigint | undefined;

  constructor(
    qps: number,
    private readonly burst: number,
    private readonly clock: PassiveClock,
  ) {
    this.limit = Math.fround(qps);
    this.tokens = burst;
  }

  /** One token now, or false. A refused call changes nothing. */
  tryAccept(): boolean {
    return this.allowN(this.clock.now(), 1);
  }

  private allowN(t: bigint, n: number): boolean {
    // advance()
    let last = this.last;
    if (last !== undefined && t < last) last = t;
    const delta = this.limit <= 0 ? 0 : (last === undefined ? NEVER_USED_SECONDS : durationSeconds(t - last)) * this.limit;
    let tokens = this.tokens + delta;
    if (tokens > this.burst) tokens = this.burst;
    // reserveN(t, n, maxFutureReserve = 0)
    tokens -= n;
    let waitNanos = 0;
    if (tokens < 0) {
      // durationFromTokens: time.Duration(float64(time.Second) * seconds), truncated toward zero.
      waitNanos = this.limit <= 0 ? Infinity : Math.trunc(1e9 * (-tokens / this.limit));
    }
    const ok = n <= this.burst && waitNanos <= 0;
    if (ok) {
      this.last = t;
      this.tokens = tokens;
    }
    return ok;
  }
}
