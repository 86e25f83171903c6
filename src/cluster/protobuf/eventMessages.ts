// Events in the apiserver's protobuf encoding (k8s.io/api core/v1 and events/v1
// generated.proto, metav1's ObjectMeta, Time, MicroTime and Status), decoded into the shape
// the JSON encoding gives: only the fields normalizeEvent reads, times as the RFC 3339 text
// metav1.Time and MicroTime marshal to, null where JSON writes null.
import type { StatusCause } from '../../record/errors';
import type { RawEvent, RawReference } from '../normalize';
import { WireReader, WireType } from './wireReader';

/** A watch's object's annotations are read only for the end of the initial events (a bookmark). */
export interface EventMetadata {
  name?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  creationTimestamp?: string | null;
  annotations?: Record<string, string>;
}

export type DecodedEvent = RawEvent & { metadata?: EventMetadata };

/** A Status (an error answer, or a watch's ERROR event), in the fields its JSON gives. */
export interface DecodedStatus {
  kind: 'Status';
  status?: string;
  message?: string;
  reason?: string;
  code?: number;
  details?: { causes: StatusCause[] };
}

/** Go's zero time.Time (0001-01-01T00:00:00Z) in seconds since 1970: metav1.Time marshals it to null. */
const ZERO_TIME_SECONDS = -62135596800;
/** Formatted times kept by their second (a burst of events shares its seconds). */
const TIME_TEXTS_MAX = 4096;
const timeTexts = new Map<number, string>();

/** Seconds as RFC 3339 in UTC without a fraction (Go's time.RFC3339, which metav1.Time writes). */
function secondsText(seconds: number): string | null {
  const known = timeTexts.get(seconds);
  if (known !== undefined) return known;
  const date = new Date(seconds * 1000);
  if (Number.isNaN(date.getTime())) return null;
  const year = date.getUTCFullYear();
  if (year < 0 || year > 9999) return null;
  const text = `${date.toISOString().slice(0, 19)}Z`;
  if (timeTexts.size >= TIME_TEXTS_MAX) timeTexts.clear();
  timeTexts.set(seconds, text);
  return text;
}

/**
 * A metav1.Time or MicroTime message. Time keeps whole seconds (its Marshal writes no nanos,
 * its JSON none either); MicroTime keeps microseconds, six digits as RFC3339Micro writes them.
 */
function time(r: WireReader, micro: boolean): string | null {
  // A zero time is written as no bytes at all (Time.Marshal), and read back as zero.
  if (r.done) return null;
  let seconds = 0;
  let nanos = 0;
  while (!r.done) {
    const tag = r.tag();
    if (tag === ((1 << 3) | WireType.Varint)) seconds = r.int64();
    else if (tag === ((2 << 3) | WireType.Varint)) nanos = r.int32();
    else r.skip(tag & 7);
  }
  // Time's Unmarshal drops the nanos; MicroTime's keeps their microseconds.
  if (!micro) nanos = 0;
  if (seconds === ZERO_TIME_SECONDS && nanos < 1000) return null;
  const text = secondsText(seconds);
  if (text === null || !micro) return text;
  const microseconds = Math.floor(nanos / 1000);
  return `${text.slice(0, 19)}.${String(microseconds).padStart(6, '0')}Z`;
}

function metadata(r: WireReader): EventMetadata {
  const m: EventMetadata = { creationTimestamp: null };
  while (!r.done) {
    const tag = r.tag();
    switch (tag) {
      case (1 << 3) | WireType.Bytes:
        m.name = r.string();
        break;
      case (3 << 3) | WireType.Bytes:
        m.namespace = r.string();
        break;
      case (5 << 3) | WireType.Bytes:
        m.uid = r.string();
        break;
      case (6 << 3) | WireType.Bytes:
        m.resourceVersion = r.string();
        break;
      case (8 << 3) | WireType.Bytes:
        m.creationTimestamp = time(r.message(), false);
        break;
      case (12 << 3) | WireType.Bytes: {
        const [key, value] = mapEntry(r.message());
        (m.annotations ??= {})[key] = value;
        break;
      }
      default:
        // managedFields (17), labels, owners and the rest: nothing reads them.
        r.skip(tag & 7);
    }
  }
  return m;
}

function mapEntry(r: WireReader): [string, string] {
  let key = '';
  let value = '';
  while (!r.done) {
    const tag = r.tag();
    if (tag === ((1 << 3) | WireType.Bytes)) key = r.string();
    else if (tag === ((2 << 3) | WireType.Bytes)) value = r.string();
    else r.skip(tag & 7);
  }
  return [key, value];
}

/** A core/v1 ObjectReference. */
function reference(r: WireReader): RawReference {
  const ref: RawReference = {};
  while (!r.done) {
    const tag = r.tag();
    switch (tag) {
      case (1 << 3) | WireType.Bytes:
        ref.kind = r.string();
        break;
      case (2 << 3) | WireType.Bytes:
        ref.namespace = r.string();
        break;
      case (3 << 3) | WireType.Bytes:
        ref.name = r.string();
        break;
      case (4 << 3) | WireType.Bytes:
        ref.uid = r.string();
        break;
      case (5 << 3) | WireType.Bytes:
        ref.apiVersion = r.string();
        break;
      case (7 << 3) | WireType.Bytes:
        ref.fieldPath = r.string();
        break;
      default:
        r.skip(tag & 7);
    }
  }
  return ref;
}

/** A core/v1 EventSource. */
function source(r: WireReader): { component?: string; host?: string } {
  const s: { component?: string; host?: string } = {};
  while (!r.done) {
    const tag = r.tag();
    if (tag === ((1 << 3) | WireType.Bytes)) s.component = r.string();
    else if (tag === ((2 << 3) | WireType.Bytes)) s.host = r.string();
    else r.skip(tag & 7);
  }
  return s;
}

/**
 * An EventSeries (the same two fields in both APIs). core/v1's JSON leaves a count of 0 out
 * (omitempty), so the event's own count is read instead; events/v1's writes it.
 */
function series(r: WireReader, countOmittedWhenZero: boolean): { count?: number; lastObservedTime?: string | null } {
  const s: { count?: number; lastObservedTime?: string | null } = { lastObservedTime: null };
  while (!r.done) {
    const tag = r.tag();
    if (tag === ((1 << 3) | WireType.Varint)) {
      const count = r.int32();
      s.count = count === 0 && countOmittedWhenZero ? undefined : count;
    }
    else if (tag === ((2 << 3) | WireType.Bytes)) s.lastObservedTime = time(r.message(), true);
    else r.skip(tag & 7);
  }
  return s;
}

/** A core/v1 Event's bytes (the envelope's raw). */
export function decodeCoreEvent(buf: Buffer, start = 0, end = buf.length): DecodedEvent {
  const r = new WireReader(buf, start, end);
  const e: DecodedEvent = { firstTimestamp: null, lastTimestamp: null, eventTime: null };
  while (!r.done) {
    const tag = r.tag();
    switch (tag) {
      case (1 << 3) | WireType.Bytes:
        e.metadata = metadata(r.message());
        break;
      case (2 << 3) | WireType.Bytes:
        e.involvedObject = reference(r.message());
        break;
      case (3 << 3) | WireType.Bytes:
        e.reason = r.string();
        break;
      case (4 << 3) | WireType.Bytes:
        e.message = r.string();
        break;
      case (5 << 3) | WireType.Bytes:
        e.source = source(r.message());
        break;
      case (6 << 3) | WireType.Bytes:
        e.firstTimestamp = time(r.message(), false);
        break;
      case (7 << 3) | WireType.Bytes:
        e.lastTimestamp = time(r.message(), false);
        break;
      case (8 << 3) | WireType.Varint:
        e.count = r.int32();
        break;
      case (9 << 3) | WireType.Bytes:
        e.type = r.string();
        break;
      case (10 << 3) | WireType.Bytes:
        e.eventTime = time(r.message(), true);
        break;
      case (11 << 3) | WireType.Bytes:
        e.series = series(r.message(), true);
        break;
      case (12 << 3) | WireType.Bytes:
        e.action = r.string();
        break;
      case (14 << 3) | WireType.Bytes:
        e.reportingComponent = r.string();
        break;
      case (15 << 3) | WireType.Bytes:
        e.reportingInstance = r.string();
        break;
      default:
        // related (13): nothing reads it.
        r.skip(tag & 7);
    }
  }
  return e;
}

/** An events.k8s.io/v1 Event's bytes. */
export function decodeEventsV1Event(buf: Buffer, start = 0, end = buf.length): DecodedEvent {
  const r = new WireReader(buf, start, end);
  const e: DecodedEvent = { eventTime: null, deprecatedFirstTimestamp: null, deprecatedLastTimestamp: null };
  while (!r.done) {
    const tag = r.tag();
    switch (tag) {
      case (1 << 3) | WireType.Bytes:
        e.metadata = metadata(r.message());
        break;
      case (2 << 3) | WireType.Bytes:
        e.eventTime = time(r.message(), true);
        break;
      case (3 << 3) | WireType.Bytes:
        e.series = series(r.message(), false);
        break;
      case (4 << 3) | WireType.Bytes:
        e.reportingController = r.string();
        break;
      case (5 << 3) | WireType.Bytes:
        e.reportingInstance = r.string();
        break;
      case (6 << 3) | WireType.Bytes:
        e.action = r.string();
        break;
      case (7 << 3) | WireType.Bytes:
        e.reason = r.string();
        break;
      case (8 << 3) | WireType.Bytes:
        e.regarding = reference(r.message());
        break;
      case (10 << 3) | WireType.Bytes:
        e.note = r.string();
        break;
      case (11 << 3) | WireType.Bytes:
        e.type = r.string();
        break;
      case (12 << 3) | WireType.Bytes:
        e.deprecatedSource = source(r.message());
        break;
      case (13 << 3) | WireType.Bytes:
        e.deprecatedFirstTimestamp = time(r.message(), false);
        break;
      case (14 << 3) | WireType.Bytes:
        e.deprecatedLastTimestamp = time(r.message(), false);
        break;
      case (15 << 3) | WireType.Varint:
        e.deprecatedCount = r.int32();
        break;
      default:
        // related (9): nothing reads it.
        r.skip(tag & 7);
    }
  }
  return e;
}

function cause(r: WireReader): StatusCause {
  let type: string | undefined;
  let message: string | undefined;
  let field: string | undefined;
  while (!r.done) {
    const tag = r.tag();
    if (tag === ((1 << 3) | WireType.Bytes)) type = r.string();
    else if (tag === ((2 << 3) | WireType.Bytes)) message = r.string();
    else if (tag === ((3 << 3) | WireType.Bytes)) field = r.string();
    else r.skip(tag & 7);
  }
  return { type, message, field };
}

/** A metav1.Status's bytes. */
export function decodeStatus(buf: Buffer, start = 0, end = buf.length): DecodedStatus {
  const r = new WireReader(buf, start, end);
  const s: DecodedStatus = { kind: 'Status' };
  while (!r.done) {
    const tag = r.tag();
    switch (tag) {
      case (2 << 3) | WireType.Bytes:
        s.status = r.string();
        break;
      case (3 << 3) | WireType.Bytes:
        s.message = r.string();
        break;
      case (4 << 3) | WireType.Bytes:
        s.reason = r.string();
        break;
      case (5 << 3) | WireType.Bytes: {
        const d = r.message();
        const causes: StatusCause[] = [];
        while (!d.done) {
          const t = d.tag();
          if (t === ((4 << 3) | WireType.Bytes)) causes.push(cause(d.message()));
          else d.skip(t & 7);
        }
        s.details = { causes };
        break;
      }
      case (6 << 3) | WireType.Varint:
        s.code = r.int32();
        break;
      default:
        r.skip(tag & 7);
    }
  }
  return s;
}
