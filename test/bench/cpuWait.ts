// Where a stall's time went: on a core running this thread, or waiting for one. Linux
// reports both for each thread (/proc/<pid>/task/<tid>/schedstat: nanoseconds on a CPU,
// nanoseconds runnable on a run queue); a probe timer reads the main thread's between its
// ticks. On two cores shared with the apiserver and etcd serving the list, a stall can be
// the scheduler's, not the code's; this tells the two apart.
import * as fs from 'node:fs';

/** The probe's period (ms): a stall is attributed to this precision. */
const PROBE_MS = 5;

export interface CpuWaitFigures {
  /** The longest time between two probe ticks (ms): the probe's view of the longest stall. */
  readonly longestGapMs: number;
  /** Of that gap, the time the main thread waited for a core (ms). */
  readonly longestGapWaitMs: number;
  /**
   * The most time the main thread ran on a core between two ticks (ms): the code's own
   * longest stall, to a scheduler tick (the kernel counts a running slice at its next tick).
   */
  readonly maxOnCpuMs: number;
}

/** Starts the probe; undefined where the kernel does not report schedstat. */
export function startCpuWaitProbe(): { stop(): CpuWaitFigures } | undefined {
  let fd: number;
  try {
    fd = fs.openSync(`/proc/self/task/${process.pid}/schedstat`, 'r');
  } catch {
    return undefined;
  }
  // Read again from the start of the open file each tick: a fresh open and read cost 38 µs.
  const buffer = Buffer.alloc(128);
  const read = (): [number, number] => {
    const n = fs.readSync(fd, buffer, 0, buffer.length, 0);
    const [onCpu, waiting] = buffer.toString('latin1', 0, n).split(' ').map(Number);
    return [onCpu / 1e6, waiting / 1e6];
  };
  let longestGapMs = 0;
  let longestGapWaitMs = 0;
  let maxOnCpuMs = 0;
  let lastAt = performance.now();
  let [lastOnCpu, lastWaiting] = read();
  const timer = setInterval(() => {
    const at = performance.now();
    const [onCpu, waiting] = read();
    if (at - lastAt > longestGapMs) {
      longestGapMs = at - lastAt;
      longestGapWaitMs = waiting - lastWaiting;
    }
    maxOnCpuMs = Math.max(maxOnCpuMs, onCpu - lastOnCpu);
    [lastAt, lastOnCpu, lastWaiting] = [at, onCpu, waiting];
  }, PROBE_MS);
  return {
    stop: () => {
      clearInterval(timer);
      fs.closeSync(fd);
      return { longestGapMs, longestGapWaitMs, maxOnCpuMs };
    },
  };
}
