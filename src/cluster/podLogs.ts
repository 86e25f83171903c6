// A container's log through the apiserver's pods/log subresource, which proxies it from the
// node's kubelet: read once (bounded by tailLines and limitBytes), followed (and resumed
// after a broken stream from the last line's timestamp, with no line lost or repeated), or
// written to a file as it arrives (never whole in memory). Timestamps are always asked for:
// they order lines and resume a follow; whether they are shown is the panel's choice.
import * as fs from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { StatusError } from '../record/errors';
import { LineSplitter, ResumePoint, type LogLine } from '../model/diagnose/logLines';
import type { ApiClient } from './apiRequest';
import { DeadlineError, KubeconfigError } from './errors';

/** The apiserver answers a log request once the kubelet has: past this, the kubelet is taken as not answering. */
export const LOG_ANSWER_DEADLINE_MS = 15_000;
/**
 * A followed log has no such deadline: the kubelet sends its answer's headers with the first
 * line, so a container that writes nothing and a kubelet that does not answer look the same
 * (kubectl logs -f waits too). The pod's status, watched beside it, tells them apart.
 */
export const FOLLOW_OPEN_DEADLINE_MS = Infinity;
/** A broken follow is opened again after this, doubling up to LOG_RETRY_MAX_MS while it fails. */
export const LOG_RETRY_INITIAL_MS = 250;
export const LOG_RETRY_MAX_MS = 5_000;

export interface LogTarget {
  readonly namespace: string;
  readonly pod: string;
  readonly container: string;
  /** The node whose kubelet serves the log (for messages). */
  readonly node?: string;
}

export interface LogOptions {
  readonly previous?: boolean;
  readonly follow?: boolean;
  readonly tailLines?: number;
  readonly limitBytes?: number;
  /** RFC3339 (nanoseconds allowed; the apiserver passes whole seconds on to the kubelet). */
  readonly sinceTime?: string;
  /** Default true: lines carry the kubelet's timestamp. */
  readonly timestamps?: boolean;
}

/** The pods/log path, with its query, as kubectl logs builds it. */
export function podLogPath(t: LogTarget, o: LogOptions): string {
  const q = new URLSearchParams({ container: t.container });
  if (o.timestamps !== false) q.set('timestamps', 'true');
  if (o.previous) q.set('previous', 'true');
  if (o.follow) q.set('follow', 'true');
  if (o.tailLines !== undefined) q.set('tailLines', String(o.tailLines));
  if (o.limitBytes !== undefined) q.set('limitBytes', String(o.limitBytes));
  if (o.sinceTime) q.set('sinceTime', o.sinceTime);
  return `/api/v1/namespaces/${encodeURIComponent(t.namespace)}/pods/${encodeURIComponent(t.pod)}/log?${q.toString()}`;
}

/** The equivalent kubectl command (what a user can run to see the same). */
export function kubectlLogsCommand(t: LogTarget, o: LogOptions, context?: string): string {
  const q = (s: string) => (/^[A-Za-z0-9._/:=@%+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);
  const parts = ['kubectl', 'logs'];
  if (context) parts.push('--context', q(context));
  parts.push('-n', q(t.namespace), q(t.pod), '-c', q(t.container));
  if (o.previous) parts.push('--previous');
  if (o.follow) parts.push('-f');
  if (o.tailLines !== undefined) parts.push(`--tail=${o.tailLines}`);
  if (o.limitBytes !== undefined) parts.push(`--limit-bytes=${o.limitBytes}`);
  if (o.timestamps) parts.push('--timestamps');
  return parts.join(' ');
}

/** Why a log cannot be read, said so the user knows what to fix; `final` when trying again would not help. */
export interface LogProblem {
  readonly message: string;
  readonly final: boolean;
}

export function logProblem(e: unknown, t: LogTarget, o: LogOptions): LogProblem {
  const which = `${o.previous ? 'the previous log' : 'the log'} of container ${t.container} in Pod/${t.pod}`;
  if (e instanceof StatusError) {
    if (e.code === 403) {
      return { final: true, message: `Cannot read ${which}: your user may not get pods/log in namespace ${t.namespace} (it needs the verb "get" on the resource "pods/log"). The apiserver said: ${e.message}` };
    }
    if (e.code === 401) return { final: true, message: `Cannot read ${which}: the apiserver does not accept your credentials (${e.message}).` };
    if (e.code === 404) return { final: true, message: `Cannot read ${which}: the pod is gone (${e.message}).` };
    if (e.code === 400) {
      // The kubelet's words, and KWOK's (it looks for the previous log file by a name it leaves empty).
      if (/previous terminated container .* not found/i.test(e.message) || (o.previous && /failed to read log file .*is a directory/i.test(e.message))) return { final: true, message: `Container ${t.container} in Pod/${t.pod} has no previous instance: it has not restarted on this node.` };
      if (/waiting to start|ContainerCreating|PodInitializing/i.test(e.message)) return { final: true, message: `Container ${t.container} in Pod/${t.pod} has not started yet: ${e.message}` };
      return { final: true, message: `Cannot read ${which}: ${e.message}` };
    }
    // 5xx: the apiserver could not get it from the kubelet (a dial or TLS timeout, a refusal).
    return { final: false, message: `The kubelet on node ${t.node || '(unknown)'} did not give ${which}: ${e.message}` };
  }
  if (e instanceof DeadlineError) return { final: false, message: `The kubelet on node ${t.node || '(unknown)'} did not answer within ${LOG_ANSWER_DEADLINE_MS / 1000} s for ${which} (the apiserver proxies logs from it).` };
  if (e instanceof KubeconfigError) return { final: true, message: e.message };
  return { final: false, message: `Cannot reach the apiserver for ${which}: ${(e as Error)?.message ?? String(e)}` };
}

export interface LogRead {
  readonly lines: LogLine[];
  /** The answer reached limitBytes (there is more). */
  readonly cut: boolean;
  /** Bytes received. */
  readonly bytes: number;
}

/** Reads a log once, bounded by the options' tailLines and limitBytes. */
export async function readLog(client: ApiClient, t: LogTarget, o: LogOptions, signal: AbortSignal): Promise<LogRead> {
  const body = await client.stream(podLogPath(t, { ...o, follow: false }), signal, LOG_ANSWER_DEADLINE_MS);
  const splitter = new LineSplitter();
  const lines: LogLine[] = [];
  let bytes = 0;
  for await (const chunk of body) {
    bytes += (chunk as Buffer).length;
    for (const l of splitter.push(chunk as Buffer)) lines.push(l);
  }
  const last = splitter.end();
  if (last) lines.push(last);
  return { lines, bytes, cut: o.limitBytes !== undefined && bytes >= o.limitBytes };
}

/** Writes a log to a file as it arrives, with the kubelet's timestamps or without. */
export async function saveLog(client: ApiClient, t: LogTarget, o: LogOptions, file: string, signal: AbortSignal): Promise<number> {
  const body = await client.stream(podLogPath(t, { ...o, follow: false, tailLines: undefined, limitBytes: undefined }), signal, LOG_ANSWER_DEADLINE_MS);
  const out = fs.createWriteStream(file);
  await pipeline(body, out, { signal });
  return out.bytesWritten;
}

export interface FollowHandlers {
  /** New lines, in order, none seen before. */
  onLines(lines: LogLine[]): void;
  /** A problem: `final` ends the follow; otherwise it is opened again after `retryInMs`. */
  onProblem(p: LogProblem & { retryInMs?: number }): void;
  /** The stream is open (again): problems so far are over. */
  onOpen?(resumed: boolean): void;
}

/**
 * Follows a log: opened with tailLines, then, whenever the stream breaks or ends (an
 * apiserver restart, a kubelet gone for a while), opened again from the last line's
 * timestamp, the lines already seen skipped. Ends on a final problem or stop().
 */
export class LogFollower {
  private readonly controller = new AbortController();
  private readonly resume = new ResumePoint();
  private running: Promise<void> | undefined;
  /** Lines handed over; streams opened. */
  lines = 0;
  opens = 0;

  constructor(
    private readonly client: ApiClient,
    private readonly target: LogTarget,
    private readonly options: LogOptions,
    private readonly handlers: FollowHandlers,
  ) {}

  start(): void {
    this.running ??= this.loop();
  }

  async stop(): Promise<void> {
    this.controller.abort(new Error('stopped'));
    await this.running;
  }

  private async loop(): Promise<void> {
    const signal = this.controller.signal;
    let wait = LOG_RETRY_INITIAL_MS;
    while (!signal.aborted) {
      const resumed = this.resume.timestamp !== '';
      const o: LogOptions = resumed ? { ...this.options, follow: true, tailLines: undefined, sinceTime: this.resume.timestamp } : { ...this.options, follow: true };
      const splitter = new LineSplitter();
      try {
        const body = await this.client.stream(podLogPath(this.target, o), signal, FOLLOW_OPEN_DEADLINE_MS);
        this.opens++;
        if (resumed) this.resume.resumed();
        this.handlers.onOpen?.(resumed);
        for await (const chunk of body) {
          const fresh = splitter.push(chunk as Buffer).filter((l) => this.resume.accept(l));
          if (fresh.length) {
            // A stream that brought lines was healthy: the next break is retried soon again.
            wait = LOG_RETRY_INITIAL_MS;
            this.lines += fresh.length;
            this.handlers.onLines(fresh);
          }
        }
        // Ended without an error: the apiserver or the kubelet closed it. Open it again.
      } catch (e) {
        if (signal.aborted) return;
        const p = logProblem(e, this.target, o);
        if (p.final) return this.handlers.onProblem(p);
        this.handlers.onProblem({ ...p, retryInMs: wait });
      }
      // A partial last line comes again whole from the resumed stream.
      splitter.reset();
      await sleep(wait, signal);
      wait = Math.min(wait * 2, LOG_RETRY_MAX_MS);
    }
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
