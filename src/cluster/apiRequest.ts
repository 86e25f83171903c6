// One request to the apiserver over a context's transport, with a real deadline over the
// whole request (credentials, DNS, TCP, proxy, TLS handshake, headers and body; for a watch,
// until its headers), and client-go's split of failures: an HTTP answer that is not 2xx is a
// StatusError (never retried), a configuration problem is a KubeconfigError (waits for the
// user), and no answer at all is a plain Error or a DeadlineError (retried with backoff).
import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import * as zlib from 'node:zlib';
import { StatusError, type StatusCause } from '../record/errors';
import { DeadlineError } from './errors';
import { ListItemReader, type ListText } from './listItems';
import { decodeStatus } from './protobuf/eventMessages';
import { envelope, isProtobuf } from './protobuf/watchFrames';
import type { RestConfig } from './restConfig';
import { abortReason, ClusterTransport } from './transport';

/** A request with no complete answer by then fails, as a transport failure. */
export const REQUEST_TIMEOUT_MS = 30_000;

export interface ApiRequest {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  readonly path: string;
  readonly body?: string;
  readonly contentType?: string;
  readonly signal?: AbortSignal;
  /** This request's deadline, instead of the client's. */
  readonly timeoutMs?: number;
  /** The media type asked for (metadata-only lists ask for PartialObjectMetadataList). */
  readonly accept?: string;
}

export interface ListRequest {
  readonly path: string;
  readonly signal?: AbortSignal;
  /** The media type asked for (metadata-only lists ask for PartialObjectMetadataList). */
  readonly accept?: string;
  /**
   * Called once with the list's metadata as soon as it has arrived, before the items (the
   * apiserver writes a list's metadata first): a paged list asks for its next page then.
   */
  readonly onListMetadata?: (metadata: ListMetadata) => void;
}

export interface ListMetadata {
  readonly resourceVersion?: string;
  readonly continue?: string;
}

interface Status {
  kind?: string;
  message?: string;
  reason?: string;
  code?: number;
  details?: { causes?: StatusCause[] };
}

/**
 * A deadline over a piece of work: its signal aborts with a DeadlineError when the time is
 * up, or with the outer signal's reason when that aborts first. Infinity sets none.
 */
class Deadline {
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout | undefined;
  private readonly onOuterAbort: () => void;

  constructor(
    ms: number,
    what: string,
    private readonly outer?: AbortSignal,
  ) {
    if (Number.isFinite(ms)) this.timer = setTimeout(() => this.controller.abort(new DeadlineError(`${what}: no complete answer within ${formatMs(ms)} (deadline over the whole request)`, ms)), ms);
    this.onOuterAbort = () => this.controller.abort(abortReason(outer as AbortSignal));
    if (outer?.aborted) this.onOuterAbort();
    else outer?.addEventListener('abort', this.onOuterAbort, { once: true });
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  clear(): void {
    clearTimeout(this.timer);
    this.outer?.removeEventListener('abort', this.onOuterAbort);
  }
}

function formatMs(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

/** The body as it arrives, inflated when the apiserver compressed it. */
function bodyOf(res: IncomingMessage): Readable {
  if (res.headers['content-encoding'] !== 'gzip') return res;
  const gunzip = zlib.createGunzip();
  res.on('error', (e) => gunzip.destroy(e));
  gunzip.on('close', () => res.destroy());
  return res.pipe(gunzip);
}

/** Reads a whole body; the signal's abort destroys it with the signal's reason. */
async function readAll(res: IncomingMessage, signal: AbortSignal): Promise<Buffer> {
  const chunks: Buffer[] = [];
  await readChunks(res, signal, (chunk) => chunks.push(chunk));
  return Buffer.concat(chunks);
}

/** Hands each chunk of a body over as it arrives; the signal's abort destroys it with the signal's reason. */
async function readChunks(res: IncomingMessage, signal: AbortSignal, onChunk: (chunk: Buffer) => void): Promise<void> {
  const body = bodyOf(res);
  const onAbort = () => {
    res.destroy(abortReason(signal));
    body.destroy(abortReason(signal));
  };
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    for await (const chunk of body) onChunk(chunk as Buffer);
    if (signal.aborted) throw abortReason(signal);
  } catch (e) {
    throw signal.aborted ? abortReason(signal) : e;
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

/**
 * Sends requests for one kubeconfig context. Built from a RestConfig it owns its transport;
 * built from a ClusterTransport it shares that context's keep-alive connections, and
 * dispose() leaves them to the transport's owner.
 */
export class ApiClient {
  readonly transport: ClusterTransport;
  private readonly ownsTransport: boolean;

  constructor(
    source: RestConfig | ClusterTransport,
    private readonly timeoutMs = REQUEST_TIMEOUT_MS,
  ) {
    this.ownsTransport = !(source instanceof ClusterTransport);
    this.transport = source instanceof ClusterTransport ? source : new ClusterTransport(source);
  }

  get server(): string {
    return this.transport.server;
  }

  /** Who the requests are from: server, user and impersonation (the history's key). */
  get identity(): string {
    return this.transport.identity;
  }

  /**
   * A GET whose body is read as it arrives (a watch). Resolves with the body once the apiserver
   * answers 2xx, within the deadline; rejects with a StatusError otherwise. Aborting the
   * signal ends it.
   */
  async stream(path: string, signal: AbortSignal, timeoutMs = this.timeoutMs, accept?: string): Promise<Readable> {
    return (await this.open(path, signal, timeoutMs, accept)).body;
  }

  /** As stream(), with the answer's Content-Type (a watch asked for protobuf may be answered in JSON). */
  async open(path: string, signal: AbortSignal, timeoutMs = this.timeoutMs, accept?: string): Promise<{ body: Readable; contentType: string | undefined }> {
    const deadline = new Deadline(timeoutMs, `GET ${path.split('?')[0]} (until the response headers)`, signal);
    let res: IncomingMessage;
    try {
      res = await this.transport.open({ method: 'GET', path, headers: accept ? { Accept: accept } : undefined }, deadline.signal);
      const code = res.statusCode ?? 0;
      if (code < 200 || code > 299) throw statusError(code, await readAll(res, deadline.signal), `GET ${path.split('?')[0]}`);
    } finally {
      deadline.clear();
    }
    // From here the caller's signal (and its watchdog) govern the stream.
    const body = bodyOf(res);
    const onAbort = () => {
      res.destroy(abortReason(signal));
      body.destroy(abortReason(signal));
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    body.on('close', () => signal.removeEventListener('abort', onAbort));
    return { body, contentType: res.headers['content-type'] };
  }

  async request<T>(req: ApiRequest): Promise<T> {
    const where = `${req.method} ${req.path.split('?')[0]}`;
    const ms = req.timeoutMs ?? this.timeoutMs;
    const deadline = new Deadline(ms, where, req.signal);
    try {
      const headers: Record<string, string> = {};
      if (req.body !== undefined) headers['Content-Type'] = req.contentType ?? 'application/json';
      if (req.accept) headers.Accept = req.accept;
      const res = await this.transport.open({ method: req.method, path: req.path, headers, body: req.body }, deadline.signal);
      // The whole body is decoded at once: no chunk boundary can split a character.
      const code = res.statusCode ?? 0;
      const text = (await readAll(res, deadline.signal)).toString('utf8');
      if (code < 200 || code > 299) throw statusError(code, text, where);
      try {
        return JSON.parse(text) as T;
      } catch {
        throw new Error(`${where}: the apiserver answered ${code} with a body that is not JSON`);
      }
    } finally {
      deadline.clear();
    }
  }

  /**
   * A GET of a list, read as it arrives: the metadata goes to `onListMetadata` as soon as it
   * is in, and each item comes back as its own JSON text (ListItemReader), parsed by the
   * caller a few at a time. A non-2xx answer rejects with a StatusError, as request() does.
   */
  async list(req: ListRequest): Promise<ListText> {
    const where = `GET ${req.path.split('?')[0]}`;
    const deadline = new Deadline(this.timeoutMs, where, req.signal);
    try {
      const res = await this.transport.open({ method: 'GET', path: req.path, headers: req.accept ? { Accept: req.accept } : {} }, deadline.signal);
      const code = res.statusCode ?? 0;
      if (code < 200 || code > 299) throw statusError(code, await readAll(res, deadline.signal), where);
      const reader = new ListItemReader(req.onListMetadata);
      let broken = false;
      await readChunks(res, deadline.signal, (chunk) => {
        if (broken) return;
        try {
          reader.push(chunk);
        } catch (e) {
          // Not a list (the reader's and JSON.parse's errors); anything else is the caller's.
          if (!(e instanceof SyntaxError)) throw e;
          broken = true;
        }
      });
      try {
        if (!broken) return reader.end();
      } catch {
        /* reported below */
      }
      throw new Error(`${where}: the apiserver answered ${code} with a body that is not a JSON list`);
    } finally {
      deadline.clear();
    }
  }

  /** Closes the connections when this client owns them (it can still send more later). */
  dispose(): void {
    if (this.ownsTransport) this.transport.closeConnections();
  }
}

/** The apiserver's Status body (JSON, or protobuf when that was asked for) as a StatusError; a body that is not a Status still keeps the HTTP code. */
export function statusError(code: number, body: string | Buffer, what: string): StatusError {
  if (typeof body !== 'string' && isProtobuf(body)) {
    const status = protobufStatus(body);
    return new StatusError(code, status.reason ?? '', status.message || `${what}: HTTP ${code} (an answer in protobuf that is not a Status)`, status.details?.causes ?? []);
  }
  let status: Status = {};
  const text = typeof body === 'string' ? body : body.toString('utf8');
  try {
    status = JSON.parse(text) as Status;
  } catch {
    /* not a Status: use the code alone */
  }
  const message = status.message || `${what}: HTTP ${code}${text ? `: ${text.slice(0, 200)}` : ''}`;
  return new StatusError(code, status.reason ?? '', message, causesOf(status));
}

/** A protobuf body's Status, or nothing when it holds another object. */
function protobufStatus(body: Buffer): Status {
  try {
    const object = envelope(body);
    return object.kind === 'Status' ? decodeStatus(object.buf, object.start, object.end) : {};
  } catch {
    return {};
  }
}

/** A Status's causes as metav1.StatusCause: its JSON names the cause's type `reason`. */
function causesOf(status: Status): StatusCause[] {
  const causes = (status.details?.causes ?? []) as (StatusCause & { reason?: string })[];
  return causes.map((c) => ({ type: c.type ?? c.reason, message: c.message, field: c.field }));
}
