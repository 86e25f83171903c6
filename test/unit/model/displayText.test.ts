// Event text as the view shows it: terminal escapes as kubectl prints them, every other
// control and bidi override made visible, text in every script left as it is.
import * as assert from 'node:assert/strict';
import { displayText, oneLine } from '../../../src/model/displayText';

describe('displayText', () => {
  it('escapes ESC and CR exactly as kubectl, and every other control and bidi override visibly', () => {
    assert.equal(displayText('a\u001b[31mred'), 'a^[[31mred');
    assert.equal(displayText('a\rb'), 'a\\rb');
    assert.equal(displayText('line1\r\nline2'), 'line1\\r\nline2');
    assert.equal(displayText('nul\u0000bel\u0007del\u007f'), 'nul\\x00bel\\x07del\\x7f');
    assert.equal(displayText('c1\u0085x'), 'c1\\x85x');
    assert.equal(displayText('evil\u202Etxt.exe'), 'evil\\u202etxt.exe');
    assert.equal(displayText('iso\u2066x\u2069'), 'iso\\u2066x\\u2069');
  });

  it('keeps text in every script as it is: CJK, emoji sequences, RTL marks, tabs and line breaks', () => {
    const text = '节点不可用 ノード 🧑‍🚀 🇯🇵 שלום\u200Fعالم\ttab\nnext';
    assert.equal(displayText(text), text);
    assert.equal(oneLine(text), '节点不可用 ノード 🧑‍🚀 🇯🇵 שלום\u200Fعالم tab next');
  });
});
