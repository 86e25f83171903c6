// The part of Go's fmt the recorder relies on: Sprintf, strconv.Quote and %#v of a reference.
import * as assert from 'node:assert/strict';
import { goQuote, goSyntaxObjectReference, sprintf } from '../../../src/record/goFormat';

describe('Go formatting', () => {
  it('Sprintf: %s %v %d %q %% and Go error forms', () => {
    assert.equal(sprintf('some verbose message: %v', 1), 'some verbose message: 1');
    assert.equal(sprintf('%s has %d of %v (%q) 100%%', 'pod', 3, 2.5, 'a"b'), 'pod has 3 of 2.5 ("a\\"b") 100%');
    assert.equal(sprintf('%d', 'x'), '%!d(string=x)');
    assert.equal(sprintf('%s and %s', 'one'), 'one and %!s(MISSING)');
    assert.equal(sprintf('blah', 1, 'x'), 'blah%!(EXTRA int=1, string=x)');
    assert.equal(sprintf('%v %v %v', null, true, [1, 'a']), '<nil> true [1 a]');
    assert.equal(sprintf('%v %v', 1e-5, 1e21), '1e-05 1e+21');
  });
  it('strconv.Quote keeps printable Unicode and escapes the rest', () => {
    assert.equal(goQuote('héllo "x"\n\t\u0001\u2028'), '"héllo \\"x\\"\\n\\t\\x01\\u2028"');
  });
  it('%#v of an ObjectReference', () => {
    assert.equal(
      goSyntaxObjectReference({ kind: 'Pod', namespace: 'baz', name: 'foo', uid: 'bar', apiVersion: 'v1', fieldPath: 'spec.containers[2]' }),
      'v1.ObjectReference{Kind:"Pod", Namespace:"baz", Name:"foo", UID:"bar", APIVersion:"v1", ResourceVersion:"", FieldPath:"spec.containers[2]"}',
    );
  });
});
