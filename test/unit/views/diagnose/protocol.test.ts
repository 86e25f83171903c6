// What the Diagnose webview sends is checked before anything acts on it: a page that was
// tampered with (a log line is text anyone can write) may post anything.
import * as assert from 'node:assert/strict';
import { parseWebviewMessage } from '../../../../src/views/diagnose/protocol';

/** A value as a failure names it (JSON cannot write a symbol or a bigint). */
function show(x: unknown): string {
  try {
    return JSON.stringify(x) ?? String(x);
  } catch {
    return String(x);
  }
}

describe('diagnose protocol: parseWebviewMessage', () => {
  it('accepts each well-formed message, as it was sent', () => {
    for (const type of ['ready', 'loadMore', 'copy', 'save', 'copyCommand'] as const) assert.deepEqual(parseWebviewMessage({ type }), { type });
    assert.deepEqual(parseWebviewMessage({ type: 'timestamps', on: true }), { type: 'timestamps', on: true });
    assert.deepEqual(parseWebviewMessage({ type: 'timestamps', on: false }), { type: 'timestamps', on: false });
    assert.deepEqual(parseWebviewMessage({ type: 'chooseLog', container: 'checkout', previous: true }), { type: 'chooseLog', container: 'checkout', previous: true });
    assert.deepEqual(parseWebviewMessage({ type: 'chooseLog', container: 'istio-proxy', previous: false }), { type: 'chooseLog', container: 'istio-proxy', previous: false });
    assert.deepEqual(parseWebviewMessage({ type: 'diagnosePod', pod: 'checkout-7d9f8b6c5-x2x9k' }), { type: 'diagnosePod', pod: 'checkout-7d9f8b6c5-x2x9k' });
    assert.deepEqual(parseWebviewMessage({ type: 'problem', text: 'TypeError: Cannot read properties of undefined (reading \'rows\')' }), { type: 'problem', text: 'TypeError: Cannot read properties of undefined (reading \'rows\')' });
    assert.deepEqual(parseWebviewMessage({ type: 'problem', text: '' }), { type: 'problem', text: '' });
  });

  it('passes on only the fields it knows, whatever else came with them', () => {
    assert.deepEqual(parseWebviewMessage({ type: 'copy', command: 'rm -rf /', container: 'x' }), { type: 'copy' });
    assert.deepEqual(parseWebviewMessage({ type: 'chooseLog', container: 'app', previous: false, namespace: 'kube-system', pod: 'etcd-0' }), { type: 'chooseLog', container: 'app', previous: false });
    assert.deepEqual(parseWebviewMessage({ type: 'diagnosePod', pod: 'web-0', namespace: 'kube-system', kind: 'Secret' }), { type: 'diagnosePod', pod: 'web-0' });
  });

  it('takes a name of up to 253 characters (a DNS subdomain), not one longer', () => {
    const longest = `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(61)}`;
    assert.equal(longest.length, 253);
    assert.deepEqual(parseWebviewMessage({ type: 'diagnosePod', pod: longest }), { type: 'diagnosePod', pod: longest });
    assert.equal(parseWebviewMessage({ type: 'diagnosePod', pod: `${longest}e` }), undefined);
    assert.deepEqual(parseWebviewMessage({ type: 'chooseLog', container: longest, previous: true }), { type: 'chooseLog', container: longest, previous: true });
    assert.equal(parseWebviewMessage({ type: 'chooseLog', container: `${longest}e`, previous: true }), undefined);
  });

  it('keeps at most 2000 characters of a problem the page reports', () => {
    const m = parseWebviewMessage({ type: 'problem', text: 'stack '.repeat(1000) });
    assert.ok(m && m.type === 'problem');
    assert.equal(m.text.length, 2000);
    assert.ok('stack '.repeat(1000).startsWith(m.text));
  });

  it('refuses what is not a message object', () => {
    for (const x of [undefined, null, 0, 1, '', 'ready', '{"type":"ready"}', true, false, [], [{ type: 'ready' }], ['ready'], () => 'ready', Symbol('ready'), 10n]) {
      assert.equal(parseWebviewMessage(x), undefined, show(x));
    }
  });

  it('refuses a message of no type, an unknown type, or a type spelled otherwise', () => {
    for (const x of [{}, { type: undefined }, { type: null }, { type: 42 }, { type: '' }, { type: 'READY' }, { type: ' ready' }, { type: 'ready\u0000' }, { type: 'state' }, { type: 'lines' }, { type: 'openFile' }, { type: 'toString' }, { type: '__proto__' }, { type: 'constructor' }, { type: ['ready'] }, { type: { toString: () => 'ready' } }, { kind: 'ready' }]) {
      assert.equal(parseWebviewMessage(x), undefined, show(x));
    }
  });

  it('refuses a type that is only inherited, as a posted message never carries a prototype', () => {
    // JSON and the structured clone make "__proto__" an own key, not a prototype.
    assert.equal(parseWebviewMessage(JSON.parse('{"__proto__":{"type":"save"}}')), undefined);
    assert.equal(parseWebviewMessage(structuredClone(Object.assign(Object.create({ type: 'save' }) as object, { x: 1 }))), undefined);
  });

  it('refuses timestamps without a boolean', () => {
    for (const on of [undefined, null, 'true', 'false', 1, 0, [], {}]) assert.equal(parseWebviewMessage({ type: 'timestamps', on }), undefined, show(on));
    assert.equal(parseWebviewMessage({ type: 'timestamps' }), undefined);
  });

  it('refuses chooseLog without a container name or without a boolean previous', () => {
    const bad: unknown[] = [
      { type: 'chooseLog', previous: true },
      { type: 'chooseLog', container: '', previous: true },
      { type: 'chooseLog', container: 42, previous: true },
      { type: 'chooseLog', container: ['app'], previous: true },
      { type: 'chooseLog', container: { name: 'app' }, previous: true },
      { type: 'chooseLog', container: null, previous: false },
      { type: 'chooseLog', container: 'app' },
      { type: 'chooseLog', container: 'app', previous: 'true' },
      { type: 'chooseLog', container: 'app', previous: 1 },
      { type: 'chooseLog', container: 'app', previous: null },
    ];
    for (const x of bad) assert.equal(parseWebviewMessage(x), undefined, show(x));
  });

  it('refuses diagnosePod without a pod name', () => {
    for (const pod of [undefined, null, '', 7, ['web-0'], { name: 'web-0' }, true]) assert.equal(parseWebviewMessage({ type: 'diagnosePod', pod }), undefined, show(pod));
  });

  it('refuses a problem without text', () => {
    for (const text of [undefined, null, 42, ['boom'], { message: 'boom' }, false]) assert.equal(parseWebviewMessage({ type: 'problem', text }), undefined, show(text));
  });
});
