// Port of client-go tools/reference/ref_test.go, for JSON objects that carry their kind.
import * as assert from 'node:assert/strict';
import { getPartialReference, getReference } from '../../../src/record/reference';

describe('reference (ref_test.go, for objects that carry their kind)', () => {
  it('builds a reference from apiVersion, kind and metadata', () => {
    assert.deepEqual(getReference({ apiVersion: 'foo.group/v3', kind: 'Bar', metadata: { name: 'a-name', namespace: 'ns', uid: 'u', resourceVersion: '7' } }), {
      kind: 'Bar', apiVersion: 'foo.group/v3', name: 'a-name', namespace: 'ns', uid: 'u', resourceVersion: '7',
    });
  });
  it('returns an ObjectReference as it is, and adds a field path for a partial reference', () => {
    const ref = { kind: 'Pod', name: 'p', fieldPath: 'spec.containers[1]' };
    assert.equal(getReference(ref), ref);
    assert.equal(getPartialReference({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' } }, 'spec.containers{web}').fieldPath, 'spec.containers{web}');
  });
  it('names what is missing: kind, apiVersion or name', () => {
    assert.throws(() => getReference({ metadata: { name: 'web' } }), /cannot reference object web: kind, apiVersion are missing/);
    assert.throws(() => getReference({ apiVersion: 'v1', kind: 'Pod', metadata: {} }), /cannot reference a Pod: metadata.name is missing/);
    assert.throws(() => getReference(null), /can't reference a nil object/);
  });
});
