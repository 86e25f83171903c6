// An object's key: kept with the object it was made for, never with a copy that differs.
import * as assert from 'node:assert/strict';
import { objectKey } from '../../../src/model/clusterEvent';

describe('objectKey', () => {
  it('keeps a key with its object only: a copy with another name, an export or a frozen object get the right one', () => {
    const pod = { kind: 'Pod', namespace: 'ns', name: 'web/1', uid: 'u1', apiVersion: 'v1', fieldPath: '' };
    const key = objectKey(pod);
    assert.equal(key, 'Pod/ns/web%2F1/u1');
    assert.equal(objectKey(pod), key);
    // What the tree, export and the history log do with a reference: copy it, write it out.
    assert.equal(objectKey({ ...pod, name: 'web-2' }), 'Pod/ns/web-2/u1');
    assert.deepEqual(JSON.parse(JSON.stringify(pod)), { kind: 'Pod', namespace: 'ns', name: 'web/1', uid: 'u1', apiVersion: 'v1', fieldPath: '' });
    assert.deepStrictEqual({ ...pod }, { kind: 'Pod', namespace: 'ns', name: 'web/1', uid: 'u1', apiVersion: 'v1', fieldPath: '' });
    assert.equal(objectKey(Object.freeze({ ...pod, uid: 'u2' })), 'Pod/ns/web%2F1/u2');
  });
});
