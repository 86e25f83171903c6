// A watch in the apiserver's protobuf encoding (apimachinery's protobuf serializer and its
// LengthDelimitedFramer): frames of a 4-byte big-endian length and a metav1.WatchEvent
// written without envelope, whose object is written in full: the "k8s\0" prefix and a
// runtime.Unknown naming its apiVersion and kind around the object's own bytes.
import { WireReader, WireType, WireFormatError, goString } from './wireReader';

/** What a client asks for to read a watch in protobuf, JSON second (client-go's default for built-in types). */
export const PROTOBUF_WATCH_ACCEPT = 'application/vnd.kubernetes.protobuf, application/json';
/** The media type of a protobuf answer (its watch adds `;stream=watch`). */
export const PROTOBUF_MEDIA_TYPE = 'application/vnd.kubernetes.protobuf';
/** The prefix of every object the protobuf serializer writes in full. */
export const PROTOBUF_MAGIC = Buffer.from([0x6b, 0x38, 0x73, 0x00]);
/** The largest frame read, as client-go's streaming decoder (a larger one fails the watch, which restarts). */
export const MAX_FRAME_BYTES = 16 * 1024 * 1024;
const LENGTH_BYTES = 4;

/** An object written in full: its type and where its own bytes are. */
export interface Envelope {
  readonly apiVersion: string;
  readonly kind: string;
  readonly buf: Buffer;
  readonly start: number;
  readonly end: number;
}

/** One frame: the watch event's type and its object, still in its envelope. */
export interface WatchFrame {
  readonly type: string;
  readonly object: Envelope | undefined;
}

/** Splits a protobuf watch's body into frames, across chunks. */
export class FrameReader {
  private chunks: Buffer[] = [];
  private buffered = 0;
  /** The frame being waited for (bytes, the length included), once its length is in. */
  private needed = 0;

  /** The whole frames the chunk completes, in order (each a view of the body's bytes). */
  push(chunk: Buffer): Buffer[] {
    const frames: Buffer[] = [];
    if (chunk.length === 0) return frames;
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    for (;;) {
      if (this.needed === 0) {
        if (this.buffered < LENGTH_BYTES) return frames;
        const head = this.head(LENGTH_BYTES);
        const length = head.readUInt32BE(0);
        if (length > MAX_FRAME_BYTES) throw new WireFormatError(`a watch frame of ${length} bytes, past the ${MAX_FRAME_BYTES} read`);
        this.needed = LENGTH_BYTES + length;
      }
      if (this.buffered < this.needed) return frames;
      const all = this.head(this.needed);
      frames.push(all.subarray(LENGTH_BYTES, this.needed));
      this.drop(this.needed);
      this.needed = 0;
    }
  }

  /** Bytes left that make no whole frame (a body that ended there was cut short). */
  get pending(): number {
    return this.buffered;
  }

  /** The first n bytes buffered, in one buffer (joined only when they span chunks). */
  private head(n: number): Buffer {
    if (this.chunks[0].length >= n) return this.chunks[0];
    const joined = Buffer.concat(this.chunks);
    this.chunks = [joined];
    return joined;
  }

  private drop(n: number): void {
    const first = this.chunks[0];
    this.buffered -= n;
    if (first.length === n) this.chunks.shift();
    else this.chunks[0] = first.subarray(n);
  }
}

/** A frame's metav1.WatchEvent: its type, and its object's envelope. */
export function decodeWatchFrame(frame: Buffer): WatchFrame {
  const r = new WireReader(frame);
  let type = '';
  let object: Envelope | undefined;
  while (!r.done) {
    const tag = r.tag();
    if (tag === ((1 << 3) | WireType.Bytes)) type = r.string();
    else if (tag === ((2 << 3) | WireType.Bytes)) {
      // runtime.RawExtension: its raw (1) is the object written in full.
      const raw = r.message();
      while (!raw.done) {
        const t = raw.tag();
        if (t === ((1 << 3) | WireType.Bytes)) {
          const { start, end } = raw.bytes();
          object = envelope(frame, start, end);
        } else raw.skip(t & 7);
      }
    } else r.skip(tag & 7);
  }
  return { type, object };
}

/** An object written in full (the magic prefix, then a runtime.Unknown): its type and its own bytes. */
export function envelope(buf: Buffer, start = 0, end = buf.length): Envelope {
  if (end - start < PROTOBUF_MAGIC.length || buf.compare(PROTOBUF_MAGIC, 0, PROTOBUF_MAGIC.length, start, start + PROTOBUF_MAGIC.length) !== 0) {
    throw new WireFormatError('an object without the protobuf prefix k8s\\0');
  }
  const r = new WireReader(buf, start + PROTOBUF_MAGIC.length, end);
  let apiVersion = '';
  let kind = '';
  let rawStart = 0;
  let rawEnd = 0;
  while (!r.done) {
    const tag = r.tag();
    if (tag === ((1 << 3) | WireType.Bytes)) {
      const t = r.message();
      while (!t.done) {
        const ft = t.tag();
        if (ft === ((1 << 3) | WireType.Bytes)) apiVersion = t.string();
        else if (ft === ((2 << 3) | WireType.Bytes)) kind = t.string();
        else t.skip(ft & 7);
      }
    } else if (tag === ((2 << 3) | WireType.Bytes)) ({ start: rawStart, end: rawEnd } = r.bytes());
    else if (tag === ((3 << 3) | WireType.Bytes)) {
      // contentEncoding: the apiserver writes none; one it did would be bytes we cannot read.
      const { start: s, end: e } = r.bytes();
      if (e > s) throw new WireFormatError(`an object in content encoding ${goString(buf, s, e)}`);
    } else r.skip(tag & 7);
  }
  return { apiVersion, kind, buf, start: rawStart, end: rawEnd };
}

/** A body (an error answer) written in protobuf: it starts with the prefix. */
export function isProtobuf(body: Buffer): boolean {
  return body.length >= PROTOBUF_MAGIC.length && body.compare(PROTOBUF_MAGIC, 0, PROTOBUF_MAGIC.length, 0, PROTOBUF_MAGIC.length) === 0;
}
