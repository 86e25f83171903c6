// What a filter lets through, and how it describes itself in the view.
import * as assert from 'node:assert/strict';
import { describeFilter, isFilterActive, matchesFilter, serverSelector } from '../../../src/model/filters';
import { coreEvent } from './fixtures';

describe('filters', () => {
  const warning = coreEvent({ uid: 'w', type: 'Warning', reason: 'BackOff', message: 'Back-off restarting failed container', object: 'api-7', kind: 'Pod', ns: 'shop', source: 'kubelet' });
  it('match on type, namespace, kind, reason, source and text', () => {
    assert.equal(matchesFilter(warning, { types: ['Warning'] }), true);
    assert.equal(matchesFilter(warning, { types: ['Normal'] }), false);
    assert.equal(matchesFilter(warning, { namespaces: ['shop'], kinds: ['Pod'], reasons: ['BackOff'], sources: ['kubelet'] }), true);
    assert.equal(matchesFilter(warning, { namespaces: ['default'] }), false);
    assert.equal(matchesFilter(warning, { text: 'RESTARTING' }), true, 'text is case-insensitive, in the message');
    assert.equal(matchesFilter(warning, { text: 'api-7' }), true, 'and in the object name');
    assert.equal(matchesFilter(warning, { text: 'nothing' }), false);
  });
  it('match an object with what it owns, which no field selector can ask the apiserver for', () => {
    const deployment = { kind: 'Deployment', name: 'api', namespace: 'shop', uid: 'd1' };
    assert.equal(matchesFilter(warning, { object: deployment }), false);
    const rolled = { object: { ...deployment, owned: ['uid-api-7'] } };
    assert.equal(matchesFilter(warning, rolled), true, 'a pod it owns');
    assert.equal(serverSelector(rolled), undefined);
    assert.equal(serverSelector({ object: deployment }), 'involvedObject.uid=d1');
    assert.equal(describeFilter(rolled), 'Deployment/api and what it owns');
  });

  it('describe themselves for the view', () => {
    assert.equal(isFilterActive({}), false);
    assert.equal(describeFilter({ types: ['Warning'], namespaces: ['shop'], text: 'oom' }), 'Warning · ns: shop · "oom"');
  });
});
