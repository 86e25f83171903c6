// The spam filter's token bucket, with golang.org/x/time/rate's arithmetic and the
// correlator's defaults: the exact vectors of the spec.
import * as assert from 'node:assert/strict';
import { NANOS_PER_SECOND } from '../../../src/record/clock';
import { DEFAULT_SPAM_BURST, DEFAULT_SPAM_QPS } from '../../../src/record/eventsCache';
import { TokenBucketPassiveRateLimiter } from '../../../src/record/tokenBucket';
import { FakeClock } from '../../support/clocks';

const NOW = BigInt(Date.now()) * 1_000_000n;

describe('token bucket (golang.org/x/time/rate semantics)', () => {
  it('uses float32 qps: 1/300 is 0.0033333334140479565', () => {
    assert.equal(DEFAULT_SPAM_QPS, 0.0033333334140479565);
  });

  it('passes 25 at once, refuses the 26th, and accepts again 300 s after the last accepted call', () => {
    const clock = new FakeClock(NOW);
    const bucket = new TokenBucketPassiveRateLimiter(DEFAULT_SPAM_QPS, DEFAULT_SPAM_BURST, clock);
    for (let i = 0; i < 25; i++) assert.equal(bucket.tryAccept(), true, `call ${i + 1}`);
    assert.equal(bucket.tryAccept(), false, 'the 26th');
    clock.setTime(NOW + 299n * NANOS_PER_SECOND);
    assert.equal(bucket.tryAccept(), false, 'at 299 s');
    clock.setTime(NOW + 300n * NANOS_PER_SECOND);
    assert.equal(bucket.tryAccept(), true, 'at 300 s');
    assert.equal(bucket.tryAccept(), false, 'right after');
  });

  it('a refused call changes nothing', () => {
    const clock = new FakeClock(NOW);
    const bucket = new TokenBucketPassiveRateLimiter(1, 1, clock);
    assert.equal(bucket.tryAccept(), true);
    clock.step(NANOS_PER_SECOND / 2n);
    assert.equal(bucket.tryAccept(), false);
    clock.step(NANOS_PER_SECOND / 2n);
    assert.equal(bucket.tryAccept(), true, 'a full second after the last accepted call, not after the refused one');
  });
});
