import * as assert from 'node:assert/strict';
import { goString, WireFormatError, WireReader } from '../../../../src/cluster/protobuf/wireReader';

/** A varint of a 64-bit two's complement value, written with BigInt (not the reader's arithmetic). */
function varint(value: bigint): number[] {
  let v = BigInt.asUintN(64, value);
  const out: number[] = [];
  do {
    const b = Number(v & 0x7fn);
    v >>= 7n;
    out.push(v > 0n ? b | 0x80 : b);
  } while (v > 0n);
  return out;
}

describe('protobuf wire reader', () => {
  it('reads int64 varints exactly across the range times and counts use, negatives included', () => {
    const values = [0n, 1n, 127n, 128n, 300n, 2n ** 31n - 1n, 2n ** 31n, 2n ** 32n, 253402300799n, -1n, -62135596800n, -(2n ** 31n), 2n ** 53n - 1n, -(2n ** 53n) + 1n];
    for (const v of values) {
      const r = new WireReader(Buffer.from(varint(v)));
      assert.equal(r.int64(), Number(v), `${v}`);
      assert.ok(r.done);
    }
  });

  it('reads int32 fields as Go writes them (a negative one sign-extended to ten bytes)', () => {
    for (const v of [0, 1, 2147483647, -1, -2147483648, -7]) {
      const bytes = varint(BigInt(v));
      assert.equal(new WireReader(Buffer.from(bytes)).int32(), v, `${v}`);
      if (v < 0) assert.equal(bytes.length, 10);
    }
  });

  it('skips fields of every wire type Kubernetes writes, and refuses groups and cut messages', () => {
    // field 1 varint 300, field 2 fixed64, field 3 bytes "hi", field 4 fixed32, then field 5 varint 7
    const buf = Buffer.from([0x08, 0xac, 0x02, 0x11, 1, 2, 3, 4, 5, 6, 7, 8, 0x1a, 0x02, 0x68, 0x69, 0x25, 1, 2, 3, 4, 0x28, 0x07]);
    const r = new WireReader(buf);
    for (let i = 0; i < 4; i++) {
      const tag = r.tag();
      r.skip(tag & 7);
    }
    assert.equal(r.tag(), (5 << 3) | 0);
    assert.equal(r.uint32(), 7);
    assert.ok(r.done);
    assert.throws(() => new WireReader(Buffer.from([0x0b])).skip(3), WireFormatError);
    const cut = new WireReader(Buffer.from([0x0a, 0x05, 0x61]));
    assert.equal(cut.tag(), (1 << 3) | 2);
    assert.throws(() => cut.message(), /5 bytes runs past the end/);
    assert.throws(() => new WireReader(Buffer.from([0x80, 0x80])).uint32(), /past the end/);
    assert.throws(() => new WireReader(Buffer.from(Array(11).fill(0xff))).int64(), /longer than ten bytes/);
  });

  it('reads text as Go\u2019s JSON writes it: valid UTF-8 unchanged, one U+FFFD per byte that starts no character', () => {
    const valid = Buffer.from('日本語 🚀 \u202e \u0000 é');
    assert.equal(goString(valid, 0, valid.length), '日本語 🚀 \u202e \u0000 é');
    const cases: [number[], string][] = [
      [[0x61, 0x80, 0x62], 'a\ufffdb'],
      [[0xe2, 0x82], '\ufffd\ufffd'],
      [[0xc0, 0xaf], '\ufffd\ufffd'],
      [[0xed, 0xa0, 0x80], '\ufffd\ufffd\ufffd'],
      [[0xf4, 0x90, 0x80, 0x80], '\ufffd\ufffd\ufffd\ufffd'],
      [[0xf0, 0x9f, 0x9a, 0x80, 0xff], '🚀\ufffd'],
      [[0xef, 0xbf, 0xbd], '\ufffd'],
    ];
    for (const [bytes, text] of cases) assert.equal(goString(Buffer.from(bytes), 0, bytes.length), text, Buffer.from(bytes).toString('hex'));
  });
});
