// Exact text, end to end (issue 8.1): thousands of long mixed-script messages (CJK, emoji
// with ZWJ sequences, skin tones and flags, RTL text and marks, combining marks, every C0
// control, DEL, C1 controls, noncharacters) created while watching, through core/v1 and
// events.k8s.io/v1, by watch, by a paged list and by the initial stream, compared byte for byte with what the
// apiserver holds (read back raw by kubectl), then through the history file and every export.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ApiClient } from '../../src/cluster/apiRequest';
import { EventObserver } from '../../src/cluster/eventObserver';
import { resourcePath, type EventApi } from '../../src/cluster/listWatch';
import { EventStore } from '../../src/model/eventStore';
import { exportView } from '../../src/model/exportView';
import { ControlPlane } from '../env/controlPlane';
import { pollUntil } from '../support/wait';
import { controlPlaneDir, createNamespace, kubeConfigFor, restConfigOf } from './support';
import { prng } from '../support/prng';

/** Messages per API. */
const COUNT = 1_500;
/** events.k8s.io/v1 limits a note to this many bytes. */
const NOTE_LIMIT_BYTES = 1_024;

const PIECES = [
  '漢字とひらがなとカタカナ', '한국어 텍스트', '中文消息：容器重启', '𠜎𠜱𠝹𠱓', // CJK, with astral ideographs
  '👩‍👩‍👧‍👦', '🏳️‍🌈', '👨🏽‍💻', '🧑🏿‍🚀', '🇯🇵🇺🇦🇧🇷', '❤️‍🔥', '🫠', // emoji: ZWJ sequences, skin tones, flags, variation selectors
  'مرحبا بالعالم', 'שלום עולם', '\u200F', '\u200E', '\u202E', '\u2066isolate\u2069', // RTL text and marks
  'e\u0301', 'a\u0308\u0323', 'Z̤͔ͧ̑̓', 'ก่', 'क्षि', // combining marks
  ...Array.from({ length: 32 }, (_, i) => String.fromCharCode(i)), '\u007F', '\u0085', '\u009B', // every C0 control, DEL, C1
  '\uFEFF', '\uFFFE', '\u2028', '\u2029', '"quoted"', '\\backslash', '<b>&amp;</b>', // BOM, noncharacter, separators, JSON/HTML specials
  'plain ascii words ',
];

/** A message of up to maxBytes UTF-8 bytes, cut only between pieces (never inside a character). */
function message(random: () => number, i: number, minBytes: number, maxBytes: number): string {
  let text = `#${i} `;
  const target = minBytes + Math.floor(random() * (maxBytes - minBytes));
  for (;;) {
    const piece = PIECES[Math.floor(random() * PIECES.length)];
    if (Buffer.byteLength(text + piece) > target) return text;
    text += piece;
  }
}

/** Parses RFC 4180 CSV (every field quoted, "" for a quote, CRLF rows). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += c;
  }
  return rows;
}

/** The characters a reader sees (no controls, format characters or whitespace), in order. */
function visible(s: string): string[] {
  return [...s].filter((c) => !/[\p{Cc}\p{Cf}\s]/u.test(c));
}

function assertSameBytes(actual: string | undefined, expected: string, what: string): void {
  assert.ok(actual !== undefined, `${what}: missing`);
  const a = Buffer.from(actual, 'utf8');
  const b = Buffer.from(expected, 'utf8');
  if (!a.equals(b)) {
    let at = 0;
    while (at < a.length && a[at] === b[at]) at++;
    assert.fail(`${what}: bytes differ at ${at} (${a.length} vs ${b.length} bytes): ${JSON.stringify(actual.slice(0, 80))}…`);
  }
}

describe('exact text through list, watch, history and exports', function () {
  this.timeout(300_000);
  let plane: ControlPlane;

  before(() => {
    plane = ControlPlane.attach(controlPlaneDir());
  });

  for (const api of ['core/v1', 'events.k8s.io/v1'] as EventApi[]) {
    it(`${api}: ${COUNT} long mixed-script messages arrive byte for byte, by watch, by paged list and by the initial stream, and survive history and exports`, async () => {
      const kc = kubeConfigFor('admin.kubeconfig');
      const namespace = await createNamespace(kc, api === 'core/v1' ? 'text-core' : 'text-events');
      const admin = restConfigOf('admin.kubeconfig');
      const random = prng(api === 'core/v1' ? 1 : 2);
      const sent = new Map<string, string>();
      for (let i = 0; i < COUNT; i++) sent.set(`text-${i}`, api === 'core/v1' ? message(random, i, 2_000, 12_000) : message(random, i, 600, NOTE_LIMIT_BYTES));

      // Watching before the first one is created: every event arrives by watch.
      const watched = new EventStore();
      const watcher = new EventObserver(new ApiClient(admin), watched, { api, namespaces: [namespace] });
      watcher.start();
      const producer = new ApiClient(admin);
      try {
        await pollUntil('watching', () => watcher.state.get(namespace)?.phase === 'watching');
        const names = [...sent.keys()];
        const create = async (name: string) => {
          const now = new Date().toISOString();
          const body =
            api === 'core/v1'
              ? { apiVersion: 'v1', kind: 'Event', metadata: { name }, involvedObject: { kind: 'ConfigMap', name: `object-${name}`, namespace, apiVersion: 'v1' }, reason: 'Text', message: sent.get(name), type: 'Normal', source: { component: 'test' }, firstTimestamp: now, lastTimestamp: now, count: 1 }
              : { apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: { name }, regarding: { kind: 'ConfigMap', name: `object-${name}`, namespace, apiVersion: 'v1' }, reason: 'Text', action: 'Write', note: sent.get(name), type: 'Normal', eventTime: now.replace('Z', '000Z'), reportingController: 'example.com/text-test', reportingInstance: 'test' };
          await producer.request({ method: 'POST', path: resourcePath(api, namespace), body: JSON.stringify(body) });
        };
        // Sixteen at a time over keep-alive connections.
        for (let i = 0; i < names.length; i += 16) await Promise.all(names.slice(i, i + 16).map(create));
        await pollUntil(`${COUNT} events by watch`, () => watched.size === COUNT, 120_000);
      } finally {
        await watcher.stop();
        producer.dispose();
      }

      // What the apiserver holds, read back raw by kubectl and decoded as a whole (a bad byte throws).
      const raw = execFileSync(path.join(plane.info.binDir, 'kubectl'), ['--kubeconfig', plane.info.adminKubeconfig, 'get', '--raw', resourcePath(api, namespace)], { maxBuffer: 512 * 1024 * 1024 });
      const held = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(raw)) as { items: { metadata: { name: string }; message?: string; note?: string }[] };
      assert.equal(held.items.length, COUNT);
      const onServer = new Map(held.items.map((i) => [i.metadata.name, (api === 'core/v1' ? i.message : i.note) ?? '']));
      for (const [name, text] of sent) assertSameBytes(onServer.get(name), text, `${name} as the apiserver holds it`);

      // A paged list (small pages, so many page boundaries) and the initial state streamed from the watch cache, each into a fresh store.
      const initially = async (initialSync: 'pages' | 'stream') => {
        const store = new EventStore();
        const observer = new EventObserver(new ApiClient(admin), store, { api, namespaces: [namespace], pageSize: 70, initialSync });
        observer.start();
        try {
          await pollUntil(`the initial state (${initialSync})`, () => observer.listsCompleted === 1, 120_000);
        } finally {
          await observer.stop();
        }
        return store;
      };
      const listed = await initially('pages');
      const streamed = await initially('stream');
      const byName = (store: EventStore) => new Map([...store.all()].map((e) => [e.name, e.message]));
      const fromWatch = byName(watched);
      const fromList = byName(listed);
      const fromStream = byName(streamed);
      for (const [name, text] of onServer) {
        assertSameBytes(fromWatch.get(name), text, `${name} by watch`);
        assertSameBytes(fromList.get(name), text, `${name} by list`);
        assertSameBytes(fromStream.get(name), text, `${name} by the initial stream`);
      }

      // The history file: saved, loaded into another store, unchanged.
      const historyFolder = path.join(controlPlaneDir(), 'text-history', namespace);
      const saving = new EventStore({ historyFolder, maxEvents: COUNT * 2 });
      await saving.loadHistory(`exact-text-${namespace}`);
      for (const e of watched.all()) saving.upsert(e);
      await saving.saveHistory();
      const loading = new EventStore({ historyFolder, maxEvents: COUNT * 2 });
      assert.equal(await loading.loadHistory(`exact-text-${namespace}`), COUNT);
      const fromHistory = byName(loading);
      for (const [name, text] of onServer) assertSameBytes(fromHistory.get(name), text, `${name} through the history file`);
      assert.ok(!fs.readFileSync(saving.historyLog?.file ?? '', 'utf8').includes('\uFFFD'), 'no replacement character in the history file');

      // Every export format.
      const groups = watched.view();
      const json = JSON.parse(exportView(groups, 'json', Date.now())) as { name: string; message: string }[];
      assert.equal(json.length, COUNT);
      for (const row of json) assertSameBytes(row.message, onServer.get(row.name) ?? '', `${row.name} in the JSON export`);
      const csv = parseCsv(exportView(groups, 'csv', Date.now()));
      const messageColumn = csv[0].indexOf('message');
      const objectColumn = csv[0].indexOf('object');
      assert.equal(csv.length, COUNT + 1);
      for (const row of csv.slice(1)) {
        const name = row[objectColumn].replace('ConfigMap/object-', '');
        assertSameBytes(row[messageColumn], onServer.get(name) ?? '', `${name} in the CSV export`);
      }
      // Markdown escapes and folds whitespace by design: every visible character is kept, in order, and nothing is replaced.
      const markdown = exportView(groups, 'markdown', Date.now()).split('\n').slice(2).filter(Boolean);
      assert.equal(markdown.length, COUNT);
      assert.ok(!markdown.some((line) => line.includes('\uFFFD')), 'no replacement character in the Markdown export');
      for (const line of markdown) {
        const unescaped = line.replace(/\\(.)/gu, '$1');
        const name = /#(\d+) /.exec(unescaped)?.[1];
        const text = onServer.get(`text-${name}`) ?? '';
        const shown = visible(unescaped).join('');
        assert.ok(shown.includes(visible(text).join('')), `text-${name}: every visible character of the message is in its Markdown row`);
      }
    });
  }
});
