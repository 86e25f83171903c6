// Where the test cluster's container logs live, for tests that read them through
// `kubectl logs` or the apiserver's pods/log: KWOK serves each container's log from a file
// in the CRI format the kubelet reads (kwokLogRules.ts says which file for which container).
// Tests write their own pods' files with criLine().
import * as path from 'node:path';

/** The namespace of the log tests' own pods; the tests create it and the pods. */
export const LOGS_NAMESPACE = 'kev-logs';
/** The container of each of those pods whose log comes from its own file. */
export const LOGS_CONTAINER = 'app';

/**
 * The log files, each in kwokLogsDir(). The pods of LOGS_NAMESPACE named ticker, hostile and
 * big (container LOGS_CONTAINER) read the file of their name: empty at the plane's start, the
 * tests write them. checkout and checkoutPrevious are the seeded crash loop's current and
 * previous instance; steady is every other container's, and grows by a line a second.
 */
export const LOG_FILES = {
  ticker: 'ticker.log',
  hostile: 'hostile.log',
  big: 'big.log',
  checkout: 'checkout.log',
  checkoutPrevious: 'checkout-previous.log',
  steady: 'steady.log',
} as const;
export type LogFile = keyof typeof LOG_FILES;
/** The pods whose container LOGS_CONTAINER has a file of its own (their names are the files' keys). */
export const TEST_LOG_PODS = ['ticker', 'hostile', 'big'] as const satisfies readonly LogFile[];

/** Above this size the steady log is moved to steady.log.1 and a fresh file begins, as the kubelet rotates at 10 MiB. */
export const STEADY_ROTATE_BYTES = 5 * 1024 * 1024;

/** The folder of every log file of the plane in planeDir. */
export function kwokLogsDir(planeDir: string): string {
  return path.join(planeDir, 'kwok', 'logs');
}

/** The path of one log file of the plane in planeDir. */
export function kwokLogFile(planeDir: string, file: LogFile): string {
  return path.join(kwokLogsDir(planeDir), LOG_FILES[file]);
}

/**
 * A time as Go's RFC3339Nano prints it, which is how the container runtime stamps each line:
 * UTC, the fraction without trailing zeros. nanos adds to the Date's milliseconds (0 to 999999).
 */
export function rfc3339Nano(time: Date, nanos = 0): string {
  const fraction = String(time.getUTCMilliseconds() * 1_000_000 + nanos).padStart(9, '0').replace(/0+$/, '');
  return `${time.toISOString().slice(0, 19)}${fraction ? `.${fraction}` : ''}Z`;
}

/**
 * One line of a container log in the CRI format (`<time> <stream> <F|P> <text>\n`): F ends a
 * line of the container's output, P is a part the runtime split off a longer one. A string
 * time is written as it is. text cannot hold a newline: each line of output is a line here.
 */
export function criLine(time: Date | string, stream: 'stdout' | 'stderr', text: string, partial = false): string {
  if (text.includes('\n')) throw new RangeError('criLine: text holds a newline; write one CRI line per line of output');
  return `${typeof time === 'string' ? time : rfc3339Nano(time)} ${stream} ${partial ? 'P' : 'F'} ${text}\n`;
}
