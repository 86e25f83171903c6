// The sentences a screen reader says for the Events view's rows.
import * as assert from 'node:assert/strict';
import { humanDuration } from '../../../../src/model/kubectlFormat';
import { eventRowName, moreRowName, namespaceRowName, objectRowName, spokenDuration, statusRowName } from '../../../../src/views/tree/accessibleNames';

const S = 1000;
const M = 60 * S;
const H = 60 * M;
const D = 24 * H;

describe('accessible names of the Events view\'s rows', () => {
  it('spells out every form of kubectl\'s short durations', () => {
    const cases: [number, string][] = [
      [1 * S, '1 second'],
      [45 * S, '45 seconds'],
      [5 * M + 2 * S, '5 minutes 2 seconds'],
      [5 * M, '5 minutes'],
      [61 * M, '61 minutes'],
      [3 * H + 5 * M, '3 hours 5 minutes'],
      [2 * D + 5 * H, '2 days 5 hours'],
      [20 * D, '20 days'],
      [3 * 365 * D + 45 * D, '3 years 45 days'],
    ];
    for (const [ms, words] of cases) assert.equal(spokenDuration(humanDuration(ms)), words, `${humanDuration(ms)}`);
    assert.equal(spokenDuration('<unknown>'), 'an unknown time');
    assert.equal(spokenDuration('<invalid>'), 'an invalid time (in the future)');
    assert.equal(spokenDuration('soon'), 'soon', 'text that is not a duration stays as it is');
  });

  it('says an object\'s kind, name, namespace, warnings, events and last activity in one sentence', () => {
    assert.equal(
      objectRowName({ kind: 'Pod', name: 'checkout-7c9', namespace: 'payments', events: 12, warnings: 3, age: '45s', owns: 0 }),
      'Pod checkout-7c9 in namespace payments: 3 live warnings, 12 events, the last 45 seconds ago.',
    );
    assert.equal(
      objectRowName({ kind: 'Node', name: 'kwok-node-0', namespace: '', events: 1, warnings: 0, age: '2d5h', owns: 0 }),
      'Node kwok-node-0, cluster-scoped: 1 event, the last 2 days 5 hours ago.',
    );
    assert.equal(
      objectRowName({ kind: 'Deployment', name: 'checkout', namespace: 'payments', events: 40, warnings: 1, age: '3s', owns: 3 }),
      'Deployment checkout in namespace payments with the 3 objects it owns: 1 live warning, 40 events, the last 3 seconds ago.',
    );
  });

  it('says an event\'s type, reason, how often and when, then its message on one line, and whether it is history or recorded here', () => {
    assert.equal(
      eventRowName({ type: 'Warning', reason: 'BackOff', message: 'Back-off restarting failed container', count: 3, lastAge: '45s', firstAge: '5m2s', expired: false, recordedHere: false }),
      'Warning event BackOff, 3 times over 5 minutes 2 seconds, the last 45 seconds ago: Back-off restarting failed container.',
    );
    assert.equal(
      eventRowName({ type: 'Normal', reason: 'Tested', message: 'line one\nline two\u202e', count: 1, lastAge: '10s', firstAge: '10s', expired: true, recordedHere: true }),
      'Normal event Tested, 10 seconds ago: line one line two\\u202e. Recorded in this window. Kept from history: the apiserver has deleted it.',
    );
  });

  it('names the show-more, status and namespace rows as what they do', () => {
    assert.equal(moreRowName(120, 'Pod/checkout-7c9'), 'Show 120 more events of Pod/checkout-7c9.');
    assert.equal(moreRowName(1, 'Pod/a'), 'Show 1 more event of Pod/a.');
    assert.equal(statusRowName('error', 'Cannot reach the apiserver'), 'Problem: Cannot reach the apiserver');
    assert.equal(statusRowName('loading', 'Listing events…'), 'In progress: Listing events…');
    assert.equal(statusRowName('none', 'Paused'), 'Paused');
    assert.equal(namespaceRowName('payments'), 'Namespace payments');
    assert.equal(namespaceRowName(''), 'Cluster-scoped objects');
  });
});
