// The timeline's header and empty-plot words, and the saved state read back after a hide or
// a reload: what a person reads, for every case the page meets.
import * as assert from 'node:assert/strict';
import { headerTexts } from '../../../../src/views/timeline/webview/header';
import { readSavedState } from '../../../../src/views/timeline/webview/savedState';

describe('the timeline header', () => {
  it('counts lanes, events and live warnings, singular and plural, and what has no time', () => {
    const t = headerTexts({ scope: 'All objects', filter: '', untimed: 2 }, 1, 3, 1);
    assert.deepEqual(t, { scope: 'All objects', filter: '', summary: '1 lane · 3 events · 1 live warning · 2 without a time (not shown)', empty: undefined });
  });

  it('says why the plot is empty: nothing yet, nothing about an object, nothing through the filter', () => {
    assert.equal(headerTexts({ scope: 'All objects', filter: '', untimed: 0 }, 0, 0, 0).empty, 'No events yet.');
    assert.equal(headerTexts({ scope: 'Pod/web in shop', filter: '', untimed: 0 }, 0, 0, 0).empty, 'No events about Pod/web in shop (events expire after an hour by default).');
    const filtered = headerTexts({ scope: 'All objects', filter: 'Warning', untimed: 0 }, 0, 0, 0);
    assert.equal(filtered.empty, 'No events of any object pass the filter (Warning).');
    assert.equal(filtered.filter, 'Filter: Warning');
  });
});

describe('the timeline\'s saved state', () => {
  it('reads back what it saved, and refuses what is not its shape', () => {
    const saved = { start: 1, end: 2, mode: 'follow', scrollY: 30, cursor: { lane: 'a', uid: 'u' } };
    assert.deepEqual(readSavedState(saved), saved);
    assert.equal(readSavedState(undefined), undefined);
    assert.equal(readSavedState({ start: '1', end: 2, scrollY: 0 }), undefined);
    assert.deepEqual(readSavedState({ start: 1, end: 2, scrollY: 0, mode: 'zoomy', cursor: { lane: 3 } }), { start: 1, end: 2, mode: 'fit', scrollY: 0, cursor: undefined });
  });
});
