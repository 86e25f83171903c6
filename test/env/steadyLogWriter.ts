// The steady log's writer: a component of the control plane (controlPlane.ts runs it with
// Node, in a process group of its own, from start to stop) that keeps the log of every
// container without a log of its own growing, one access-log line a second, so `kubectl
// logs -f` has something to follow. Usage: node steadyLogWriter.js FILE
// A fresh (empty) FILE first gets a backlog, as if the service had run for a while. Above
// STEADY_ROTATE_BYTES the file is moved to FILE.1 and a fresh one begins: a follower sees the
// new file appear under the name it follows and reopens it, as with the kubelet's rotation.
import * as fs from 'node:fs';
import { prng } from '../support/prng';
import { accessLogLine } from './accessLog';
import { criLine, rfc3339Nano, STEADY_ROTATE_BYTES } from './kwokLogs';

/** One line a second. */
const INTERVAL_MS = 1000;
/** Lines of history a fresh file starts with (one a second): `--tail` and `--since-time` have something to cut. */
const BACKLOG_LINES = 300;
/** Any fixed seed: the same requests every run. */
const SEED = 8080;

const file = process.argv[2];
const random = prng(SEED);

function line(time: Date): string {
  return criLine(rfc3339Nano(time, Math.floor(random() * 1_000_000)), 'stdout', accessLogLine(time, random));
}

function size(): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}

function append(text: string): void {
  if (size() >= STEADY_ROTATE_BYTES) fs.renameSync(file, `${file}.1`);
  fs.appendFileSync(file, text);
}

function main(): void {
  if (!file) {
    process.stderr.write('usage: steadyLogWriter.js FILE\n');
    process.exit(2);
  }
  if (size() === 0) {
    const now = Date.now();
    const backlog: string[] = [];
    for (let i = BACKLOG_LINES; i > 0; i--) backlog.push(line(new Date(now - i * INTERVAL_MS)));
    append(backlog.join(''));
  }
  setInterval(() => {
    try {
      append(line(new Date()));
    } catch (e) {
      // The plane's folder is gone: the plane it belonged to was removed.
      process.stderr.write(`steady log writer: ${(e as Error).message}\n`);
      process.exit(1);
    }
  }, INTERVAL_MS);
}

main();
