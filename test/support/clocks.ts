// The correlator's test clocks, as k8s.io/utils/clock/testing has them: one that reads what
// it was last set to, one that moves forward on every reading. A reading is nanoseconds
// since the Unix epoch (src/record/clock.ts).
import type { PassiveClock } from '../../src/record/clock';

/** FakePassiveClock: reads what it was last set to. */
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

/** SimpleIntervalClock: moves forward by `stepBy` on every reading. */
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
