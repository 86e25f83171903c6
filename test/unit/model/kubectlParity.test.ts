// Where kubectl's output is the reference: times it cannot know, the --for argument it
// needs, and the terminal characters it escapes (cli-runtime printers.EscapeTerminal).
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { normalizeEvent } from '../../../src/cluster/normalize';
import { displayText, oneLine } from '../../../src/model/displayText';
import { eventInterval, goTrimSpace, kubectlEventsCommand, lastSeenAge, shellQuote } from '../../../src/model/kubectlFormat';
import { T0 } from './fixtures';

describe('kubectl parity at the edges', () => {
  it('an event with no timestamps is <unknown>, as kubectl prints it, not an age from its creation', () => {
    const e = normalizeEvent({ metadata: { uid: 'u', name: 'x', namespace: 'd', creationTimestamp: '2026-01-01T00:00:00Z' }, involvedObject: { kind: 'Pod', name: 'p' }, reason: 'R', message: 'm' }, 'core/v1');
    assert.equal(eventInterval(e, T0 + 1000), '<unknown>');
    assert.equal(lastSeenAge(e, T0 + 1000), '<unknown>');
    assert.equal(e.created, T0, 'the creation time is kept, for ordering');
  });

  it('a repeated event without lastTimestamp shows <unknown> for its last occurrence, as kubectl does', () => {
    const e = normalizeEvent({ metadata: { uid: 'u' }, involvedObject: { kind: 'Pod', name: 'p' }, count: 3, firstTimestamp: '2026-01-01T00:00:00Z' }, 'core/v1');
    assert.equal(eventInterval(e, T0 + 65_000), '<unknown> (x3 over 65s)');
  });

  it('builds kubectl events --for with kind.version.group, the events\' namespace and the context', () => {
    assert.deepEqual(kubectlEventsCommand({ kind: 'Deployment', name: 'web', apiVersion: 'apps/v1' }, 'shop', 'kev-admin'), { command: 'kubectl events --context kev-admin -n shop --for deployment.v1.apps/web' });
    assert.deepEqual(kubectlEventsCommand({ kind: 'Pod', name: 'web-1', apiVersion: 'v1' }, 'shop'), { command: 'kubectl events -n shop --for pod/web-1' });
    assert.deepEqual(kubectlEventsCommand({ kind: 'Node', name: 'n1', apiVersion: 'v1' }, 'default', 'my ctx'), { command: "kubectl events --context 'my ctx' -n default --for node/n1" });
  });

  it('refuses --for with an empty kind or name (kubectl would list every object\'s events)', () => {
    assert.match((kubectlEventsCommand({ kind: '', name: 'x', apiVersion: 'v1' }, 'd') as { problem: string }).problem, /no kind/);
    assert.match((kubectlEventsCommand({ kind: 'Pod', name: '', apiVersion: 'v1' }, 'd') as { problem: string }).problem, /no name/);
    assert.match((kubectlEventsCommand({ kind: 'Pod', name: 'a/b', apiVersion: 'v1' }, 'd') as { problem: string }).problem, /slash/);
  });

  it('quotes for the shell so the command reads back unchanged', () => {
    for (const word of ['plain', "it's", 'a b', '$(rm -rf /)', '`x`', 'ünïcødé', '']) {
      const echoed = execFileSync('sh', ['-c', `printf %s ${shellQuote(word)}`]).toString();
      assert.equal(echoed, word);
    }
  });

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

describe('Go\'s TrimSpace', () => {
  it('trims what unicode.IsSpace calls space: NEL yes, the byte order mark no', () => {
    assert.equal(goTrimSpace('\u0085 \t msg \u3000\n'), 'msg');
    assert.equal(goTrimSpace('\uFEFFmsg'), '\uFEFFmsg');
    assert.equal(goTrimSpace('\u00a0a b\u2028'), 'a b');
  });
});
