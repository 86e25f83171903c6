// The history file of one cluster: an append-only log of JSON lines.
//   first line   {"kubernetesEventsHistory":2,"identity":"<the cluster's identity>"}
//   then         {"e":<event>}    the event as it is now (new, changed or expired)
//                {"d":"<uid>"}    the event is gone (pruned or evicted)
// Saving appends only what changed; reading replays the lines in order. A process killed
// mid-append can only tear the last line, which reading skips (and the next save rewrites
// the file). Compaction writes one line per event to a temporary file, flushed to disk,
// then renamed over the log: the log is always the old whole or the new whole.
//
// Why not an embedded database: the extension must run on every platform VS Code does with
// no native build (which rules out SQLite and LevelDB bindings), and VS Code 1.90's Node 20
// has no node:sqlite; sql.js (SQLite in WebAssembly) keeps the database in memory and saves
// it by exporting the whole file, which is the cost this log exists to avoid.
//
// JSON keeps every string exactly: control characters and lone surrogates are written as
// \u escapes, so each line is valid UTF-8 and reads back to the same UTF-16 code units.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ClusterEvent } from './clusterEvent';

/** The log's format version; a file of another version is replaced at the next save. */
export const HISTORY_FORMAT = 2;

/** Characters of the identity's SHA-256 in the file name: collisions stay out of reach. */
const NAME_HASH_CHARS = 32;

const NEWLINE = 0x0a;

export type HistoryRecord = { readonly e: ClusterEvent } | { readonly d: string };

/**
 * The log of one cluster identity in the folder. The name is a hash: the identity holds a
 * server URL and a user name, which may not make a file name; the first line holds it whole.
 */
export function historyFile(folder: string, identity: string): string {
  return path.join(folder, `history-${createHash('sha256').update(identity).digest('hex').slice(0, NAME_HASH_CHARS)}.jsonl`);
}

export function headerLine(identity: string): string {
  return `${JSON.stringify({ kubernetesEventsHistory: HISTORY_FORMAT, identity })}\n`;
}

export function eventLine(e: ClusterEvent): string {
  return `${JSON.stringify({ e })}\n`;
}

export function deleteLine(uid: string): string {
  return `${JSON.stringify({ d: uid })}\n`;
}

/** Whether the first line is the header of this format and this identity. */
export function isHeader(line: string, identity: string): boolean {
  try {
    const h = JSON.parse(line) as { kubernetesEventsHistory?: unknown; identity?: unknown };
    return h.kubernetesEventsHistory === HISTORY_FORMAT && h.identity === identity;
  } catch {
    return false;
  }
}

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

function isEvent(x: unknown): x is ClusterEvent {
  if (!isObject(x) || !isObject(x.involvedObject)) return false;
  const o = x.involvedObject;
  return typeof x.uid === 'string' && typeof x.namespace === 'string' && typeof x.name === 'string' && typeof x.message === 'string' && typeof o.kind === 'string' && typeof o.name === 'string' && typeof o.namespace === 'string' && typeof o.uid === 'string';
}

/** One line as a record; undefined for a torn or foreign line. */
export function parseRecord(line: string): HistoryRecord | undefined {
  let r: unknown;
  try {
    r = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!isObject(r)) return undefined;
  if (typeof r.d === 'string') return { d: r.d };
  if (isEvent(r.e)) return { e: r.e };
  return undefined;
}

/** The lines of a log read into memory, one at a time (decoding one line at a time keeps each step short). */
export class LogLines {
  private pos = 0;

  constructor(private readonly buf: Buffer) {}

  /** The next line without its newline; undefined at the end. */
  next(): string | undefined {
    if (this.pos >= this.buf.length) return undefined;
    let end = this.buf.indexOf(NEWLINE, this.pos);
    if (end < 0) end = this.buf.length;
    const line = this.buf.toString('utf8', this.pos, end);
    this.pos = end + 1;
    return line;
  }

  /** The file does not end with a newline: its last write was cut short. */
  get torn(): boolean {
    return this.buf.length > 0 && this.buf[this.buf.length - 1] !== NEWLINE;
  }
}

/** Appends to an existing log (ENOENT if it has gone), flushed to disk before it resolves. */
export async function appendToLog(file: string, chunks: AsyncIterable<string>): Promise<void> {
  const h = await fs.promises.open(file, fs.constants.O_WRONLY | fs.constants.O_APPEND);
  try {
    for await (const chunk of chunks) await h.writeFile(chunk);
    await h.datasync();
  } finally {
    await h.close();
  }
}

/** Replaces the log by a new one, atomically: a temporary file, flushed, renamed over it. */
export async function rewriteLog(file: string, identity: string, chunks: AsyncIterable<string>): Promise<void> {
  await fs.promises.mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    const h = await fs.promises.open(tmp, 'w');
    try {
      await h.writeFile(headerLine(identity));
      for await (const chunk of chunks) await h.writeFile(chunk);
      await h.datasync();
    } finally {
      await h.close();
    }
    await fs.promises.rename(tmp, file);
  } catch (e) {
    await fs.promises.rm(tmp, { force: true }).catch(() => undefined);
    throw e;
  }
}
