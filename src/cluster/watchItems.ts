// A watch's body split into its events, in either encoding the apiserver answers with
// (Content-Type): newline-delimited JSON, or protobuf frames (protobuf/watchFrames.ts). An
// ADDED event's object can be kept undecoded (its JSON text, or its protobuf bytes) and
// decoded later, a few at a time, as a list page's items are.
import { StringDecoder } from 'node:string_decoder';
import { withoutManagedFields } from './listItems';
import { decodeCoreEvent, decodeEventsV1Event, decodeStatus } from './protobuf/eventMessages';
import { decodeWatchFrame, FrameReader, PROTOBUF_MEDIA_TYPE, type Envelope, type WatchFrame } from './protobuf/watchFrames';
import { WireFormatError } from './protobuf/wireReader';

/** A watch event as JSON has it; an ERROR's object is a Status. */
export interface WatchLine<T> {
  type: string;
  object: T & { code?: number; message?: string; reason?: string };
}

/** An object not yet decoded: its JSON text, or its protobuf envelope. */
export type PendingObject = string | Envelope;

/** One event of the body, not yet decoded: a JSON line, or a protobuf frame. */
export type WatchUnit = string | WatchFrame;

/** How a watch body was encoded. */
export type WatchEncoding = 'json' | 'protobuf';

export interface WatchSplitter {
  readonly encoding: WatchEncoding;
  /** The events this chunk completes, in order. */
  push(chunk: Buffer): WatchUnit[];
}

/**
 * How the apiserver writes an ADDED line (metav1.WatchEvent, fields in this order): the object's
 * text is taken from between this and the line's last brace without parsing the wrapper. A line
 * in any other shape is parsed whole.
 */
const ADDED_LINE_HEAD = '{"type":"ADDED","object":';

class JsonLines implements WatchSplitter {
  readonly encoding = 'json';
  private buffered = '';
  // A chunk can end inside a multi-byte character: the decoder keeps the partial bytes for the next one.
  private readonly decoder = new StringDecoder('utf8');

  push(chunk: Buffer): WatchUnit[] {
    this.buffered += this.decoder.write(chunk);
    const lines: string[] = [];
    let from = 0;
    let newline: number;
    while ((newline = this.buffered.indexOf('\n', from)) >= 0) {
      const text = this.buffered.slice(from, newline);
      from = newline + 1;
      if (text.trim() !== '') lines.push(text);
    }
    this.buffered = this.buffered.slice(from);
    return lines;
  }
}

class ProtobufFrames implements WatchSplitter {
  readonly encoding = 'protobuf';
  private readonly frames = new FrameReader();

  push(chunk: Buffer): WatchUnit[] {
    return this.frames.push(chunk).map(decodeWatchFrame);
  }
}

/** The splitter for a watch answered with this Content-Type (JSON unless it says protobuf). */
export function watchSplitter(contentType: string | undefined): WatchSplitter {
  return contentType?.toLowerCase().startsWith(PROTOBUF_MEDIA_TYPE) ? new ProtobufFrames() : new JsonLines();
}

/** An ADDED event's object, undecoded, when the unit is one in the usual shape; else undefined. */
export function addedObject(unit: WatchUnit): PendingObject | undefined {
  if (typeof unit === 'string') {
    return unit.startsWith(ADDED_LINE_HEAD) && unit.endsWith('}') ? unit.slice(ADDED_LINE_HEAD.length, -1) : undefined;
  }
  return unit.type === 'ADDED' && unit.object ? unit.object : undefined;
}

/** A watch event, decoded whole. */
export function decodeItem<T>(unit: WatchUnit): WatchLine<T> {
  if (typeof unit === 'string') return JSON.parse(unit) as WatchLine<T>;
  return { type: unit.type, object: (unit.object ? decodeObject(unit.object) : undefined) as WatchLine<T>['object'] };
}

/** An object kept undecoded (its managed fields left out: nothing reads them). */
export function decodeObject(pending: PendingObject): unknown {
  if (typeof pending === 'string') return JSON.parse(withoutManagedFields(pending));
  const { kind, apiVersion, buf, start, end } = pending;
  if (kind === 'Status') return decodeStatus(buf, start, end);
  if (kind === 'Event' && apiVersion === 'v1') return decodeCoreEvent(buf, start, end);
  if (kind === 'Event' && apiVersion === 'events.k8s.io/v1') return decodeEventsV1Event(buf, start, end);
  throw new WireFormatError(`a watch of events sent a ${apiVersion} ${kind}, which it cannot read`);
}
