// Taking the user to events, in plain Node over the real services (no cluster: the store
// holds what a list would have brought): an object's events are filtered to and revealed
// once shown; an object without events gets a sentence that says so; an event hidden by a
// pause or a filter has them lifted before it is revealed.
import * as assert from 'node:assert/strict';
import type { InvolvedObject } from '../../../src/model/clusterEvent';
import { EventStore } from '../../../src/model/eventStore';
import type { Logger } from '../../../src/record/logger';
import { ConnectionService } from '../../../src/services/connectionService';
import { FilterService } from '../../../src/services/filterService';
import { FocusService } from '../../../src/services/focusService';
import { NavigationService, type RowReveal } from '../../../src/services/navigationService';
import { ShownEvents } from '../../../src/services/shownEvents';
import { coreEvent, T0 } from '../model/fixtures';

const quiet: Logger = { info: () => undefined, error: () => undefined };

/** The view's side, as the tree would answer: an event is shown when the view shows its group. */
class Reveals implements RowReveal {
  readonly log: string[] = [];
  constructor(private readonly shown: ShownEvents) {}
  async revealObject(_key: string, object: InvolvedObject): Promise<void> {
    this.log.push(`object ${object.kind}/${object.name}`);
  }
  async revealEvent(uid: string): Promise<boolean> {
    const shown = this.shown.groups().some((g) => g.events.some((e) => e.uid === uid));
    this.log.push(`event ${uid}${shown ? '' : ' (not shown)'}`);
    return shown;
  }
}

function setup() {
  const store = new EventStore({ maxEvents: 1000 });
  const connection = new ConnectionService(store, quiet, () => ({ kubeconfig: '', context: '', namespaces: [] }));
  const shown = new ShownEvents(store, 'lastSeen');
  const focus = new FocusService(store, shown, connection, () => 1000);
  const keys: Record<string, unknown> = {};
  const filters = new FilterService(shown, focus, { set: (k, v) => (keys[k] = v) });
  const rows = new Reveals(shown);
  const navigation = new NavigationService(connection, store, shown, filters, focus, rows);
  store.upsert(coreEvent({ uid: 'a', object: 'web-1', objectUid: 'u1', type: 'Warning', reason: 'BackOff', first: T0 }));
  store.upsert(coreEvent({ uid: 'b', object: 'web-2', objectUid: 'u2', first: T0 + 1000 }));
  const dispose = () => [focus, filters, shown, connection].forEach((d) => d.dispose());
  return { store, shown, filters, rows, navigation, keys, dispose };
}

describe('NavigationService', () => {
  it('shows an object\'s events alone, then reveals its row', async () => {
    const { shown, filters, rows, navigation, keys, dispose } = setup();
    const result = await navigation.showEvents({ kind: 'Pod', name: 'web-1', namespace: 'default' });
    assert.ok(result.shown);
    assert.equal(result.object.uid, 'u1');
    assert.equal(result.key, shown.groups()[0].key);
    assert.deepEqual(filters.filter, { object: { kind: 'Pod', name: 'web-1', namespace: 'default', uid: 'u1' } }, 'the uid the store knows makes the filter exact');
    assert.deepEqual(shown.groups().map((g) => g.object.name), ['web-1']);
    assert.deepEqual(rows.log, ['object Pod/web-1']);
    assert.equal(keys['kubernetesEvents.filtered'], true);
    dispose();
  });

  it('shows a workload with what it owns, from the store (no single field selector names them), revealing the first shown', async () => {
    const { shown, filters, rows, navigation, dispose } = setup();
    const result = await navigation.showEvents({ kind: 'Deployment', name: 'web', namespace: 'default', owned: ['u1', 'u2'] });
    assert.ok(result.shown);
    assert.deepEqual(shown.groups().map((g) => g.object.name).sort(), ['web-1', 'web-2']);
    assert.equal(filters.filter.object?.owned?.length, 2);
    assert.deepEqual(rows.log, [`object Pod/${result.object.name}`]);
    dispose();
  });

  it('says so, naming the object, when the cluster has no events about it', async () => {
    const { rows, navigation, dispose } = setup();
    const result = await navigation.showEvents({ kind: 'Pod', name: 'nowhere', namespace: 'shop' });
    assert.equal(result.shown, false);
    assert.match(result.shown ? '' : result.text, /^No events about Pod\/nowhere in shop in this cluster .*Clear Filters shows every object again\.$/);
    assert.deepEqual(rows.log, []);
    dispose();
  });

  it('lifts a pause and then a filter that hide an event before revealing it', async () => {
    const { shown, filters, rows, navigation, dispose } = setup();
    await filters.set({ types: ['Warning'] });
    shown.pause(() => false);
    assert.equal(await navigation.revealEvent('b'), true);
    assert.ok(!shown.paused);
    assert.deepEqual(filters.filter, {});
    assert.deepEqual(rows.log, ['event b (not shown)', 'event b']);
    assert.equal(await navigation.revealEvent('gone'), false, 'not in the store');
    dispose();
  });
});
