// The control plane moved to the background, as if it were another machine: on this 2-core
// machine the apiserver and etcd serving a list take the cores our main thread waits for
// (cpuWait.ts measures that wait). Linux's scheduler shares the CPU between autogroups (one
// per session: each component is started in a session of its own) before it shares it
// between threads; an autogroup's nice of 19 gives it the cores only when nothing else wants
// them, so our side runs whenever it is ready, as beside a remote apiserver.
import * as fs from 'node:fs';

/** The lowest priority an autogroup takes. */
const BACKGROUND_NICE = 19;

/** Whether the kernel schedules by autogroup (else a process's nice would be the lever). */
export function autogroupsEnabled(): boolean {
  try {
    return fs.readFileSync('/proc/sys/kernel/sched_autogroup_enabled', 'utf8').trim() === '1';
  } catch {
    return false;
  }
}

/** Runs f with the autogroups of `pids` at the lowest priority, then puts them back. */
export async function inBackground<T>(pids: readonly number[], f: () => Promise<T>): Promise<T> {
  const before = pids.map((pid) => Number(/nice (-?\d+)/.exec(fs.readFileSync(`/proc/${pid}/autogroup`, 'utf8'))?.[1] ?? 0));
  for (const pid of pids) fs.writeFileSync(`/proc/${pid}/autogroup`, String(BACKGROUND_NICE));
  try {
    return await f();
  } finally {
    pids.forEach((pid, i) => fs.writeFileSync(`/proc/${pid}/autogroup`, String(before[i])));
  }
}
