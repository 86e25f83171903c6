// History across restarts: exact text, only what changed written, one log per cluster
// identity, errors reported rather than thrown, loads that show events before they end,
// and a log that survives its writer being killed mid-write.
//
// Run directly with KEV_HISTORY_CHILD=<folder>, this file is the writer that the kill test
// kills (the test bundle is the only build of the store the test has).
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ClusterEvent } from '../../../src/model/clusterEvent';
import { EventStore } from '../../../src/model/eventStore';
import { parseRecord } from '../../../src/model/historyLog';
import { prng } from '../../support/prng';
import { coreEvent, T0 } from './fixtures';

const S = 1000;
const IDENTITY = JSON.stringify({ server: 'https://10.0.0.1:6443', user: 'admin', context: 'prod' });

/** Every field of ClusterEvent, to compare one by one (a field added to the type must be added here to compile). */
const EVERY_FIELD: Record<keyof ClusterEvent, true> = {
  uid: true,
  namespace: true,
  name: true,
  resourceVersion: true,
  type: true,
  reason: true,
  message: true,
  count: true,
  firstSeen: true,
  lastSeen: true,
  created: true,
  source: true,
  sourceHost: true,
  reportingInstance: true,
  action: true,
  involvedObject: true,
  origin: true,
  expiredAt: true,
};
const FIELDS = Object.keys(EVERY_FIELD) as (keyof ClusterEvent)[];

/** Text in every script and every awkward code unit JSON can carry. */
const CONTROL = Array.from({ length: 32 }, (_, i) => String.fromCharCode(i)).join('') + '\u007f\u0085';
const AWKWARD = [
  '容器镜像已存在于机器上 — コンテナを起動しました — 컨테이너 시작됨',
  'emoji 🚀🔥 family 👨‍👩‍👧‍👦 flag 🇯🇵 skin 👍🏽',
  'RTL \u202eevil.exe\u202c עברית العربية \u200f',
  `control ${CONTROL} end`,
  'separators \u2028 and \u2029, BOM \ufeff, NBSP \u00a0',
  'lone surrogates \ud800 x \udfff y \udc00\ud800 z',
  'quotes " \' \\ backslash \\n not a newline',
  'x'.repeat(100_000) + '末',
];

function awkwardEvent(i: number, over: Partial<ClusterEvent> = {}): ClusterEvent {
  const t = (k: number) => AWKWARD[(i + k) % AWKWARD.length];
  return {
    uid: `uid-${i}-${t(0).slice(0, 20)}`,
    namespace: `ns-${t(1).slice(0, 30)}`,
    name: `name.${i}.${t(2).slice(0, 40)}`,
    resourceVersion: String(1000 + i),
    type: i % 2 ? 'Warning' : 'Normal',
    reason: t(3).slice(0, 60),
    message: t(4) + t(5),
    count: 1 + i,
    firstSeen: T0 + i * S,
    lastSeen: i % 3 === 0 ? undefined : T0 + i * S + 500,
    created: i % 4 === 0 ? undefined : T0 + i * S - 1,
    source: t(6).slice(0, 50),
    sourceHost: t(7).slice(-30),
    reportingInstance: t(0),
    action: t(1),
    involvedObject: { kind: `Kind${t(2).slice(0, 5)}`, namespace: t(3).slice(0, 10), name: t(4).slice(0, 60), uid: `obj-${i % 4}`, apiVersion: 'v1', fieldPath: t(5).slice(0, 30) },
    origin: i % 5 === 0 ? 'events.k8s.io/v1' : 'core/v1',
    ...over,
  };
}

function assertSameEvent(actual: ClusterEvent | undefined, expected: ClusterEvent): void {
  assert.ok(actual, `event ${JSON.stringify(expected.uid)} is there`);
  for (const f of FIELDS) assert.deepStrictEqual(actual[f], expected[f], `field ${f} of ${JSON.stringify(expected.uid)}`);
}

function tempFolder(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'kev-history-'));
}

/** The lines of a log after its header, and how many did not parse. */
function logLines(file: string): { records: number; bad: number; endsWithNewline: boolean } {
  const text = fs.readFileSync(file, 'utf8');
  const lines = text.split('\n').slice(1, text.endsWith('\n') ? -1 : undefined);
  return { records: lines.length, bad: lines.filter((l) => !parseRecord(l)).length, endsWithNewline: text.endsWith('\n') };
}

// The kill test's writer. Round r adds KILL_BATCH new events and updates every earlier one
// (its count goes up by one), then saves: so the log sees appends and, every few rounds,
// compactions, and an event's content follows from its index and count alone.
const KILL_BATCH = 200;
const KILL_IDENTITY = 'kill-test-cluster';

function killEvent(i: number, count: number): ClusterEvent {
  return awkwardEvent(i, { uid: `kill-${i}`, name: `kill.${i}`, count, lastSeen: T0 + count * S, message: `${AWKWARD[i % AWKWARD.length].slice(0, 2000).repeat(4)} #${i}×${count}` });
}

async function runChild(folder: string): Promise<void> {
  const store = new EventStore({ historyFolder: folder, maxEvents: 1_000_000, onHistoryError: (e) => process.stderr.write(`${e.message}\n`) });
  await store.loadHistory(KILL_IDENTITY);
  for (let round = 0; ; round++) {
    store.batch(() => {
      for (let i = 0; i < (round + 1) * KILL_BATCH; i++) store.upsert(killEvent(i, round - Math.floor(i / KILL_BATCH) + 1));
    });
    process.stdout.write(`writing ${round}\n`);
    await store.saveHistory();
    process.stdout.write(`saved ${round}\n`);
  }
}

/**
 * Starts the writer and kills it (SIGKILL) during the save of round `killRound`: at `at`
 * (0 to 1) of the time the previous save took, a little longer as each round writes more.
 * Resolves with the last round whose save had finished.
 */
function killMidWrite(folder: string, killRound: number, at: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [__filename], { env: { ...process.env, KEV_HISTORY_CHILD: folder }, stdio: ['ignore', 'pipe', 'inherit'] });
    let saved = -1;
    let out = '';
    let writingAt = 0;
    let lastSaveMs = 0;
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      for (;;) {
        const nl = out.indexOf('\n');
        if (nl < 0) break;
        const [what, n] = out.slice(0, nl).split(' ');
        out = out.slice(nl + 1);
        if (what === 'saved') {
          saved = Number(n);
          lastSaveMs = performance.now() - writingAt;
        } else if (what === 'writing') {
          writingAt = performance.now();
          if (Number(n) === killRound) setTimeout(() => child.kill('SIGKILL'), at * lastSaveMs * 1.5);
        }
      }
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => (signal === 'SIGKILL' ? resolve(saved) : reject(new Error(`the writer ended with ${code ?? signal} before it was killed`))));
  });
}

/** The log holds exactly the state after some whole round (no save was cut short). */
function isWholeRound(store: EventStore): boolean {
  const round = store.size / KILL_BATCH - 1;
  if (!Number.isInteger(round)) return false;
  for (const e of store.all()) {
    const i = Number(e.uid.slice('kill-'.length));
    if (i > (round + 1) * KILL_BATCH || e.count !== round - Math.floor(i / KILL_BATCH) + 1) return false;
  }
  return true;
}

if (process.env.KEV_HISTORY_CHILD) {
  void runChild(process.env.KEV_HISTORY_CHILD);
} else {
  describe('history', () => {
    let folder: string;
    beforeEach(() => (folder = tempFolder()));
    afterEach(() => fs.rmSync(folder, { recursive: true, force: true }));

    it('brings back every field of every event exactly: every script, control characters, lone surrogates', async () => {
      const events = Array.from({ length: 40 }, (_, i) => awkwardEvent(i));
      const store = new EventStore({ historyFolder: folder, now: () => T0 });
      await store.loadHistory(IDENTITY);
      for (const e of events) store.upsert(e);
      await store.saveHistory(); // the first save writes the whole log
      const changed = { ...events[7], message: `${events[7].message} and again ${AWKWARD[5]}`, count: 99 };
      store.upsert(changed);
      store.expire(events[8].uid);
      await store.saveHistory(); // then only what changed is appended
      const back = new EventStore({ historyFolder: folder, now: () => T0 });
      assert.equal(await back.loadHistory(IDENTITY), 40);
      for (const e of events) {
        if (e === events[7]) assertSameEvent(back.get(e.uid), changed);
        else if (e === events[8]) assertSameEvent(back.get(e.uid), { ...e, expiredAt: T0 });
        else assertSameEvent(back.get(e.uid), e);
      }
      const raw = fs.readFileSync(store.historyLog?.file as string);
      assert.equal(raw.toString('utf8').includes('\ufffd'), false, 'no replacement character written');
    });

    it('writes nothing when nothing changed, and no file for a store that never had events', async () => {
      const store = new EventStore({ historyFolder: folder, now: () => T0 });
      await store.loadHistory(IDENTITY);
      await store.saveHistory();
      assert.deepEqual(fs.readdirSync(folder), []);
      store.upsert(coreEvent({ uid: 'a' }));
      await store.saveHistory();
      const file = store.historyLog?.file as string;
      const before = fs.statSync(file);
      const writes = store.historyLog?.writes;
      await new Promise((r) => setTimeout(r, 20));
      await store.saveHistory();
      await store.saveHistory();
      assert.equal(store.historyLog?.writes, writes);
      assert.equal(fs.statSync(file).mtimeMs, before.mtimeMs);
      assert.equal(fs.statSync(file).size, before.size);
    });

    it('appends only what changed: three changed events out of 2,000 add three lines', async () => {
      const store = new EventStore({ historyFolder: folder, now: () => T0 });
      await store.loadHistory(IDENTITY);
      store.batch(() => {
        for (let i = 0; i < 2000; i++) store.upsert(coreEvent({ uid: `e${i}`, object: `o${i % 50}`, message: `message ${i} ${'x'.repeat(300)}`, first: T0 + i }));
      });
      await store.saveHistory();
      const file = store.historyLog?.file as string;
      const size = fs.statSync(file).size;
      for (const i of [5, 500, 1500]) store.upsert(coreEvent({ uid: `e${i}`, object: `o${i % 50}`, message: `message ${i} ${'x'.repeat(300)}`, first: T0 + i, count: 2 }));
      await store.saveHistory();
      const grown = fs.statSync(file).size - size;
      const lines = logLines(file);
      assert.equal(lines.records, 2003);
      assert.ok(grown > 3 * 300 && grown < 3 * 1000, `grew by ${grown} bytes`);
    });

    it('compacts when the log has grown past twice what it holds, keeping the latest of each event', async () => {
      const store = new EventStore({ historyFolder: folder, now: () => T0 });
      await store.loadHistory(IDENTITY);
      const file = () => store.historyLog?.file as string;
      for (let round = 1; round <= 12; round++) {
        store.batch(() => {
          for (let i = 0; i < 500; i++) store.upsert(coreEvent({ uid: `e${i}`, count: round, first: T0 + i }));
        });
        await store.saveHistory();
        assert.ok(logLines(file()).records <= 2 * 500 + 1000 + 500, `round ${round}: ${logLines(file()).records} records`);
      }
      const back = new EventStore({ historyFolder: folder, now: () => T0 });
      await back.loadHistory(IDENTITY);
      assert.equal(back.size, 500);
      assert.ok([...back.all()].every((e) => e.count === 12));
    });

    it('loads only the newest of a history larger than the cap, and the next save forgets the rest', async () => {
      const rnd = prng(12);
      const store = new EventStore({ historyFolder: folder, maxEvents: 1000, now: () => T0 });
      await store.loadHistory(IDENTITY);
      // Times in a shuffled order, so the log holds them out of time order.
      const order = Array.from({ length: 300 }, (_, i) => i).sort(() => rnd() - 0.5);
      store.batch(() => {
        for (const i of order) store.upsert(coreEvent({ uid: `e${i}`, object: `o${i % 7}`, first: T0 + i * S }));
      });
      await store.saveHistory();
      const newest = new Set(Array.from({ length: 100 }, (_, k) => `e${299 - k}`));
      const capped = new EventStore({ historyFolder: folder, maxEvents: 100, now: () => T0 });
      await capped.loadHistory(IDENTITY);
      assert.deepEqual(new Set([...capped.all()].map((e) => e.uid)), newest);
      assert.equal(capped.evictions, 200);
      await capped.saveHistory();
      const back = new EventStore({ historyFolder: folder, maxEvents: 1000, now: () => T0 });
      await back.loadHistory(IDENTITY);
      assert.deepEqual(new Set([...back.all()].map((e) => e.uid)), newest, 'the events the cap dropped are gone from the log too');
    });

    it('keeps one log per cluster identity: the same context name on two servers never mixes', async () => {
      const a = JSON.stringify({ server: 'https://a.example:6443', user: 'me', context: 'prod' });
      const b = JSON.stringify({ server: 'https://b.example:6443', user: 'me', context: 'prod' });
      const store = new EventStore({ historyFolder: folder, now: () => T0 });
      await store.loadHistory(a);
      store.upsert(coreEvent({ uid: 'from-a' }));
      await store.saveHistory();
      store.clear();
      await store.loadHistory(b);
      assert.equal(store.size, 0);
      store.upsert(coreEvent({ uid: 'from-b' }));
      await store.saveHistory();
      store.clear();
      assert.equal(await store.loadHistory(a), 1);
      assert.deepEqual([...store.all()].map((e) => e.uid), ['from-a']);
      assert.equal(fs.readdirSync(folder).length, 2);
    });

    it('reports write errors through the callback, never throws them, and writes once it can again', async () => {
      const blocked = path.join(folder, 'not-a-folder');
      fs.writeFileSync(blocked, 'a file where the history folder should be');
      const errors: string[] = [];
      const store = new EventStore({ historyFolder: blocked, now: () => T0, onHistoryError: (e, action) => errors.push(`${action}: ${(e as NodeJS.ErrnoException).code}`) });
      let unhandled = 0;
      const count = () => unhandled++;
      process.on('unhandledRejection', count);
      try {
        await store.loadHistory(IDENTITY);
        store.upsert(coreEvent({ uid: 'a' }));
        await store.saveHistory();
        await new Promise((r) => setImmediate(r));
        assert.deepEqual(
          errors.map((e) => e.split(':')[0]),
          ['read', 'rewrite'],
          errors.join('; '),
        );
        assert.equal(unhandled, 0);
        fs.rmSync(blocked);
        await store.saveHistory();
        const back = new EventStore({ historyFolder: blocked, now: () => T0 });
        assert.equal(await back.loadHistory(IDENTITY), 1, 'the retry wrote it');
      } finally {
        process.off('unhandledRejection', count);
      }
    });

    it('skips a torn last line, and the next save leaves a whole log', async () => {
      const store = new EventStore({ historyFolder: folder, now: () => T0 });
      await store.loadHistory(IDENTITY);
      for (let i = 0; i < 10; i++) store.upsert(coreEvent({ uid: `e${i}`, first: T0 + i }));
      await store.saveHistory();
      const file = store.historyLog?.file as string;
      fs.appendFileSync(file, '{"e":{"uid":"torn","namesp');
      const back = new EventStore({ historyFolder: folder, now: () => T0 });
      assert.equal(await back.loadHistory(IDENTITY), 10);
      back.upsert(coreEvent({ uid: 'after', first: T0 + 100 }));
      await back.saveHistory();
      assert.deepEqual(logLines(file), { records: 11, bad: 0, endsWithNewline: true });
    });

    it('shows events while a 20,000-event history loads, in several changes', async () => {
      const store = new EventStore({ historyFolder: folder, now: () => T0 });
      await store.loadHistory(IDENTITY);
      store.batch(() => {
        for (let i = 0; i < 20_000; i++) store.upsert(coreEvent({ uid: `e${i}`, object: `o${i % 500}`, message: `${AWKWARD[i % 4].slice(0, 200)} ${i}`, first: T0 + i }));
      });
      await store.saveHistory();
      const back = new EventStore({ historyFolder: folder, now: () => T0 });
      const sizes: number[] = [];
      let finished = false;
      back.onDidChange(() => sizes.push(finished ? -1 : back.size));
      const loading = back.loadHistory(IDENTITY).then((n) => ((finished = true), n));
      assert.equal(await loading, 20_000);
      assert.ok(sizes.length >= 2, `${sizes.length} changes`);
      assert.ok(sizes[0] > 0 && sizes[0] < 20_000, `events visible before the load finished (${sizes[0]} at first)`);
      assert.equal(back.size, 20_000);
    });

    it('does not let a load overwrite what arrived live meanwhile, and stops when the store is cleared', async () => {
      const store = new EventStore({ historyFolder: folder, now: () => T0 });
      await store.loadHistory(IDENTITY);
      store.batch(() => {
        for (let i = 0; i < 20_000; i++) store.upsert(coreEvent({ uid: `e${i}`, object: `o${i % 500}`, message: `old ${i} ${'y'.repeat(200)}`, first: T0 + i }));
      });
      await store.saveHistory();
      const back = new EventStore({ historyFolder: folder, now: () => T0 });
      const loading = back.loadHistory(IDENTITY);
      back.upsert(coreEvent({ uid: 'e19999', object: 'o499', message: 'live, newer', first: T0 + S * 100 }));
      await loading;
      assert.equal(back.get('e19999')?.message, 'live, newer');

      const third = new EventStore({ historyFolder: folder, now: () => T0 });
      let cleared = false;
      third.onDidChange(() => {
        if (!cleared && third.size > 0) {
          cleared = true;
          third.clear();
        }
      });
      await third.loadHistory(IDENTITY);
      assert.equal(third.size, 0, 'nothing more was loaded after the clear');
    });

    it('prunes loaded history past the window, as it did before saving', async () => {
      let now = T0;
      const store = new EventStore({ historyFolder: folder, historyWindowMs: 60 * S, now: () => now });
      await store.loadHistory(IDENTITY);
      store.upsert(coreEvent({ uid: 'kept' }));
      store.upsert(coreEvent({ uid: 'gone' }));
      store.expire('gone');
      await store.saveHistory();
      now += 120 * S;
      const back = new EventStore({ historyFolder: folder, historyWindowMs: 60 * S, now: () => now });
      await back.loadHistory(IDENTITY);
      assert.deepEqual([...back.all()].map((e) => e.uid), ['kept']);
    });

    it('keeps its history across a restart in the folder it is given, one log per cluster identity', async () => {
      const store = new EventStore({ historyFolder: folder });
      await store.loadHistory('cluster-a');
      store.upsert(coreEvent({ uid: 'a' }));
      store.upsert(coreEvent({ uid: 'b' }));
      store.expire('b');
      await store.saveHistory();
      const reloaded = new EventStore({ historyFolder: folder });
      assert.equal(await reloaded.loadHistory('cluster-a'), 2);
      assert.ok(reloaded.get('b')?.expiredAt, 'expired stays expired');
      assert.equal(reloaded.get('a')?.expiredAt, undefined);
      assert.equal(await new EventStore({ historyFolder: folder }).loadHistory('cluster-b'), 0, 'each cluster has its own history');
      const file = store.historyLog?.file as string;
      fs.writeFileSync(file, '{broken');
      assert.equal(await new EventStore({ historyFolder: folder }).loadHistory('cluster-a'), 0, 'a damaged file is ignored');
    });

    it('survives its writer being killed mid-write: the log loads, nothing saved is lost, nothing is damaged', async function () {
      this.timeout(120_000);
      const rnd = prng(21);
      let cut = 0;
      for (let run = 0; run < 10; run++) {
        const dir = path.join(folder, `run-${run}`);
        fs.mkdirSync(dir);
        const savedRound = await killMidWrite(dir, 2 + Math.floor(rnd() * 3), rnd());
        const store = new EventStore({ historyFolder: dir, maxEvents: 1_000_000 });
        await store.loadHistory(KILL_IDENTITY);
        const mustHave = (savedRound + 1) * KILL_BATCH;
        assert.ok(store.size >= mustHave, `run ${run}: ${store.size} events loaded, ${mustHave} were saved before the kill`);
        for (const e of store.all()) {
          const i = Number(e.uid.slice('kill-'.length));
          assertSameEvent(e, killEvent(i, e.count));
          if (i < mustHave) assert.ok(e.count >= savedRound - Math.floor(i / KILL_BATCH) + 1, `run ${run}: event ${i} is as new as when it was saved`);
        }
        const files = fs.readdirSync(dir);
        const lines = logLines(path.join(dir, files.find((f) => f.endsWith('.jsonl')) as string));
        assert.ok(lines.bad <= 1, `run ${run}: at most the torn last line is unreadable (${lines.bad})`);
        if (lines.bad > 0 || files.some((f) => f.endsWith('.tmp')) || !isWholeRound(store)) cut++;
      }
      assert.ok(cut >= 2, `a write was cut short in ${cut} of 10 runs (the test must kill mid-write to show anything)`);
    });
  });
}
