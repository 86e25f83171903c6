// Ages, intervals and the `kubectl events` command as kubectl prints and reads them:
// HumanDuration's bands and clock skew, times kubectl cannot know, the --for argument it
// needs. The rows the cluster layer holds against the real kubectl (test/support/kubectlRows.ts)
// are checked here too.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { normalizeEvent } from '../../../src/cluster/normalize';
import { eventInterval, humanDuration, kubectlEventsCommand, lastSeenAge, shellQuote } from '../../../src/model/kubectlFormat';
import { describeRow, goTrimSpace, kubectlEventsRow } from '../../support/kubectlRows';
import { coreEvent, T0 } from './fixtures';

const S = 1000;

describe('kubectl formatting', () => {
  it('prints intervals as kubectl events and describe do', () => {
    const now = T0 + 302 * S;
    const repeated = coreEvent({ uid: 'a', count: 3, first: T0, last: now - 45 * S });
    assert.equal(eventInterval(repeated, now), '45s (x3 over 5m2s)');
    assert.equal(eventInterval(coreEvent({ uid: 'b', first: T0 }), now), '5m2s');
    assert.deepEqual(describeRow(repeated, now), ['Normal', 'Started', '45s (x3 over 5m2s)', 'kubelet', 'Started container']);
    assert.deepEqual(kubectlEventsRow(repeated, now), ['45s (x3 over 5m2s)', 'Normal', 'Started', 'Pod/web-1', 'Started container']);
  });
  it('tolerates up to 2 s of clock skew and marks the rest invalid', () => {
    assert.equal(humanDuration(-1999), '0s');
    assert.equal(humanDuration(-2000), '<invalid>');
  });
});

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
});

describe('Go\'s TrimSpace', () => {
  it('trims what unicode.IsSpace calls space: NEL yes, the byte order mark no', () => {
    assert.equal(goTrimSpace('\u0085 \t msg \u3000\n'), 'msg');
    assert.equal(goTrimSpace('\uFEFFmsg'), '\uFEFFmsg');
    assert.equal(goTrimSpace('\u00a0a b\u2028'), 'a b');
  });
});
