// Keys given as their fields (joinedKey.ts) must behave exactly as client-go's joined
// strings: one fingerprint and one cache entry for one text, however it is cut into fields.
import * as assert from 'node:assert/strict';
import { fingerprint, FINGERPRINT_SAMPLES, joined, sameText, type JoinedKey } from '../../../src/record/joinedKey';
import { Lru } from '../../../src/record/lru';
import { prng } from '../../support/prng';
import { collidingTexts } from './support';

/** Text in several scripts, with surrogate pairs, combining marks, RTL marks and controls. */
const ALPHABET = ['a', 'b', 'Z', '0', '-', '.', '日', '本', '🚀', 'é', '\u0301', '\u200f', 'ש', '\u0000', '\n', '"', '\ud800'];

function randomText(r: () => number, length: number): string {
  let s = '';
  while (s.length < length) s += ALPHABET[Math.floor(r() * ALPHABET.length)];
  return s.slice(0, length);
}

/** The text cut into `parts` fields at random places; some empty fields written as undefined. */
function cut(r: () => number, text: string, parts: number): (string | undefined)[] {
  const at = Array.from({ length: parts - 1 }, () => Math.floor(r() * (text.length + 1))).sort((a, b) => a - b);
  return [0, ...at].map((from, i) => {
    const field = text.slice(from, i < at.length ? at[i] : text.length);
    return field === '' && r() < 0.5 ? undefined : field;
  });
}

describe('joined keys (fields read as client-go joins them)', () => {
  it('a key of fields has the fingerprint of its joined text, at every length around the sampling threshold', () => {
    const r = prng(11);
    for (let i = 0; i < 3000; i++) {
      const length = i % 3 === 0 ? Math.floor(r() * 600) : FINGERPRINT_SAMPLES - 3 + (i % 7);
      const text = randomText(r, length);
      const fields = cut(r, text, 1 + Math.floor(r() * 12));
      assert.equal(joined(fields), text);
      assert.equal(fingerprint(fields), fingerprint(text), JSON.stringify(fields));
    }
  });

  it('sameText is equality of the joined texts: other cuts of one text, and texts one character apart', () => {
    const r = prng(12);
    let same = 0;
    let other = 0;
    for (let i = 0; i < 5000; i++) {
      const text = randomText(r, Math.floor(r() * 80));
      const a: JoinedKey = r() < 0.2 ? text : cut(r, text, 1 + Math.floor(r() * 11));
      let bText = text;
      if (r() < 0.5 && text.length > 0) {
        const at = Math.floor(r() * text.length);
        bText = text.slice(0, at) + ALPHABET[Math.floor(r() * ALPHABET.length)] + text.slice(at + 1);
      } else if (r() < 0.2) bText = text + 'x';
      // As many fields as `a` half the time: the pairwise path, with fields of other lengths.
      const parts = typeof a !== 'string' && r() < 0.5 ? a.length : 1 + Math.floor(r() * 11);
      const b: JoinedKey = r() < 0.2 ? bText : cut(r, bText, parts);
      const expected = text === bText;
      assert.equal(sameText(a, b), expected, `${JSON.stringify(a)} / ${JSON.stringify(b)}`);
      assert.equal(sameText(b, a), expected);
      if (expected) same++;
      else other++;
    }
    assert.ok(same > 1000 && other > 1000, `${same} same, ${other} other`);
  });

  it('empty keys: no fields, empty fields and the empty string are one text', () => {
    const empties: JoinedKey[] = ['', [], [''], [undefined], ['', undefined, '']];
    for (const a of empties) {
      for (const b of empties) assert.equal(sameText(a, b), true, `${JSON.stringify(a)} / ${JSON.stringify(b)}`);
      assert.equal(sameText(a, ['x']), false);
      assert.equal(fingerprint(a), fingerprint(''));
    }
    const lru = new Lru<{ n: number }>(4);
    lru.add([], { n: 1 });
    assert.deepEqual(lru.get(''), { n: 1 });
    lru.add([undefined, ''], { n: 2 });
    assert.equal(lru.size, 1);
    assert.deepEqual(lru.peek([]), { n: 2 });
  });

  it('an LRU holds one entry per text: fields cut anywhere find it, and so does the string', () => {
    const lru = new Lru<{ n: number }>(8);
    lru.add(['kube', 'let', 'Pod', undefined, 'web'], { n: 1 });
    assert.deepEqual(lru.get(['kubelet', '', 'Pod', 'web']), { n: 1 });
    assert.deepEqual(lru.get('kubeletPodweb'), { n: 1 });
    lru.add(['k', 'ubeletPodwe', 'b'], { n: 2 });
    assert.equal(lru.size, 1);
    assert.deepEqual(lru.peek('kubeletPodweb'), { n: 2 });
    assert.equal(lru.get(['kubelet', 'Pod', 'we']), undefined);
  });

  it('an LRU of fields stays exact when fingerprints collide, before and after it falls back to whole keys', () => {
    // Texts with one fingerprint, each cut afresh for every look-up.
    const r = prng(13);
    const { base, texts } = collidingTexts();
    const lru = new Lru<{ n: number }>(30);
    for (const [i, t] of texts.entries()) {
      lru.add(cut(r, t, 1 + (i % 11)), { n: i });
      // Before the chain grows too long and after: each earlier text still found by a new cut.
      for (let j = Math.max(0, i - 29); j <= i; j++) assert.deepEqual(lru.peek(cut(r, texts[j], 1 + (j % 5))), { n: j }, `text ${j} after ${i} adds`);
    }
    assert.equal(lru.size, 30);
    assert.equal(lru.peek(cut(r, base, 4)), undefined);
  });
});
