// What of a session's log buffer the page has not been sent yet, as one message: the lines
// added since the last one (a new log, or the page drawn afresh, sends them all again), at
// most MAX_LINES_PER_MESSAGE, each cut for showing. Plain Node: the panel posts what it
// gives, and the benchmark measures the same work.
import type { LogBuffer } from '../../model/diagnose/logBuffer';
import { shownLine } from './diagnoseText';
import type { LogLinesMessage } from './protocol';

/** Changes (the status, new log lines) are gathered this long into one message. */
export const UPDATE_MS = 100;
/** Log lines sent in one message at most (the page keeps fewer still). */
export const MAX_LINES_PER_MESSAGE = 5_000;

export class LogFeed {
  private sentGeneration = -1;
  private sentLines = 0;

  constructor(private readonly buffer: LogBuffer) {}

  /** The page starts afresh (a reload, or it was hidden): everything held goes again. */
  restart(): void {
    this.sentGeneration = -1;
  }

  /** The lines message due now, or undefined when nothing is new. */
  next(): LogLinesMessage | undefined {
    const b = this.buffer;
    const reset = b.generation !== this.sentGeneration;
    if (reset) {
      this.sentGeneration = b.generation;
      this.sentLines = 0;
    }
    const fresh = b.since(this.sentLines);
    this.sentLines = b.added;
    if (!reset && fresh.length === 0) return undefined;
    const lines = fresh.slice(-MAX_LINES_PER_MESSAGE).map((l) => [l.timestamp, shownLine(l.text, l.droppedBytes)] as const);
    return { type: 'lines', reset, lines };
  }
}
