// A container log as the apiserver streams it with timestamps=true: bytes cut into lines at
// "\n" (a chunk may end mid-line, mid-character), each line's kubelet timestamp split off,
// its bytes decoded as UTF-8 with U+FFFD for what is not, and its text made inert (controls
// and bidi overrides shown, never acted on). A line longer than MAX_LINE_BYTES keeps its
// first MAX_LINE_BYTES and counts the rest, so a binary log with no "\n" is never held whole.
import { displayText } from '../displayText';

/** Bytes of one line kept; the rest is counted, not held (a 1 MiB line fits whole). */
export const MAX_LINE_BYTES = 1024 * 1024 + 64;

export interface LogLine {
  /** The kubelet's timestamp as it sent it (RFC3339 with nanoseconds), or '' when the line has none. */
  readonly timestamp: string;
  /** Orders timestamps to the nanosecond (RFC3339Nano drops trailing zeros; strings do not compare). */
  readonly key: string;
  /** The line's text, inert: decoded, controls made visible. */
  readonly text: string;
  /** Bytes the line had, its timestamp excluded. */
  readonly bytes: number;
  /** Bytes past MAX_LINE_BYTES that were not kept. */
  readonly droppedBytes: number;
}

const TIMESTAMP = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2}) /;

/** A sortable key for an RFC3339 timestamp with up to nanoseconds: seconds since the epoch, then nanoseconds. */
export function timestampKey(seconds: string, fraction: string | undefined, zone: string): string {
  const s = Math.floor(Date.parse(`${seconds}${zone}`) / 1000);
  return `${String(s).padStart(12, '0')}.${(fraction ?? '').padEnd(9, '0')}`;
}

const decoder = new TextDecoder('utf-8', { fatal: false });

/** One line's bytes (no "\n") as a LogLine. */
export function parseLine(bytes: Buffer, droppedBytes = 0): LogLine {
  // The timestamp is ASCII: read it from the first bytes only.
  const head = bytes.subarray(0, 40).toString('latin1');
  const m = TIMESTAMP.exec(head);
  const body = m ? bytes.subarray(m[0].length) : bytes;
  const raw = decoder.decode(body);
  return {
    timestamp: m ? m[0].slice(0, -1) : '',
    key: m ? timestampKey(m[1], m[2], m[3]) : '',
    text: displayText(raw.endsWith('\r') ? raw.slice(0, -1) : raw),
    bytes: body.length + droppedBytes,
    droppedBytes,
  };
}

/** Cuts a byte stream into lines; what follows the last "\n" waits for the next chunk. */
export class LineSplitter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private dropped = 0;

  /** The complete lines in this chunk (and the one it completes). */
  push(chunk: Buffer): LogLine[] {
    const out: LogLine[] = [];
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(0x0a, start);
      if (nl < 0) break;
      this.keep(chunk.subarray(start, nl));
      out.push(this.take());
      start = nl + 1;
    }
    if (start < chunk.length) this.keep(chunk.subarray(start));
    return out;
  }

  /** The last line when the stream ended without "\n" (a limitBytes cut, or a log's last partial line). */
  end(): LogLine | undefined {
    if (this.pendingBytes === 0 && this.dropped === 0) return undefined;
    return this.take();
  }

  /** Forgets a partial line (a stream that broke mid-line sends it again whole on resume). */
  reset(): void {
    this.pending = [];
    this.pendingBytes = 0;
    this.dropped = 0;
  }

  private keep(part: Buffer): void {
    const room = MAX_LINE_BYTES - this.pendingBytes;
    if (part.length > room) {
      if (room > 0) this.pending.push(Buffer.from(part.subarray(0, room)));
      this.pendingBytes += Math.max(room, 0);
      this.dropped += part.length - Math.max(room, 0);
      return;
    }
    // A copy: the chunk's memory is the stream's and may be reused.
    this.pending.push(Buffer.from(part));
    this.pendingBytes += part.length;
  }

  private take(): LogLine {
    const bytes = this.pending.length === 1 ? this.pending[0] : Buffer.concat(this.pending, this.pendingBytes);
    const line = parseLine(bytes, this.dropped);
    this.reset();
    return line;
  }
}

/**
 * Where a followed log has got to, so that a stream opened again with sinceTime (which the
 * apiserver passes on to the kubelet cut to whole seconds) loses no line and repeats none:
 * lines before the newest one seen are skipped, and of those with its very timestamp, as many
 * as were already seen. Only a resumed stream's repeats are skipped: within one stream every
 * line is new, even one stamped a little earlier than the line before it (containerd stamps
 * stdout and stderr lines in separate goroutines, so the file is not always in time order).
 */
export class ResumePoint {
  private lastKey = '';
  private lastTimestamp = '';
  private atLast = 0;
  /** Lines with the last key still to skip in the stream being read. */
  private skipping = 0;
  /** A resumed stream is still sending lines seen before. */
  private repeating = false;

  get timestamp(): string {
    return this.lastTimestamp;
  }

  /** A new stream starts from sinceTime: its lines up to where we were are repeats. */
  resumed(): void {
    this.skipping = this.atLast;
    this.repeating = this.lastKey !== '';
  }

  /** Whether the line is new (and then, if it is the newest, it becomes the point to resume from). */
  accept(line: LogLine): boolean {
    if (!line.key) return true;
    if (this.repeating) {
      if (line.key < this.lastKey) return false;
      if (line.key === this.lastKey && this.skipping > 0) {
        this.skipping--;
        return false;
      }
      this.repeating = false;
    }
    if (line.key === this.lastKey) this.atLast++;
    else if (line.key > this.lastKey) {
      this.lastKey = line.key;
      this.lastTimestamp = line.timestamp;
      this.atLast = 1;
    }
    this.skipping = 0;
    return true;
  }
}
