import * as assert from 'node:assert/strict';
import type { CoreV1Event } from '@kubernetes/client-node';
import { groupEvents, lastSeen } from '../../src/model/groupEvents';

function ev(name: string, object: { kind: string; name: string; namespace?: string; uid?: string }, last: string, type = 'Normal'): CoreV1Event {
  return {
    metadata: { name, namespace: object.namespace ?? 'default', uid: `uid-${name}` },
    involvedObject: { kind: object.kind, name: object.name, namespace: object.namespace ?? 'default', uid: object.uid },
    lastTimestamp: new Date(last),
    type,
    reason: 'R',
    message: name,
  };
}

describe('groupEvents', () => {
  it('groups by involved object and puts the newest group and event first', () => {
    const pod = { kind: 'Pod', name: 'web-1', uid: 'p1' };
    const deploy = { kind: 'Deployment', name: 'web', uid: 'd1' };
    const groups = groupEvents([
      ev('a', pod, '2026-01-01T00:00:01Z'),
      ev('b', deploy, '2026-01-01T00:00:05Z'),
      ev('c', pod, '2026-01-01T00:00:09Z', 'Warning'),
    ]);
    assert.deepEqual(groups.map((g) => `${g.kind}/${g.name}`), ['Pod/web-1', 'Deployment/web']);
    assert.deepEqual(groups[0].events.map((e) => e.metadata.name), ['c', 'a']);
    assert.equal(groups[0].warnings, 1);
    assert.equal(groups[1].warnings, 0);
  });

  it('keeps objects of the same name in different namespaces, kinds or uids apart', () => {
    const groups = groupEvents([
      ev('a', { kind: 'Pod', name: 'x', namespace: 'one' }, '2026-01-01T00:00:01Z'),
      ev('b', { kind: 'Pod', name: 'x', namespace: 'two' }, '2026-01-01T00:00:01Z'),
      ev('c', { kind: 'Service', name: 'x', namespace: 'one' }, '2026-01-01T00:00:01Z'),
      ev('d', { kind: 'Pod', name: 'x', namespace: 'one', uid: 'recreated' }, '2026-01-01T00:00:01Z'),
    ]);
    assert.equal(groups.length, 4);
  });

  it('sorts by time, never by text, and falls back from lastTimestamp to eventTime', () => {
    const early = ev('z-early', { kind: 'Pod', name: 'p' }, '2026-01-01T00:00:01Z');
    const micro: CoreV1Event = { ...ev('a-late', { kind: 'Pod', name: 'p' }, '2026-01-01T00:00:00Z'), lastTimestamp: undefined, eventTime: '2026-01-01T00:00:02.500000Z' as unknown as Date };
    assert.equal(lastSeen(micro), Date.parse('2026-01-01T00:00:02.5Z'));
    assert.deepEqual(groupEvents([early, micro])[0].events.map((e) => e.metadata.name), ['a-late', 'z-early']);
  });
});
