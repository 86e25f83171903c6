// A list response read as it arrives: each item its own JSON text, the metadata as soon as
// it is in, whatever the chunks; managedFields left out.
import * as assert from 'node:assert/strict';
import type { ListMetadata } from '../../../src/cluster/apiRequest';
import { ListItemReader, withoutManagedFields, type ListText } from '../../../src/cluster/listItems';
import { prng } from '../../support/prng';

/** Text that breaks naive splitting: delimiters inside strings, escapes, every script, controls. */
const NASTY = [
  'Back-off restarting failed container',
  'quote " and \\" and \\\\" end',
  'braces } { ] [ , : inside',
  '容器启动失败：镜像拉取超时',
  '🚀🔥 emoji 👩‍👩‍👧',
  '\u202eRTL override\u202c and \u200f marks',
  'control \u0000 \u0007 \u001b[31m red \n new line \t tab',
  'lone \ud800 surrogate',
  '\\',
  '',
];

function items(rnd: () => number, count: number): object[] {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
  return Array.from({ length: count }, (_, i) => ({
    metadata: { name: `e${i}.${pick(NASTY)}`, namespace: 'shop', uid: `uid-${i}`, resourceVersion: String(1000 + i) },
    involvedObject: { kind: 'Pod', name: pick(NASTY), fieldPath: 'spec.containers{app}' },
    message: pick(NASTY).repeat(1 + Math.floor(rnd() * 4)),
    count: Math.floor(rnd() * 10),
    series: rnd() < 0.3 ? { count: 3, lastObservedTime: null } : undefined,
    nested: [[{ a: [] }], {}, 'x]', 1.5e3, true, null],
  }));
}

/** Feeds the body in chunks cut at random byte offsets (splitting multi-byte characters too). */
function read(body: Buffer, rnd: () => number, maxChunk: number, onMetadata?: (m: ListMetadata) => void): ListText {
  const reader = new ListItemReader(onMetadata);
  for (let i = 0; i < body.length; ) {
    const n = 1 + Math.floor(rnd() * maxChunk);
    reader.push(body.subarray(i, i + n));
    i += n;
  }
  return reader.end();
}

function readWhole(body: Buffer): ListText {
  const reader = new ListItemReader();
  reader.push(body);
  return reader.end();
}

describe('list items read as they arrive', () => {
  it('gives each item as its own JSON text, and the metadata, whatever the chunks, field order and white space', () => {
    const rnd = prng(7);
    for (let round = 0; round < 300; round++) {
      const list = items(rnd, Math.floor(rnd() * 12));
      const metadata = { resourceVersion: String(round), continue: rnd() < 0.5 ? `token"${round}}` : undefined };
      const fields: [string, unknown][] = [
        ['kind', 'EventList'],
        ['apiVersion', 'v1'],
        ['metadata', metadata],
        ['items', list],
      ];
      if (rnd() < 0.3) fields.reverse();
      const object = Object.fromEntries(fields);
      const text = JSON.stringify(object, null, rnd() < 0.3 ? Math.floor(rnd() * 4) : undefined);
      let told: ListMetadata | undefined;
      const got = read(Buffer.from(text), rnd, rnd() < 0.5 ? 3 : 4096, (m) => (told = m));
      assert.deepEqual(got.items.map((t) => JSON.parse(t) as unknown), JSON.parse(JSON.stringify(list)), `round ${round}`);
      assert.deepEqual(got.metadata, JSON.parse(JSON.stringify(metadata)));
      assert.deepEqual(told, got.metadata, 'the metadata was handed over as soon as it was in');
    }
  });

  it('finds where strings end through any run of backslashes and quotes, split anywhere between chunks', () => {
    const rnd = prng(5);
    const alphabet = ['\\', '"', 'a', '}', ']', ',', '中', '🚀'];
    const text = () => Array.from({ length: Math.floor(rnd() * 60) }, () => alphabet[Math.floor(rnd() * alphabet.length)]).join('');
    for (let round = 0; round < 400; round++) {
      const list = Array.from({ length: 1 + Math.floor(rnd() * 4) }, () => ({ [text()]: text(), message: text(), n: [text()] }));
      const body = Buffer.from(JSON.stringify({ metadata: { continue: text() }, items: list }));
      const got = read(body, rnd, 1 + Math.floor(rnd() * 20));
      assert.deepEqual(got.items.map((t) => JSON.parse(t) as unknown), list, `round ${round}`);
    }
  });

  it('hands the metadata over before the items have arrived, when the apiserver writes it first', () => {
    const body = Buffer.from(JSON.stringify({ kind: 'EventList', metadata: { resourceVersion: '9', continue: 'next' }, items: items(prng(1), 3) }));
    let told: ListMetadata | undefined;
    const reader = new ListItemReader((m) => (told = m));
    reader.push(body.subarray(0, body.indexOf('"items"') + 5));
    assert.deepEqual(told, { resourceVersion: '9', continue: 'next' });
  });

  it('reads a list with no items, null items or no items field as empty', () => {
    for (const text of ['{"items":[]}', '{"metadata":{},"items":null}', '{"kind":"EventList"}', ' { } ', '{"items":[ ]}\n']) {
      assert.deepEqual(readWhole(Buffer.from(text)).items, [], text);
    }
  });

  it('throws on a body that is not a whole JSON object: every cut short, and trailing or misplaced text', () => {
    const body = Buffer.from(JSON.stringify({ kind: 'EventList', metadata: { resourceVersion: '9' }, items: items(prng(3), 3) }));
    for (let cut = 0; cut < body.length; cut++) assert.throws(() => readWhole(body.subarray(0, cut)), SyntaxError, `cut at ${cut}`);
    for (const text of ['[]', '{"items":[1,]}', '{"items":[,1]}', '{"items":{}}', '{"a":1,}', '{"a" 1}', '{"items":[]} x', '{"items":[]}}', 'null', '{"metadata":{"a":}}']) {
      assert.throws(() => readWhole(Buffer.from(text)), SyntaxError, text);
    }
  });

  it('leaves out metadata.managedFields and nothing else, wherever it sits and whatever list it holds', () => {
    const rnd = prng(11);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
    for (let round = 0; round < 500; round++) {
      const managed = pick<unknown[]>([
        [{ manager: pick(NASTY), operation: 'Update', fieldsV1: { 'f:message': {}, 'f:source': { 'f:component': {} } }, time: '2026-12-01T01:19:44Z' }],
        [],
        [pick(NASTY), { '"managedFields":[': [pick(NASTY)] }, [[]]],
      ]);
      const fields: [string, unknown][] = [
        ['name', pick(NASTY)],
        // Before the real one, as the apiserver writes metadata: an annotation or label of that name.
        ['annotations', rnd() < 0.5 ? { managedFields: pick(NASTY) } : { a: 'b' }],
        ['labels', rnd() < 0.5 ? { managedFields: '' } : {}],
        ['uid', 'u'],
        ['managedFields', managed],
        ['resourceVersion', '1'],
      ].slice(0, 1 + Math.floor(rnd() * 6)) as [string, unknown][];
      const mfAt = Math.floor(rnd() * (fields.length + 1));
      if (!fields.some(([k]) => k === 'managedFields')) fields.splice(mfAt, 0, ['managedFields', managed]);
      const metadata = Object.fromEntries(fields);
      // A later field of the same name elsewhere is kept.
      const item = { metadata, message: pick(NASTY), later: rnd() < 0.3 ? { managedFields: 'kept' } : undefined };
      const { managedFields: _dropped, ...rest } = metadata;
      void _dropped;
      assert.deepEqual(JSON.parse(withoutManagedFields(JSON.stringify(item))), JSON.parse(JSON.stringify({ ...item, metadata: rest })), `round ${round}`);
    }
    // Anything else is left whole: no such list (what the apiserver never writes included), or text cut short.
    for (const text of ['{"metadata":{"name":"a"}}', '{"message":"\\"managedFields\\":[1]"}', '{"metadata":{"annotations":{"managedFields":"[x]"}}}', '{"metadata":{"managedFields":null}}', '{"metadata":{"managedFields":[']) {
      assert.equal(withoutManagedFields(text), text, text);
    }
  });
});
