// Port of client-go tools/record/util/util_test.go: event names, event types, not-found errors.
import * as assert from 'node:assert/strict';
import { StatusError } from '../../../src/record/errors';
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
