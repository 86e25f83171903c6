// The chunked sorted list against a plain sorted array, through a long random run.
import * as assert from 'node:assert/strict';
import { SortedList } from '../../../src/model/sortedList';
import { prng } from '../../support/prng';

describe('SortedList', () => {
  it('matches a sorted array through random inserts and removes, with indexes and slices', () => {
    const rnd = prng(3);
    const list = new SortedList<number>((a, b) => a - b);
    const plain: number[] = [];
    for (let step = 0; step < 20_000; step++) {
      if (plain.length === 0 || rnd() < 0.55) {
        let x = Math.floor(rnd() * 1e6);
        while (plain.includes(x)) x++;
        list.insert(x);
        plain.push(x);
        plain.sort((a, b) => a - b);
      } else {
        const x = plain.splice(Math.floor(rnd() * plain.length), 1)[0];
        assert.ok(list.remove(x));
      }
      if (step % 997 === 0) {
        assert.deepEqual(list.toArray(), plain);
        const probe = plain[Math.floor(rnd() * plain.length)];
        if (probe !== undefined) assert.equal(list.indexOf(probe), plain.indexOf(probe));
        assert.deepEqual(list.slice(10, 700), plain.slice(10, 700));
      }
    }
    assert.equal(list.size, plain.length);
    assert.equal(list.remove(-1), false);
  });
});
