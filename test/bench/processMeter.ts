// What another process (the apiserver, etcd) spends while a side runs, from /proc: its CPU
// time (user and system, every thread) and its peak resident set, which /proc/<pid>/clear_refs
// resets at the start so the peak is this side's. Linux only.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat's utime and stime. */
const TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
/** Written to clear_refs: resets the peak resident set (VmHWM) to the current one. */
const RESET_PEAK_RSS = '5';

export interface ProcessFigures {
  readonly cpuMs: number;
  readonly peakRssMiB: number;
}

function cpuTicks(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

function statusKiB(pid: number, field: string): number {
  const line = fs.readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith(`${field}:`));
  return Number(/(\d+)/.exec(line ?? '')?.[1] ?? NaN);
}

/** Starts measuring `pid`; stop() gives what it spent since. */
export function meterProcess(pid: number): { stop(): ProcessFigures } {
  fs.writeFileSync(`/proc/${pid}/clear_refs`, RESET_PEAK_RSS);
  const ticks = cpuTicks(pid);
  return {
    stop: () => ({ cpuMs: ((cpuTicks(pid) - ticks) * 1000) / TICKS_PER_SECOND, peakRssMiB: statusKiB(pid, 'VmHWM') / 1024 }),
  };
}
