// Ports of client-go tools/record/util/util_test.go and tools/reference/ref_test.go (for
// JSON objects), plus the Go formatting the recorder relies on.
import * as assert from 'node:assert/strict';
import { formatMicroTime, formatTime, parseTime } from '../../../src/record/clock';
import { StatusError } from '../../../src/record/errors';
import { goQuote, goSyntaxObjectReference, sprintf } from '../../../src/record/goFormat';
import { getPartialReference, getReference } from '../../../src/record/reference';
import { generateEventName, isDNS1123Subdomain, isKeyNotFoundError, validateEventType } from '../../../src/record/util';

describe('record/util (util_test.go)', () => {
  describe('TestGenerateEventName', () => {
    const timestamp = 105999103295324396n;
    const cases: { name: string; refName: string; expected?: string }[] = [
      { name: 'valid name', refName: 'test-pod', expected: 'test-pod.178959f726d80ec' },
      { name: 'invalid name - too long', refName: 'x'.repeat(300) },
      { name: 'invalid name - upper case', refName: 'test.POD' },
      { name: 'invalid name - special chars', refName: 'test.pod/invalid!chars?' },
      { name: 'invalid name - special chars and non alphanumeric starting character', refName: '--test.pod/invalid!chars?' },
    ];
    for (const c of cases) {
      it(c.name, () => {
        const actual = generateEventName(c.refName, timestamp);
        assert.ok(isDNS1123Subdomain(actual), `${actual} is a valid name`);
        if (c.expected) assert.equal(actual, c.expected);
        else assert.match(actual, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/, 'falls back to a random UUID');
      });
    }
    it('names events/v1 vector: pod1 at 2023-01-01T12:00:00Z', () => {
      assert.equal(generateEventName('pod1', 1672574400000000000n), 'pod1.17362d8e1c698000');
    });
  });

  it('ValidateEventType accepts Normal and Warning only, case-sensitive', () => {
    assert.equal(validateEventType('Normal'), true);
    assert.equal(validateEventType('Warning'), true);
    for (const t of ['normal', 'WARNING', 'Error', '']) assert.equal(validateEventType(t), false, t);
  });

  it('IsKeyNotFoundError looks at the HTTP code only', () => {
    assert.equal(isKeyNotFoundError(new StatusError(404, 'Whatever', 'x')), true);
    assert.equal(isKeyNotFoundError(new StatusError(410, 'NotFound', 'x')), false);
    assert.equal(isKeyNotFoundError(new Error('404')), false);
  });
});

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
  it('metav1.Time in whole seconds and MicroTime with six digits', () => {
    const t = parseTime('2023-01-01T12:00:01.123456789Z');
    assert.equal(formatTime(t), '2023-01-01T12:00:01Z');
    assert.equal(formatMicroTime(t), '2023-01-01T12:00:01.123456Z');
    assert.equal(formatTime(0n), '1970-01-01T00:00:00Z');
  });
});
