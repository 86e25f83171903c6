import * as assert from 'node:assert/strict';
import { LatestOnly } from '../../../src/common/latestOnly';

const tick = () => new Promise((r) => setImmediate(r));

describe('LatestOnly (single-flight connect)', () => {
  it('aborts the running job when a newer one comes, and never starts one overtaken while waiting', async () => {
    const latest = new LatestOnly();
    const log: string[] = [];
    let running = 0;
    let most = 0;
    const job = (name: string) => async (signal: AbortSignal) => {
      running++;
      most = Math.max(most, running);
      log.push(`start ${name}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 50);
        signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
      });
      log.push(`${signal.aborted ? 'aborted' : 'done'} ${name}`);
      running--;
    };
    const a = latest.run(job('a'));
    await tick();
    const b = latest.run(job('b'));
    const c = latest.run(job('c'));
    assert.deepEqual(await Promise.all([a, b, c]), [false, false, true]);
    assert.deepEqual(log, ['start a', 'aborted a', 'start c', 'done c']);
    assert.equal(most, 1, 'never two at once');
  });

  it('cancel aborts what runs; later requests still run', async () => {
    const latest = new LatestOnly();
    let aborted = false;
    const first = latest.run((signal) => new Promise<void>((resolve) => signal.addEventListener('abort', () => ((aborted = true), resolve()))));
    await tick();
    await latest.cancel();
    assert.equal(await first, false);
    assert.equal(aborted, true);
    assert.equal(await latest.run(async () => undefined), true);
  });

  it('a job that throws rejects its own run and does not block the next', async () => {
    const latest = new LatestOnly();
    await assert.rejects(latest.run(async () => Promise.reject(new Error('boom'))), /boom/);
    assert.equal(await latest.run(async () => undefined), true);
  });
});
