import * as assert from 'node:assert/strict';
import { codeFence, hoverLines, lensTitle, warningMessage } from '../../../../src/model/manifests/manifestText';
import type { ResourceStatus, WarningLine } from '../../../../src/model/manifests/manifestStatus';
import { coreEvent, T0 } from '../fixtures';

const pod = { kind: 'Pod', name: 'checkout-7c9c-x1', namespace: 'payments', uid: 'p1', apiVersion: 'v1', fieldPath: '' };
const own = [{ group: 'apps', kind: 'Deployment', namespace: 'payments', name: 'checkout' }];
const backOff: WarningLine = { reason: 'BackOff', count: 22, lastSeen: T0 - 7000, message: 'Back-off restarting failed container checkout in pod checkout-7c9c-x1', object: pod };
const status = (o: Partial<ResourceStatus>): ResourceStatus => ({ events: 0, warnings: [], lastSeen: undefined, objects: [], ...o });

describe('manifest words', () => {
  it('titles the lens with counts and kubectl ages, or where the object is not', () => {
    assert.equal(lensTitle(status({ events: 17, warnings: [backOff, backOff], lastSeen: T0 - 180_000 }), 'present', 'kind-dev', 'Deployment', T0), '2 warnings · 17 events · 3m ago');
    assert.equal(lensTitle(status({}), 'absent', 'kind-dev', 'Deployment', T0), 'not in kind-dev');
    assert.equal(lensTitle(status({}), 'present', 'kind-dev', 'Deployment', T0), 'no events in kind-dev');
    assert.equal(lensTitle(status({}), 'unknownKind', 'kind-dev', 'Widget', T0), 'kind-dev serves no Widget');
    assert.equal(lensTitle(status({ events: 1, lastSeen: T0 }), 'absent', 'kind-dev', 'Pod', T0), 'not in kind-dev (deleted) · 0 warnings · 1 event · 0s ago');
  });

  it('words a Problems entry as the reason, count, age, object and message, on one line', () => {
    assert.equal(warningMessage(backOff, own, T0), 'BackOff x22 (last 7s) on Pod/checkout-7c9c-x1: Back-off restarting failed container checkout in pod checkout-7c9c-x1');
    const hostile = { ...backOff, count: 1, object: { ...pod, kind: 'Deployment', name: 'checkout' }, message: 'a\nb\u001b[31m\u202e [x](https://evil.example)' };
    assert.equal(warningMessage(hostile, own, T0), 'BackOff (last 7s): a b^[[31m\\u202e [x](https://evil.example)');
  });

  it('lists the newest events in the hover as kubectl columns, in a fence no message can close', () => {
    const e = coreEvent({ uid: 'e1', ns: 'payments', object: 'checkout-7c9c-x1', type: 'Warning', reason: 'BackOff', message: '```\n<img src=x onerror=alert(1)>', last: T0 - 7000 });
    const lines = hoverLines(status({ events: 1, warnings: [backOff] }), [e], own, 'kind-dev', T0);
    assert.equal(lines[0], 'Deployment/checkout in payments · kind-dev · 1 warning · 1 event');
    assert.match(lines[2], /^LAST SEEN +TYPE +REASON +OBJECT +MESSAGE$/);
    assert.match(lines[3], /^7s +Warning +BackOff +Pod\/checkout-7c9c-x1 +``` <img src=x onerror=alert\(1\)>$/);
    const text = lines.join('\n');
    assert.equal(codeFence(text), '````');
  });
});
