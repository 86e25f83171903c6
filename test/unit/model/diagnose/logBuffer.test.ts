// The lines of one container log a Diagnose panel holds: the newest, within a memory budget,
// what fell off the front counted; a reader takes what was added since it last looked.
import * as assert from 'node:assert/strict';
import { LOG_BUFFER_BYTES, LogBuffer } from '../../../../src/model/diagnose/logBuffer';
import { LineSplitter, type LogLine } from '../../../../src/model/diagnose/logLines';

/** Lines as the apiserver sends them, through the real splitter. */
function lines(...raw: string[]): LogLine[] {
  const s = new LineSplitter();
  return s.push(Buffer.from(raw.map((r) => `${r}\n`).join(''), 'utf8'));
}

/** n numbered lines of `width` ASCII characters each, a second apart. */
function numbered(n: number, width: number, from = 0): LogLine[] {
  const out: string[] = [];
  for (let i = from; i < from + n; i++) {
    const ts = new Date(Date.UTC(2026, 11, 5, 6, 0, 0) + i * 1000).toISOString().replace('.000Z', 'Z');
    const label = `line ${i} `;
    out.push(`${ts} ${label}${'.'.repeat(width - label.length)}`);
  }
  return lines(...out);
}

const texts = (ls: readonly LogLine[]) => ls.map((l) => l.text);
/** Memory the held text takes at the least: two bytes a UTF-16 code unit. */
const textMemory = (ls: readonly LogLine[]) => ls.reduce((n, l) => n + l.text.length * 2, 0);

describe('log buffer', () => {
  it('holds the lines added, oldest first, and counts their log bytes', () => {
    const b = new LogBuffer();
    const ls = lines('2026-12-05T06:00:00.1Z starting', '2026-12-05T06:00:00.2Z 监听端口 8080', '2026-12-05T06:00:00.3Z ready ✅');
    b.add(ls);
    assert.equal(b.length, 3);
    assert.deepEqual(texts(b.slice()), ['starting', '监听端口 8080', 'ready ✅']);
    assert.deepEqual(texts(b.slice(1)), ['监听端口 8080', 'ready ✅']);
    assert.equal(b.bytes, Buffer.byteLength('starting') + Buffer.byteLength('监听端口 8080') + Buffer.byteLength('ready ✅'));
    assert.deepEqual(b.dropped, { lines: 0, bytes: 0 });
    assert.equal(b.added, 3);
  });

  it('gives the log as text, a "\\n" after each line, with the kubelet timestamps as `kubectl logs --timestamps` prints them or without', () => {
    const b = new LogBuffer();
    b.add(lines('2026-12-05T06:00:00.123456789Z GET /api/orders 500', '2026-12-05T06:00:01Z \u001b[31mpanic\u001b[0m: שגיאה', 'no timestamp'));
    assert.equal(b.text(false), 'GET /api/orders 500\n^[[31mpanic^[[0m: שגיאה\nno timestamp\n');
    assert.equal(b.text(true), '2026-12-05T06:00:00.123456789Z GET /api/orders 500\n2026-12-05T06:00:01Z ^[[31mpanic^[[0m: שגיאה\nno timestamp\n');
  });

  it('gives empty text when it holds nothing, and keeps an empty line as one', () => {
    const b = new LogBuffer();
    assert.equal(b.text(true), '');
    assert.equal(b.text(false), '');
    b.add(lines('2026-12-05T06:00:00Z '));
    assert.equal(b.text(false), '\n');
    assert.equal(b.text(true), '2026-12-05T06:00:00Z \n');
  });

  it('gives a reader the lines added since it last looked', () => {
    const b = new LogBuffer();
    b.add(numbered(3, 20));
    let seen = 0;
    assert.deepEqual(texts(b.since(seen)).map((t) => t.split(' ')[1]), ['0', '1', '2']);
    seen = b.added;
    assert.deepEqual(b.since(seen), []);
    b.add(numbered(2, 20, 3));
    assert.deepEqual(texts(b.since(seen)).map((t) => t.split(' ')[1]), ['3', '4']);
    // A count from the future (a reader of another buffer) gets nothing, not a slice from the end.
    assert.deepEqual(b.since(b.added + 10), []);
    b.add([]);
    assert.equal(b.added, 5);
  });

  it('lets the oldest lines go past its budget, counting them, and keeps the newest in order', () => {
    const budget = 20_000;
    const b = new LogBuffer(budget);
    const all = numbered(300, 200);
    b.add(all.slice(0, 100));
    b.add(all.slice(100));
    const held = b.slice();
    assert.ok(held.length > 0 && held.length < 300);
    // What is held is the newest lines, all of them, in order.
    assert.deepEqual(texts(held), texts(all.slice(300 - held.length)));
    assert.ok(textMemory(held) <= budget, `holds ${textMemory(held)} bytes of text in a budget of ${budget}`);
    assert.equal(b.dropped.lines + b.length, 300);
    assert.equal(b.dropped.bytes + b.bytes, 300 * 200);
    assert.equal(b.bytes, held.length * 200);
    assert.equal(b.added, 300);
  });

  it('holds about its budget of ordinary lines: ~4 MiB of memory for the default budget, not a handful of lines', () => {
    const b = new LogBuffer();
    const all = numbered(40_000, 120);
    for (let i = 0; i < all.length; i += 500) b.add(all.slice(i, i + 500));
    const held = b.slice();
    assert.ok(b.dropped.lines > 0, 'drops some of 40,000 lines of 120 characters');
    assert.ok(textMemory(held) <= LOG_BUFFER_BYTES);
    // 120 ASCII characters take 240 bytes as text: a budget of 4 MiB holds well over 8,000 of them.
    assert.ok(held.length > 8000, `holds ${held.length} lines`);
    assert.equal(held[held.length - 1].text, all[all.length - 1].text);
    assert.equal(b.dropped.lines + b.length, 40_000);
  });

  it('keeps the newest line even when it alone is over the budget (one cut line of 1 MiB)', () => {
    const b = new LogBuffer(1000);
    b.add(numbered(3, 50));
    const big = lines(`2026-12-05T06:00:09Z ${'x'.repeat(1024 * 1024)}`);
    b.add(big);
    assert.equal(b.length, 1);
    assert.equal(b.slice()[0].text.length, 1024 * 1024);
    assert.deepEqual(b.dropped, { lines: 3, bytes: 150 });
    // A line after it pushes it out in turn.
    b.add(numbered(1, 50, 10));
    assert.equal(b.length, 1);
    assert.equal(b.slice()[0].text.split(' ')[1], '10');
    assert.deepEqual(b.dropped, { lines: 4, bytes: 150 + 1024 * 1024 });
  });

  it('holds at most a few lines of the longest kind with the default budget, and says how much it let go', () => {
    const b = new LogBuffer();
    const body = 'y'.repeat(1024 * 1024);
    for (let i = 0; i < 8; i++) b.add(lines(`2026-12-05T06:00:0${i}Z ${body}`));
    assert.ok(b.length >= 1 && textMemory(b.slice()) <= LOG_BUFFER_BYTES);
    assert.equal(b.dropped.lines, 8 - b.length);
    assert.equal(b.dropped.bytes, (8 - b.length) * body.length);
    assert.equal(b.slice().at(-1)?.timestamp, '2026-12-05T06:00:07Z');
  });

  it('gives a reader only what is still held when the lines it had not seen were let go', () => {
    const b = new LogBuffer(5000);
    b.add(numbered(10, 100));
    const seen = 2;
    b.add(numbered(200, 100, 10));
    const fresh = b.since(seen);
    assert.deepEqual(texts(fresh), texts(b.slice()));
    assert.equal(fresh.at(-1)?.text.split(' ')[1], '209');
  });

  it('stays right after many single-line adds (its held lines are compacted from time to time)', () => {
    const b = new LogBuffer(3000);
    const all = numbered(5000, 100);
    let seen = 0;
    const read: string[] = [];
    for (const l of all) {
      b.add([l]);
      // A reader that keeps up sees every line exactly once.
      for (const f of b.since(seen)) read.push(f.text);
      seen = b.added;
    }
    assert.deepEqual(read, texts(all));
    const held = b.slice();
    assert.deepEqual(texts(held), texts(all.slice(5000 - held.length)));
    assert.equal(b.dropped.lines + b.length, 5000);
    assert.equal(b.text(false), texts(held).map((t) => `${t}\n`).join(''));
    assert.deepEqual(texts(b.since(4990)), texts(all.slice(4990)));
  });

  it('starts a new generation on clear: empty, counts reset, and a reader of the old one starts again', () => {
    const b = new LogBuffer(5000);
    b.add(numbered(200, 100));
    const reader = { generation: b.generation, seen: b.added };
    b.clear();
    assert.notEqual(b.generation, reader.generation);
    assert.equal(b.length, 0);
    assert.equal(b.bytes, 0);
    assert.equal(b.added, 0);
    assert.deepEqual(b.dropped, { lines: 0, bytes: 0 });
    assert.equal(b.text(true), '');
    b.add(lines('2026-12-05T07:00:00Z previous instance: panic: runtime error'));
    // The old count means nothing now: read from the start of the new generation.
    const from = b.generation === reader.generation ? reader.seen : 0;
    assert.deepEqual(texts(b.since(from)), ['previous instance: panic: runtime error']);
    const g = b.generation;
    b.clear();
    assert.ok(b.generation !== g && b.generation !== reader.generation);
  });
});
