// A paged list against the real apiserver, read ahead: the next page is asked for as soon as
// a page's head has come, before the handler has it, never more than LIST_READ_AHEAD pages
// beyond the one handled, and every event arrives once, in the apiserver's order.
import * as assert from 'node:assert/strict';
import { CoreV1Api, type KubeConfig } from '@kubernetes/client-node';
import { ApiClient, type ListRequest } from '../../src/cluster/apiRequest';
import type { ListText } from '../../src/cluster/listItems';
import { LIST_READ_AHEAD } from '../../src/cluster/listWatch';
import { createNamespace, kubeConfigFor, listOnce, restConfigOf } from './support';

/** The real client, counting the list pages asked for (the requests themselves go to the apiserver). */
class CountingClient extends ApiClient {
  pagesAsked = 0;
  /** "ask N" when page N is asked for, "got N" when its whole body has been read. */
  readonly log: string[] = [];

  override list(req: ListRequest): Promise<ListText> {
    const n = ++this.pagesAsked;
    this.log.push(`ask ${n}`);
    return super.list(req).then((page) => {
      this.log.push(`got ${n}`);
      return page;
    });
  }
}

/** Keeps the event loop busy for ms, as a large page's processing does. */
function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    /* working */
  }
}

describe('paged list, read ahead', function () {
  this.timeout(120_000);
  const EVENTS = 120;
  const PAGE = 10;
  let kc: KubeConfig;
  let namespace: string;

  before(async () => {
    kc = kubeConfigFor('admin.kubeconfig');
    namespace = await createNamespace(kc, 'paging');
    const core = kc.makeApiClient(CoreV1Api);
    for (let i = 0; i < EVENTS; i++) {
      const name = `e-${String(i).padStart(3, '0')}`;
      await core.createNamespacedEvent({ namespace, body: { metadata: { name }, involvedObject: { kind: 'Pod', name: `p-${i % 7}`, namespace }, reason: 'Paged', message: `event ${i}`, type: 'Normal' } });
    }
  });

  it('asks for the next page before a slow handler has this one, at most LIST_READ_AHEAD beyond it, and hands every event over once, in order', async () => {
    const client = new CountingClient(restConfigOf('admin.kubeconfig'));
    const names: string[] = [];
    const ahead: number[] = [];
    let pagesHandled = 0;
    try {
      await listOnce(client, { api: 'core/v1', namespace, pageSize: PAGE, initialSync: 'pages' }, (items) => {
        // Asked for and not yet handled, this one excepted: the pages read ahead.
        ahead.push(client.pagesAsked - pagesHandled - 1);
        names.push(...items.map((e) => e.metadata?.name ?? ''));
        pagesHandled++;
        busy(150);
      });
    } finally {
      client.dispose();
    }
    const expected = Array.from({ length: EVENTS }, (_, i) => `e-${String(i).padStart(3, '0')}`);
    assert.deepEqual(names, expected, 'every event once, in the apiserver\'s order');
    assert.equal(pagesHandled, EVENTS / PAGE);
    assert.equal(client.pagesAsked, EVENTS / PAGE, 'one request per page');
    // Each next page is asked for from a page's head, before its whole body is in.
    for (let n = 1; n < EVENTS / PAGE; n++) assert.ok(client.log.indexOf(`ask ${n + 1}`) < client.log.indexOf(`got ${n}`), `page ${n + 1} asked for before page ${n} was read whole: ${client.log.join(', ')}`);
    assert.ok(Math.max(...ahead) <= LIST_READ_AHEAD, `pages read ahead: ${ahead.join(',')}`);
    // The next page was asked for before this one was handled (the apiserver works while we do).
    assert.ok(ahead.slice(0, -1).every((n) => n >= 1), `the next page already asked for while each page was handled: ${ahead.join(',')}`);
    assert.equal(ahead[ahead.length - 1], 0, 'nothing asked for after the last page');
  });

  for (const initialSync of ['pages', 'stream'] as const) {
    it(`hands ${initialSync === 'pages' ? 'a large page' : 'the streamed initial events'} over in batches, each in its own turn of the event loop, every event once and in order`, async () => {
      const client = new ApiClient(restConfigOf('admin.kubeconfig'));
      const names: string[] = [];
      // Counts turns of the event loop: what a handler holding the loop for the whole page would
      // stop. An immediate, not a timer: a timer runs only once its millisecond has passed, so
      // two small batches of the stream a fraction of a millisecond apart would share a count.
      let turns = 0;
      let ticking = true;
      const tick = () => {
        turns++;
        if (ticking) setImmediate(tick);
      };
      setImmediate(tick);
      const turnAtCall: number[] = [];
      try {
        await listOnce(client, { api: 'core/v1', namespace, pageSize: EVENTS, initialSync }, (items) => {
          turnAtCall.push(turns);
          names.push(...items.map((e) => e.metadata?.name ?? ''));
          // A slow store: a fifth of a millisecond per event, 24 ms for the page.
          busy(items.length * 0.2);
        });
      } finally {
        ticking = false;
        client.dispose();
      }
      assert.deepEqual(names, Array.from({ length: EVENTS }, (_, i) => `e-${String(i).padStart(3, '0')}`));
      assert.ok(turnAtCall.length >= 3, `one page of ${EVENTS} in ${turnAtCall.length} batches`);
      for (let k = 1; k < turnAtCall.length; k++) assert.ok(turnAtCall[k] > turnAtCall[k - 1], `timers ran between batches ${k} and ${k + 1}: ${turnAtCall.join(',')}`);
    });
  }
});
