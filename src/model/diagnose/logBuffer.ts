// The lines of one container log a Diagnose panel holds: the newest, up to a byte budget, so
// a log followed for hours (or one line of 1 MiB after another) keeps memory bounded. What
// fell off the front is counted, for "showing the last N KiB".
import type { LogLine } from './logLines';

/** Text held per log shown: about a screenful of screenfuls, and what Copy copies. */
export const LOG_BUFFER_BYTES = 4 * 1024 * 1024;

export class LogBuffer {
  private lines: LogLine[] = [];
  /** Index of the first line still held (lines before it are dropped lazily, in bulk). */
  private head = 0;
  private held = 0;
  private heldLogBytes = 0;
  private droppedLines = 0;
  private droppedBytes = 0;
  /** Lines added since the last clear: a reader that has seen `n` needs the lines after it. */
  added = 0;
  /** Grows with each clear: a reader of an older generation starts again. */
  generation = 0;

  constructor(private readonly budget = LOG_BUFFER_BYTES) {}

  add(lines: readonly LogLine[]): void {
    this.added += lines.length;
    for (const l of lines) {
      this.lines.push(l);
      this.held += size(l);
      this.heldLogBytes += l.bytes;
    }
    while (this.held > this.budget && this.head < this.lines.length - 1) {
      const l = this.lines[this.head++];
      this.held -= size(l);
      this.heldLogBytes -= l.bytes;
      this.droppedLines++;
      this.droppedBytes += l.bytes;
    }
    // Compact once the dropped front is as long as what is held.
    if (this.head > 1024 && this.head * 2 > this.lines.length) {
      this.lines = this.lines.slice(this.head);
      this.head = 0;
    }
  }

  clear(): void {
    this.lines = [];
    this.head = 0;
    this.held = 0;
    this.heldLogBytes = 0;
    this.droppedLines = 0;
    this.droppedBytes = 0;
    this.added = 0;
    this.generation++;
  }

  /** The lines added after the first `seen` (those still held). */
  since(seen: number): LogLine[] {
    const fresh = this.added - seen;
    if (fresh <= 0) return [];
    return this.lines.slice(Math.max(this.head, this.lines.length - fresh));
  }

  get length(): number {
    return this.lines.length - this.head;
  }

  /** Bytes of log the held lines had. */
  get bytes(): number {
    return this.heldLogBytes;
  }

  get dropped(): { lines: number; bytes: number } {
    return { lines: this.droppedLines, bytes: this.droppedBytes };
  }

  /** The held lines, oldest first; `from` skips the first ones. */
  slice(from = 0): LogLine[] {
    return this.lines.slice(this.head + from);
  }

  /** The held log as text, with or without the kubelet's timestamps. */
  text(timestamps: boolean): string {
    const out: string[] = [];
    for (let i = this.head; i < this.lines.length; i++) {
      const l = this.lines[i];
      out.push(timestamps && l.timestamp ? `${l.timestamp} ${l.text}` : l.text);
    }
    return out.length ? `${out.join('\n')}\n` : '';
  }
}

/** Memory a line takes, roughly: UTF-16 text plus its timestamp and bookkeeping. */
function size(l: LogLine): number {
  return l.text.length * 2 + 96;
}
