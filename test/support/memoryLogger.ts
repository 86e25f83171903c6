// A logger that keeps each line, so a test can read what the event machinery logged:
// `INFO message k="v"` or `ERROR message err="..." k="v"`, klog's text format.
import { errorText, formatKeysAndValues, type KeysAndValues, type Logger } from '../../src/record/logger';

function formatLogLine(level: 'INFO' | 'ERROR', message: string, kv: KeysAndValues = [], err?: unknown): string {
  const errPart = err === undefined ? '' : ` err=${JSON.stringify(errorText(err))}`;
  const rest = formatKeysAndValues(kv);
  return `${level} ${message}${errPart}${rest ? ` ${rest}` : ''}`;
}

export class MemoryLogger implements Logger {
  readonly lines: string[] = [];
  constructor(private readonly maxVerbosity = 10) {}
  info(verbosity: number, message: string, kv?: KeysAndValues): void {
    if (verbosity <= this.maxVerbosity) this.lines.push(formatLogLine('INFO', message, kv));
  }
  error(err: unknown, message: string, kv?: KeysAndValues): void {
    this.lines.push(formatLogLine('ERROR', message, kv, err));
  }
}
