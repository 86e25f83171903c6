// A container log as the apiserver streams it with timestamps=true: the kubelet reads the CRI
// log file (`2026-12-05T06:00:00.123456789Z stdout F text`, as containerd writes it) and sends
// each line as `<RFC3339Nano timestamp> <text>\n`, the stream and tag left out. The bytes come
// in chunks cut anywhere: inside a UTF-8 character, between "\r" and "\n".
import * as assert from 'node:assert/strict';
import { LineSplitter, MAX_LINE_BYTES, parseLine, ResumePoint, timestampKey, type LogLine } from '../../../../src/model/diagnose/logLines';

/** A line as the apiserver sends it with timestamps=true. */
const logLine = (ts: string, text: string): LogLine => parseLine(Buffer.from(`${ts} ${text}`, 'utf8'));

/** Nanoseconds since the epoch of an RFC3339 timestamp, worked out here with BigInt (the oracle for key order). */
function nanos(ts: string): bigint {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|([+-])(\d{2}):(\d{2}))$/.exec(ts);
  assert.ok(m, ts);
  const [, y, mo, d, h, mi, s, frac, zone, sign, zh, zm] = m;
  let seconds = BigInt(Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s))) / 1000n;
  if (zone !== 'Z') seconds -= BigInt((sign === '-' ? -1 : 1) * (Number(zh) * 3600 + Number(zm) * 60));
  return seconds * 1_000_000_000n + BigInt((frac ?? '').padEnd(9, '0'));
}

/** Every line a splitter gives for the chunks, end() included. */
function splitAll(chunks: readonly Buffer[]): LogLine[] {
  const s = new LineSplitter();
  const out: LogLine[] = [];
  for (const c of chunks) out.push(...s.push(c));
  const last = s.end();
  if (last) out.push(last);
  return out;
}

const view = (lines: readonly LogLine[]) => lines.map((l) => ({ timestamp: l.timestamp, text: l.text, bytes: l.bytes, droppedBytes: l.droppedBytes }));

describe('log lines: parseLine', () => {
  it('splits off the kubelet timestamp and keeps the text after its one space', () => {
    const l = logLine('2026-12-05T06:00:00.123456789Z', 'GET /healthz 200 0.4ms');
    assert.equal(l.timestamp, '2026-12-05T06:00:00.123456789Z');
    assert.equal(l.text, 'GET /healthz 200 0.4ms');
    assert.equal(l.bytes, 'GET /healthz 200 0.4ms'.length);
    assert.equal(l.droppedBytes, 0);
    // Only the first space separates: the text keeps its own leading spaces (an indented stack frame).
    assert.equal(logLine('2026-12-05T06:00:00Z', '    at Object.<anonymous> (/app/server.js:12:5)').text, '    at Object.<anonymous> (/app/server.js:12:5)');
  });

  it('reads every RFC3339 form the kubelet writes: trimmed nanoseconds, whole seconds, a node in another zone', () => {
    for (const ts of ['2026-12-05T06:00:00.5Z', '2026-12-05T06:00:00Z', '2026-12-05T07:00:00.000000001+01:00', '2026-12-04T22:30:00.25-07:30']) {
      const l = logLine(ts, 'x');
      assert.equal(l.timestamp, ts);
      assert.equal(l.text, 'x');
      assert.notEqual(l.key, '');
    }
  });

  it('treats a line that does not start with a timestamp as text, all of it', () => {
    for (const raw of ['plain output', '2026-12-05 06:00:00 INFO started', '2026-12-05T06:00:00.123Z', '2026-12-05T06:00:00.1234567890Z ten digits', 'T06:00:00Z x', '']) {
      const l = parseLine(Buffer.from(raw, 'utf8'));
      assert.equal(l.timestamp, '', raw);
      assert.equal(l.key, '', raw);
      assert.equal(l.text, raw);
      assert.equal(l.bytes, Buffer.byteLength(raw));
    }
  });

  it('keeps an empty line (a timestamp and nothing after it)', () => {
    const l = logLine('2026-12-05T06:00:02.25Z', '');
    assert.equal(l.timestamp, '2026-12-05T06:00:02.25Z');
    assert.equal(l.text, '');
    assert.equal(l.bytes, 0);
  });

  it('keeps text in every script: CJK, emoji sequences, RTL marks and joiners', () => {
    const text = '错误：连接被拒绝 データベース 🧑‍🚀 🇯🇵 👍🏽 שלום\u200Fعالم\u200E café';
    const l = logLine('2026-12-05T06:00:00Z', text);
    assert.equal(l.text, text);
    assert.equal(l.bytes, Buffer.byteLength(text, 'utf8'));
  });

  it('makes terminal escapes and controls inert, as kubectl prints them: ESC as ^[, CR as \\r, the rest as \\xHH', () => {
    assert.equal(logLine('2026-12-05T06:00:00Z', '\u001b[31mERROR\u001b[0m payment failed').text, '^[[31mERROR^[[0m payment failed');
    assert.equal(logLine('2026-12-05T06:00:00Z', ' 10%\r 20%\r100%').text, ' 10%\\r 20%\\r100%');
    assert.equal(logLine('2026-12-05T06:00:00Z', 'bell\u0007 nul\u0000 del\u007f').text, 'bell\\x07 nul\\x00 del\\x7f');
    assert.equal(logLine('2026-12-05T06:00:00Z', 'invoice\u202Efdp.exe').text, 'invoice\\u202efdp.exe');
    assert.equal(logLine('2026-12-05T06:00:00Z', 'col1\tcol2').text, 'col1\tcol2');
  });

  it('drops the "\\r" of a CRLF line ending, and only that one', () => {
    const l = logLine('2026-12-05T06:00:00Z', 'Windows line\r');
    assert.equal(l.text, 'Windows line');
    assert.equal(logLine('2026-12-05T06:00:00Z', 'two\r\r').text, 'two\\r');
  });

  it('decodes invalid UTF-8 to U+FFFD as the WHATWG decoder does, and counts the raw bytes', () => {
    const cases: [number[], string][] = [
      [[0x66, 0xff, 0x6f], 'f\uFFFDo'], // a byte that is never UTF-8
      [[0xc0, 0xaf], '\uFFFD\uFFFD'], // an overlong "/"
      [[0xed, 0xa0, 0x80], '\uFFFD\uFFFD\uFFFD'], // a UTF-16 surrogate encoded as UTF-8
      [[0x61, 0xe4, 0xb8], 'a\uFFFD'], // "中" cut after two of its three bytes
      [[0xf0, 0x9f, 0x98, 0x80, 0x80], '😀\uFFFD'], // a stray continuation byte after an emoji
    ];
    for (const [bytes, text] of cases) {
      const body = Buffer.from(bytes);
      const l = parseLine(Buffer.concat([Buffer.from('2026-12-05T06:00:00Z '), body]));
      assert.equal(l.text, text, Buffer.from(bytes).toString('hex'));
      assert.equal(l.bytes, bytes.length);
    }
  });
});

describe('log lines: timestampKey', () => {
  const stamps = [
    '2026-12-05T06:00:00Z',
    '2026-12-05T06:00:00.000000001Z',
    '2026-12-05T06:00:00.00000001Z',
    '2026-12-05T06:00:00.1Z',
    '2026-12-05T06:00:00.123456789Z',
    '2026-12-05T06:00:00.45Z',
    '2026-12-05T06:00:00.5Z',
    '2026-12-05T07:00:00.5+01:00',
    '2026-12-05T06:00:00.999999999Z',
    '2026-12-05T06:00:01Z',
    '2026-12-04T22:30:01.25-07:30',
    '2026-12-05T06:00:10Z',
    '2027-01-01T00:00:00Z',
    '2001-09-09T01:46:40Z',
  ];

  it('orders lines exactly as their instants to the nanosecond, whatever the zone or trimmed zeros', () => {
    // The strings themselves do not compare: "06:00:00Z" > "06:00:00.1Z" as text, yet it is earlier.
    assert.ok('2026-12-05T06:00:00Z' > '2026-12-05T06:00:00.1Z');
    for (const a of stamps) {
      for (const b of stamps) {
        const ka = logLine(a, '').key;
        const kb = logLine(b, '').key;
        const want = nanos(a) < nanos(b) ? -1 : nanos(a) > nanos(b) ? 1 : 0;
        const got = ka < kb ? -1 : ka > kb ? 1 : 0;
        assert.equal(got, want, `${a} vs ${b}`);
      }
    }
  });

  it('gives one instant one key, from its parts', () => {
    assert.equal(timestampKey('2026-12-05T06:00:00', '5', 'Z'), timestampKey('2026-12-05T07:00:00', '500000000', '+01:00'));
    assert.equal(timestampKey('2026-12-05T06:00:00', undefined, 'Z'), timestampKey('2026-12-05T06:00:00', '000000000', 'Z'));
    assert.notEqual(timestampKey('2026-12-05T06:00:00', '1', 'Z'), timestampKey('2026-12-05T06:00:00', '01', 'Z'));
    assert.equal(logLine('2026-12-04T22:30:01.25-07:30', 'x').key, logLine('2026-12-05T06:00:01.250Z', 'x').key);
  });
});

describe('log lines: LineSplitter', () => {
  // What the apiserver sends: LF and CRLF endings, multi-byte characters of every width, an
  // empty line, a line with no timestamp, and a last line the stream ended in the middle of.
  const SOURCE: { ts: string; text: string; eol: string }[] = [
    { ts: '2026-12-05T06:00:00.123456789Z', text: 'GET /healthz 200', eol: '\n' },
    { ts: '2026-12-05T06:00:00.5Z', text: '错误：连接被拒绝 (ECONNREFUSED) 10.96.0.1:443', eol: '\r\n' },
    { ts: '2026-12-05T06:00:01Z', text: '🧑‍🚀 deploy ✅ café ñ', eol: '\n' },
    { ts: '2026-12-05T06:00:01.000000001Z', text: '', eol: '\n' },
    { ts: '2026-12-05T07:00:01.5+01:00', text: 'שלום\u200Fعالم', eol: '\r\n' },
    { ts: '', text: 'no timestamp here', eol: '\n' },
    { ts: '2026-12-05T06:00:02Z', text: '\u001b[1;31mFATAL\u001b[0m out of memory', eol: '\n' },
    { ts: '2026-12-05T06:00:03Z', text: 'last words 👋', eol: '' },
  ];
  const STREAM = Buffer.from(SOURCE.map((l) => `${l.ts ? `${l.ts} ` : ''}${l.text}${l.eol}`).join(''), 'utf8');
  const EXPECTED = SOURCE.map((l) => ({
    timestamp: l.ts,
    text: l.text.split('\u001b').join('^['),
    bytes: Buffer.byteLength(l.text + (l.eol === '\r\n' ? '\r' : '')),
    droppedBytes: 0,
  }));

  it('gives each line whole, in order, from one chunk', () => {
    assert.deepEqual(view(splitAll([STREAM])), EXPECTED);
  });

  it('gives the same lines whatever byte the stream is cut at: inside a character, between \\r and \\n', () => {
    // Make sure the cuts this is about are there to be made.
    assert.ok(STREAM.includes(Buffer.from('\r\n')));
    assert.ok(STREAM.includes(Buffer.from('🧑', 'utf8')));
    for (let i = 0; i <= STREAM.length; i++) {
      assert.deepEqual(view(splitAll([STREAM.subarray(0, i), STREAM.subarray(i)])), EXPECTED, `cut at byte ${i}`);
    }
  });

  it('gives the same lines from a stream that comes one byte at a time', () => {
    const bytes = Array.from({ length: STREAM.length }, (_, i) => STREAM.subarray(i, i + 1));
    assert.deepEqual(view(splitAll(bytes)), EXPECTED);
  });

  it('gives the same lines from three chunks cut at any two places of a line of 4-byte characters and CRLF', () => {
    const text = '😀🙈 ok 🧑‍🚀';
    const small = Buffer.from(`2026-12-05T06:00:00Z ${text}\r\n2026-12-05T06:00:01Z 中\r\n`, 'utf8');
    const want = [
      { timestamp: '2026-12-05T06:00:00Z', text, bytes: Buffer.byteLength(text) + 1, droppedBytes: 0 },
      { timestamp: '2026-12-05T06:00:01Z', text: '中', bytes: 4, droppedBytes: 0 },
    ];
    for (let i = 0; i <= small.length; i++) {
      for (let j = i; j <= small.length; j++) {
        assert.deepEqual(view(splitAll([small.subarray(0, i), small.subarray(i, j), small.subarray(j)])), want, `cuts at ${i} and ${j}`);
      }
    }
  });

  it('holds a partial line back until its "\\n" comes, and gives it from end() when the stream stops', () => {
    const s = new LineSplitter();
    assert.deepEqual(s.push(Buffer.from('2026-12-05T06:00:00Z waiting for ')), []);
    assert.deepEqual(s.push(Buffer.from('the datab')), []);
    const [line, ...rest] = s.push(Buffer.from('ase\n2026-12-05T06:00:01Z half'));
    assert.equal(line.text, 'waiting for the database');
    assert.deepEqual(rest, []);
    assert.equal(s.end()?.text, 'half');
    // Nothing is left after end(), nor after a stream that ended with its "\n".
    assert.equal(s.end(), undefined);
    const t = new LineSplitter();
    assert.equal(t.push(Buffer.from('2026-12-05T06:00:00Z done\n')).length, 1);
    assert.equal(t.end(), undefined);
  });

  it('gives empty lines for blank lines, not nothing', () => {
    assert.deepEqual(splitAll([Buffer.from('\n\r\n\n')]).map((l) => l.text), ['', '', '']);
  });

  it('forgets a partial line on reset (the resumed stream sends it again whole)', () => {
    const s = new LineSplitter();
    s.push(Buffer.from('2026-12-05T06:00:00Z conn'));
    s.reset();
    assert.equal(s.end(), undefined);
    assert.deepEqual(s.push(Buffer.from('2026-12-05T06:00:00Z connected\n')).map((l) => l.text), ['connected']);
  });

  it('copies what it holds: the stream may reuse a chunk\'s memory after handing it over', () => {
    const s = new LineSplitter();
    const chunk = Buffer.from('2026-12-05T06:00:00Z 中文日志');
    s.push(chunk);
    chunk.fill(0x41);
    assert.equal(s.push(Buffer.from('\n'))[0].text, '中文日志');
  });

  it('keeps a line of 1 MiB whole, CRLF and timestamp included', () => {
    // 349,525 three-byte characters and one ASCII byte: 1,048,576 bytes.
    const text = '中'.repeat(349_525) + 'x';
    assert.equal(Buffer.byteLength(text), 1024 * 1024);
    const lines = splitAll([Buffer.from(`2026-12-05T06:00:00.123456789Z ${text}\r\n2026-12-05T06:00:01Z next\n`)]);
    assert.equal(lines.length, 2);
    assert.equal(lines[0].text, text);
    assert.equal(lines[0].droppedBytes, 0);
    assert.equal(lines[0].bytes, 1024 * 1024 + 1);
    assert.equal(lines[1].text, 'next');
  });

  it('cuts a 2 MiB line to its first MAX_LINE_BYTES and counts the rest, arriving in 64 KiB chunks', () => {
    const ts = '2026-12-05T06:00:00.123456789Z';
    // A JSON log record padded to 2 MiB, ASCII: one byte a character.
    const record = '{"level":"error","msg":"dump","payload":"';
    const body = record + 'A'.repeat(2 * 1024 * 1024 - record.length - 2) + '"}';
    assert.equal(body.length, 2 * 1024 * 1024);
    const stream = Buffer.from(`${ts} ${body}\n2026-12-05T06:00:01Z after the dump\n`);
    const chunks: Buffer[] = [];
    for (let i = 0; i < stream.length; i += 65536) chunks.push(stream.subarray(i, i + 65536));
    const lines = splitAll(chunks);
    assert.equal(lines.length, 2);
    const [big, next] = lines;
    const total = ts.length + 1 + body.length;
    assert.equal(big.timestamp, ts);
    assert.equal(big.droppedBytes, total - MAX_LINE_BYTES);
    assert.equal(big.bytes, body.length);
    assert.equal(big.text, body.slice(0, MAX_LINE_BYTES - ts.length - 1));
    assert.ok(big.text.startsWith(record));
    // The next line starts clean: nothing of the cut one is carried over.
    assert.deepEqual(view([next]), [{ timestamp: '2026-12-05T06:00:01Z', text: 'after the dump', bytes: 14, droppedBytes: 0 }]);
  });

  it('cuts exactly at MAX_LINE_BYTES: a line of that many bytes is whole, one more byte is dropped', () => {
    const [whole] = splitAll([Buffer.from(`${'a'.repeat(MAX_LINE_BYTES)}\n`)]);
    assert.equal(whole.droppedBytes, 0);
    assert.equal(whole.text.length, MAX_LINE_BYTES);
    const [over] = splitAll([Buffer.from(`${'a'.repeat(MAX_LINE_BYTES)}b\n`)]);
    assert.equal(over.droppedBytes, 1);
    assert.equal(over.bytes, MAX_LINE_BYTES + 1);
    assert.equal(over.text, 'a'.repeat(MAX_LINE_BYTES));
  });

  it('cuts a long CJK line on a byte, keeping a prefix of its text (a cut character shows as U+FFFD)', () => {
    const text = '日志'.repeat(400_000); // 2,400,000 bytes
    const [l] = splitAll([Buffer.from(`2026-12-05T06:00:00Z ${text}\n`)]);
    assert.equal(l.bytes, Buffer.byteLength(text));
    assert.equal(l.droppedBytes, Buffer.byteLength(`2026-12-05T06:00:00Z ${text}`) - MAX_LINE_BYTES);
    const kept = l.text.replace(/\uFFFD$/, '');
    assert.ok(text.startsWith(kept));
    // What is kept is the most whole characters that fit in the bytes kept.
    assert.equal(Buffer.byteLength(kept), Math.floor((MAX_LINE_BYTES - 21) / 3) * 3);
  });

  it('never holds a binary stream with no "\\n" whole: 3 MiB come out as one cut line', () => {
    let seed = 12345;
    const data = Buffer.alloc(3 * 1024 * 1024);
    for (let i = 0; i < data.length; i++) {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      const b = seed >>> 24;
      data[i] = b === 0x0a ? 0x0b : b;
    }
    const s = new LineSplitter();
    for (let i = 0; i < data.length; i += 16384) assert.deepEqual(s.push(data.subarray(i, i + 16384)), []);
    const l = s.end();
    assert.ok(l);
    assert.equal(l.droppedBytes, data.length - MAX_LINE_BYTES);
    assert.equal(l.bytes, data.length);
    // Controls in the bytes are made visible, never passed through.
    // eslint-disable-next-line no-control-regex -- looking for controls is the point
    assert.doesNotMatch(l.text, /[\u0000-\u0008\u000b-\u001f\u007f]/);
  });
});

describe('log lines: ResumePoint', () => {
  /** Lines through a ResumePoint: the texts it lets pass. */
  const pass = (r: ResumePoint, lines: readonly LogLine[]) => lines.filter((l) => r.accept(l)).map((l) => l.text);

  it('lets every line of the first stream through, and remembers the last timestamp for sinceTime', () => {
    const r = new ResumePoint();
    assert.equal(r.timestamp, '');
    const first = [logLine('2026-12-05T06:00:00.1Z', 'a'), logLine('2026-12-05T06:00:00.2Z', 'b'), logLine('2026-12-05T06:00:00.9Z', 'c')];
    assert.deepEqual(pass(r, first), ['a', 'b', 'c']);
    assert.equal(r.timestamp, '2026-12-05T06:00:00.9Z');
  });

  it('after a reconnect from sinceTime (cut to the second) skips the lines before the last one seen, and it', () => {
    const r = new ResumePoint();
    pass(r, [logLine('2026-12-05T05:59:59.7Z', 'old'), logLine('2026-12-05T06:00:00.1Z', 'a'), logLine('2026-12-05T06:00:00.2Z', 'b')]);
    r.resumed();
    // The apiserver passes sinceTime=06:00:00Z on: the kubelet sends again from the second's start.
    const again = [logLine('2026-12-05T06:00:00.1Z', 'a'), logLine('2026-12-05T06:00:00.2Z', 'b'), logLine('2026-12-05T06:00:00.3Z', 'c'), logLine('2026-12-05T06:00:01Z', 'd')];
    assert.deepEqual(pass(r, again), ['c', 'd']);
    assert.equal(r.timestamp, '2026-12-05T06:00:01Z');
  });

  it('does not double the lines at the last timestamp, and keeps new distinct lines at that same timestamp', () => {
    const r = new ResumePoint();
    const t = '2026-12-05T06:00:00.5Z';
    // Two lines with one timestamp (a coarse clock; one write of two lines) were seen before the break.
    assert.deepEqual(pass(r, [logLine('2026-12-05T06:00:00.4Z', 'x'), logLine(t, 'one'), logLine(t, 'two')]), ['x', 'one', 'two']);
    r.resumed();
    const again = [logLine('2026-12-05T06:00:00.4Z', 'x'), logLine(t, 'one'), logLine(t, 'two'), logLine(t, 'three'), logLine(t, 'four'), logLine('2026-12-05T06:00:00.6Z', 'five')];
    assert.deepEqual(pass(r, again), ['three', 'four', 'five']);
  });

  it('takes the line a stream broke in the middle of from the resumed stream, whole', () => {
    const r = new ResumePoint();
    const s = new LineSplitter();
    const first = s.push(Buffer.from('2026-12-05T06:00:00.1Z a\n2026-12-05T06:00:00.1Z b\n2026-12-05T06:00:00.1Z par'));
    assert.deepEqual(pass(r, first), ['a', 'b']);
    s.reset();
    r.resumed();
    const again = new LineSplitter().push(Buffer.from('2026-12-05T06:00:00.1Z a\n2026-12-05T06:00:00.1Z b\n2026-12-05T06:00:00.1Z partial line\n2026-12-05T06:00:00.2Z next\n'));
    assert.deepEqual(pass(r, again), ['partial line', 'next']);
  });

  it('repeats nothing over several reconnects in a row, with or without new lines between them', () => {
    const r = new ResumePoint();
    const all = [logLine('2026-12-05T06:00:00.1Z', 'a'), logLine('2026-12-05T06:00:00.1Z', 'b'), logLine('2026-12-05T06:00:00.2Z', 'c')];
    assert.deepEqual(pass(r, all.slice(0, 2)), ['a', 'b']);
    r.resumed();
    assert.deepEqual(pass(r, all.slice(0, 2)), []); // broke again before anything new
    r.resumed();
    assert.deepEqual(pass(r, all), ['c']);
    r.resumed();
    assert.deepEqual(pass(r, [...all, logLine('2026-12-05T06:00:00.2Z', 'd')]), ['d']);
    assert.equal(r.timestamp, '2026-12-05T06:00:00.2Z');
  });

  it('lets lines without a timestamp through', () => {
    const r = new ResumePoint();
    assert.deepEqual(pass(r, [logLine('2026-12-05T06:00:00Z', 'a'), parseLine(Buffer.from('untimed'))]), ['a', 'untimed']);
  });

  it('keeps a stderr line whose timestamp is a little older than the stdout line before it, in one stream', () => {
    // containerd stamps each stream's line in that stream's own goroutine, then writes it to the
    // shared file: a stderr line stamped first can land after a stdout line stamped later.
    const r = new ResumePoint();
    const stream = [logLine('2026-12-05T06:00:00.000200000Z', 'stdout: request failed, see stderr'), logLine('2026-12-05T06:00:00.000100000Z', 'stderr: panic: nil map'), logLine('2026-12-05T06:00:00.000300000Z', 'stdout: exiting')];
    assert.deepEqual(pass(r, stream), ['stdout: request failed, see stderr', 'stderr: panic: nil map', 'stdout: exiting']);
  });

  it('after a reconnect, still skips an out-of-order line it had seen, and keeps taking them once past', () => {
    const r = new ResumePoint();
    const seen = [logLine('2026-12-05T06:00:00.0002Z', 'out 1'), logLine('2026-12-05T06:00:00.0001Z', 'err 1')];
    assert.deepEqual(pass(r, seen), ['out 1', 'err 1']);
    // sinceTime is the newest instant seen, so no line after the break is left out of the resumed stream.
    assert.equal(r.timestamp, '2026-12-05T06:00:00.0002Z');
    r.resumed();
    const again = [...seen, logLine('2026-12-05T06:00:00.0004Z', 'out 2'), logLine('2026-12-05T06:00:00.0003Z', 'err 2')];
    assert.deepEqual(pass(r, again), ['out 2', 'err 2']);
  });
});
