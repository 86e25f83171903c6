// The protocol buffers wire format, read: varints, length-delimited fields and the skipping of
// fields nobody reads. Just what the apiserver's protobuf encoding of events needs (gogo's
// generated Marshal of k8s.io/api); proto2 groups, which Kubernetes never writes, are refused.

/** Wire types (https://protobuf.dev/programming-guides/encoding/#structure). */
export const WireType = {
  Varint: 0,
  Fixed64: 1,
  Bytes: 2,
  StartGroup: 3,
  EndGroup: 4,
  Fixed32: 5,
} as const;

/** Bytes that are not the message they were said to be. */
export class WireFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WireFormatError';
  }
}

const TWO_32 = 2 ** 32;

/** Reads one message (or a field's bytes) of `buf` between `pos` and `end`. */
export class WireReader {
  constructor(
    readonly buf: Buffer,
    public pos = 0,
    readonly end = buf.length,
  ) {}

  get done(): boolean {
    return this.pos >= this.end;
  }

  /** A field's tag: its number shifted left by 3, or'ed with its wire type. */
  tag(): number {
    return this.uint32();
  }

  /** A varint that fits 32 bits (tags, lengths, int32 fields; a negative int32 is ten bytes, its low 32 bits kept). */
  uint32(): number {
    const buf = this.buf;
    let pos = this.pos;
    let value = 0;
    let shift = 0;
    for (;;) {
      if (pos >= this.end) throw new WireFormatError('a varint runs past the end of its message');
      const b = buf[pos++];
      if (shift < 28) value |= (b & 0x7f) << shift;
      else if (shift === 28) value |= (b & 0x0f) << 28;
      if (b < 0x80) break;
      shift += 7;
      if (shift > 63) throw new WireFormatError('a varint longer than ten bytes');
    }
    this.pos = pos;
    return value >>> 0;
  }

  /** An int32 field: the low 32 bits of the varint, as signed. */
  int32(): number {
    return this.uint32() | 0;
  }

  /** An int64 field as a number (exact within ±2^53: seconds since 1970, counts). */
  int64(): number {
    const buf = this.buf;
    let pos = this.pos;
    let low = 0;
    let high = 0;
    let shift = 0;
    for (;;) {
      if (pos >= this.end) throw new WireFormatError('a varint runs past the end of its message');
      const b = buf[pos++];
      const bits = b & 0x7f;
      if (shift < 28) low |= bits << shift;
      else if (shift === 28) {
        low |= (bits & 0x0f) << 28;
        high |= bits >> 4;
      } else high |= bits << (shift - 32);
      if (b < 0x80) break;
      shift += 7;
      if (shift > 63) throw new WireFormatError('a varint longer than ten bytes');
    }
    this.pos = pos;
    // Two's complement across the 64 bits: the high word signed, the low one not.
    return (high | 0) * TWO_32 + (low >>> 0);
  }

  /** A length-delimited field's bounds, the reader moved past it. */
  bytes(): { start: number; end: number } {
    const length = this.uint32();
    const start = this.pos;
    const end = start + length;
    if (end > this.end) throw new WireFormatError(`a field of ${length} bytes runs past the end of its message`);
    this.pos = end;
    return { start, end };
  }

  /** A string field, as Go's encoding/json would write it out (see goString). */
  string(): string {
    const { start, end } = this.bytes();
    return goString(this.buf, start, end);
  }

  /** A reader over a length-delimited field (an embedded message). */
  message(): WireReader {
    const { start, end } = this.bytes();
    return new WireReader(this.buf, start, end);
  }

  /** Moves past a field of this wire type that is not read. */
  skip(wireType: number): void {
    switch (wireType) {
      case WireType.Varint:
        this.int64();
        return;
      case WireType.Fixed64:
        this.advance(8);
        return;
      case WireType.Bytes:
        this.bytes();
        return;
      case WireType.Fixed32:
        this.advance(4);
        return;
      default:
        throw new WireFormatError(`wire type ${wireType} (a group or no type at all) is not in the Kubernetes encoding`);
    }
  }

  private advance(n: number): void {
    if (this.pos + n > this.end) throw new WireFormatError('a fixed-size field runs past the end of its message');
    this.pos += n;
  }
}

const REPLACEMENT = '\ufffd';

/**
 * A protobuf string's bytes as text. Protobuf does not check UTF-8, so a writer could store
 * bytes that are not; the apiserver's JSON then carries one U+FFFD per byte that starts no
 * valid character (Go's encoding/json), while Node's decoder gives one per maximal invalid
 * run. Invalid bytes are decoded Go's way, so both encodings show the same text.
 */
export function goString(buf: Buffer, start: number, end: number): string {
  const text = buf.toString('utf8', start, end);
  if (!text.includes(REPLACEMENT) || isValidUtf8(buf, start, end)) return text;
  return goDecode(buf, start, end);
}

function isValidUtf8(buf: Buffer, start: number, end: number): boolean {
  for (let i = start; i < end; ) {
    const n = runeLength(buf, i, end);
    if (n === 0) return false;
    i += n;
  }
  return true;
}

/** Go's utf8.DecodeRune, one character at a time; an invalid byte is U+FFFD. */
function goDecode(buf: Buffer, start: number, end: number): string {
  let out = '';
  let from = start;
  for (let i = start; i < end; ) {
    const n = runeLength(buf, i, end);
    if (n > 0) {
      i += n;
      continue;
    }
    out += buf.toString('utf8', from, i) + REPLACEMENT;
    i++;
    from = i;
  }
  return out + buf.toString('utf8', from, end);
}

/** The length of the valid UTF-8 character at `i`, or 0 (Go's rules: no overlong forms, surrogates or values past U+10FFFF). */
function runeLength(buf: Buffer, i: number, end: number): number {
  const b0 = buf[i];
  if (b0 < 0x80) return 1;
  const cont = (k: number, lo = 0x80, hi = 0xbf) => i + k < end && buf[i + k] >= lo && buf[i + k] <= hi;
  if (b0 >= 0xc2 && b0 <= 0xdf) return cont(1) ? 2 : 0;
  if (b0 === 0xe0) return cont(1, 0xa0) && cont(2) ? 3 : 0;
  if ((b0 >= 0xe1 && b0 <= 0xec) || b0 === 0xee || b0 === 0xef) return cont(1) && cont(2) ? 3 : 0;
  if (b0 === 0xed) return cont(1, 0x80, 0x9f) && cont(2) ? 3 : 0;
  if (b0 === 0xf0) return cont(1, 0x90) && cont(2) && cont(3) ? 4 : 0;
  if (b0 >= 0xf1 && b0 <= 0xf3) return cont(1) && cont(2) && cont(3) ? 4 : 0;
  if (b0 === 0xf4) return cont(1, 0x80, 0x8f) && cont(2) && cont(3) ? 4 : 0;
  return 0;
}
