// What the apiserver accepts of an event recorded here, checked before it is recorded: the
// limits count UTF-8 bytes as Go's len does; events.k8s.io/v1 needs an action, core/v1 takes none.
import * as assert from 'node:assert/strict';
import { MAX_ACTION_BYTES, MAX_MESSAGE_BYTES, requestProblem, type RecordRequest } from '../../../src/model/recordRequest';

const object = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'default' } };
const base: RecordRequest = { object, type: 'Normal', reason: 'Checked', message: 'fine' };

describe('model/recordRequest', () => {
  it('accepts a core/v1 event with no api named, and an events.k8s.io/v1 event with an action', () => {
    assert.equal(requestProblem(base), undefined);
    assert.equal(requestProblem({ ...base, api: 'events.k8s.io/v1', action: 'Check', related: object }), undefined);
  });

  it('events.k8s.io/v1 needs an action of at most 128 bytes of UTF-8', () => {
    assert.match(requestProblem({ ...base, api: 'events.k8s.io/v1' }) ?? '', /The action is empty/);
    assert.match(requestProblem({ ...base, api: 'events.k8s.io/v1', action: '  ' }) ?? '', /The action is empty/);
    assert.equal(requestProblem({ ...base, api: 'events.k8s.io/v1', action: 'x'.repeat(MAX_ACTION_BYTES) }), undefined);
    assert.match(requestProblem({ ...base, api: 'events.k8s.io/v1', action: '节'.repeat(43) }) ?? '', /129 bytes; the apiserver accepts at most 128/);
  });

  it('core/v1 takes no action or related object, and says which API does', () => {
    assert.match(requestProblem({ ...base, action: 'Check' }) ?? '', /record it with api events\.k8s\.io\/v1/);
    assert.match(requestProblem({ ...base, api: 'core/v1', related: object }) ?? '', /record it with api events\.k8s\.io\/v1/);
  });

  it('an unknown API is named in the refusal; the message limit binds both APIs', () => {
    assert.match(requestProblem({ ...base, api: 'events.k8s.io/v1beta1' as never }) ?? '', /must be core\/v1 or events\.k8s\.io\/v1, not events\.k8s\.io\/v1beta1/);
    const long = 'é'.repeat(MAX_MESSAGE_BYTES / 2 + 1);
    for (const api of ['core/v1', 'events.k8s.io/v1'] as const) assert.match(requestProblem({ ...base, api, action: api === 'core/v1' ? undefined : 'A', message: long }) ?? '', /1026 bytes of UTF-8/);
  });
});
