// The correlator's LRU against k8s.io/utils/lru's behaviour (groupcache's list and map):
// recency on get and on add, eviction of the least recently used, slots reused when full.
import * as assert from 'node:assert/strict';
import { fingerprint } from '../../../src/record/joinedKey';
import { indexCells, Lru } from '../../../src/record/lru';
import { collidingTexts } from './support';

const v = (n: number) => ({ n });

describe('Lru (k8s.io/utils/lru semantics)', () => {
  it('evicts the least recently added entry past maxEntries', () => {
    const lru = new Lru<{ n: number }>(2);
    lru.add('a', v(1));
    lru.add('b', v(2));
    lru.add('c', v(3));
    assert.equal(lru.size, 2);
    assert.equal(lru.get('a'), undefined);
    assert.deepEqual([lru.get('b'), lru.get('c')], [v(2), v(3)]);
  });

  it('get makes an entry the most recent; peek does not', () => {
    const lru = new Lru<{ n: number }>(2);
    lru.add('a', v(1));
    lru.add('b', v(2));
    assert.deepEqual(lru.get('a'), v(1));
    lru.add('c', v(3));
    assert.equal(lru.peek('b'), undefined, 'b was the least recent');
    assert.deepEqual(lru.peek('a'), v(1));
    lru.add('d', v(4));
    assert.equal(lru.peek('a'), undefined, 'peek left a the least recent');
    assert.deepEqual([lru.peek('c'), lru.peek('d')], [v(3), v(4)]);
  });

  it('add of a present key replaces its value and makes it the most recent', () => {
    const lru = new Lru<{ n: number }>(2);
    lru.add('a', v(1));
    lru.add('b', v(2));
    lru.add('a', v(10));
    lru.add('c', v(3));
    assert.equal(lru.size, 2);
    assert.deepEqual([lru.peek('a'), lru.peek('b'), lru.peek('c')], [v(10), undefined, v(3)]);
  });

  it('an add after a get that missed the same key adds it once; every later add looks again', () => {
    const lru = new Lru<{ n: number }>(3);
    const key = ['kubelet', 'node-1', 'Pod', 'default', 'web'].join('');
    assert.equal(lru.get(key), undefined);
    lru.add(key, v(1));
    lru.add(key, v(2));
    // The same text as another string: found, not added twice.
    lru.add(['kubelet', 'node-1', 'Pod', 'default', 'web'].join(''), v(3));
    assert.equal(lru.size, 1);
    assert.deepEqual(lru.peek(key), v(3));
    // A miss, then adds of other keys, then the missed key: one entry each.
    assert.equal(lru.get('x'), undefined);
    lru.add('y', v(4));
    lru.add('x', v(5));
    lru.add('x', v(6));
    assert.equal(lru.size, 3);
    assert.deepEqual([lru.peek(key), lru.peek('y'), lru.peek('x')], [v(3), v(4), v(6)]);
  });

  it('keeps exactly the most recent maxEntries keys through a long churn', () => {
    const lru = new Lru<{ n: number }>(64);
    const model: string[] = []; // least recent first
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let i = 0; i < 20_000; i++) {
      const key = `k${next() % 200}`;
      const touch = (k: string) => {
        model.splice(model.indexOf(k), 1);
        model.push(k);
      };
      if (next() % 3 === 0) {
        const got = lru.get(key);
        assert.equal(got !== undefined, model.includes(key), `get ${key} at step ${i}`);
        if (got) touch(key);
      } else {
        lru.add(key, v(i));
        if (model.includes(key)) touch(key);
        else {
          model.push(key);
          if (model.length > 64) model.shift();
        }
      }
    }
    assert.equal(lru.size, model.length);
    for (const k of model) assert.ok(lru.peek(k), k);
  });

  it('stays exact through a long churn of keys whose fingerprints crowd the end and start of its index', () => {
    // Keys pointing at the last two cells and the first one: each lookup walks a run that
    // wraps around, and every eviction shifts later cells back into the hole it leaves.
    const maxEntries = 6;
    const mask = indexCells(maxEntries) - 1;
    const crowded = new Set([mask - 1, mask, 0]);
    const pool: string[] = [];
    for (let i = 0; pool.length < 40; i++) if (crowded.has(fingerprint(`key ${i}`) & mask)) pool.push(`key ${i}`);
    // Two of them sharing one fingerprint exactly, as keys that differ where it does not look.
    const { texts } = collidingTexts();
    pool.push(texts[0], texts[1]);
    const lru = new Lru<{ n: number }>(maxEntries);
    const model: string[] = []; // least recent first
    let seed = 11;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    const touch = (k: string) => {
      model.splice(model.indexOf(k), 1);
      model.push(k);
    };
    for (let i = 0; i < 20_000; i++) {
      const key = pool[next() % pool.length];
      if (next() % 3 === 0) {
        const got = lru.get(key);
        assert.equal(got !== undefined, model.includes(key), `get at step ${i}`);
        if (got) touch(key);
      } else {
        lru.add(key, v(i));
        if (model.includes(key)) touch(key);
        else if (model.push(key) > maxEntries) model.shift();
      }
      if (i % 97 === 0) for (const k of pool) assert.equal(lru.peek(k) !== undefined, model.includes(k), `peek at step ${i}`);
    }
    assert.equal(lru.size, model.length);
  });

  it('stays exact when many keys share a fingerprint (they differ only where it does not look)', () => {
    const { base, texts: keys } = collidingTexts();
    const lru = new Lru<{ n: number }>(30);
    keys.forEach((k, i) => lru.add(k, v(i)));
    assert.equal(lru.size, 30);
    keys.forEach((k, i) => assert.deepEqual(lru.peek(k), i < keys.length - 30 ? undefined : v(i), `key ${i}`));
    assert.equal(lru.peek(base), undefined);
  });

  it('a negative size keeps nothing, as Go evicts every entry as it is added; 0 is refused', () => {
    const lru = new Lru<{ n: number }>(-1);
    lru.add('a', v(1));
    assert.equal(lru.get('a'), undefined);
    assert.equal(lru.size, 0);
    assert.throws(() => new Lru(0), /unlimited/);
  });
});
