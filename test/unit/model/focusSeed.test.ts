// A focused view's store starts from the main store: what matches, in slices of one store
// change each, with the newest copy of each event, and nothing once cancelled.
import * as assert from 'node:assert/strict';
import { EventStore, type StoreChange } from '../../../src/model/eventStore';
import { SEED_SLICE, seedFocus } from '../../../src/model/focusSeed';
import { coreEvent } from './fixtures';

const WARNINGS = { types: ['Warning'] };

function mainStore(events: number): EventStore {
  const main = new EventStore({ maxEvents: events * 2 });
  main.batch(() => {
    for (let i = 0; i < events; i++) main.upsert(coreEvent({ uid: `u${i}`, object: `pod-${i % 50}`, type: i % 3 === 0 ? 'Warning' : 'Normal', reason: i % 3 === 0 ? 'BackOff' : 'Started' }));
  });
  return main;
}

describe('seedFocus', () => {
  it('copies every event the filter matches, and none other, one store change per slice of SEED_SLICE', async () => {
    const main = mainStore(SEED_SLICE * 5);
    const focus = new EventStore({ maxEvents: 200_000 });
    const changes: StoreChange[] = [];
    focus.onDidChange((c) => changes.push(c));
    const warnings = [...main.all()].filter((e) => e.type === 'Warning');
    assert.equal(await seedFocus(main, focus, WARNINGS), warnings.length);
    assert.equal(focus.size, warnings.length);
    for (const e of warnings) assert.equal(focus.get(e.uid), e, `${e.uid} copied as it is`);
    assert.ok([...focus.all()].every((e) => e.type === 'Warning'));
    assert.equal(changes.length, Math.ceil(warnings.length / SEED_SLICE), 'one change per slice');
  });

  it('for Show Events of one object, copies the events of that object only, of every type', async () => {
    const main = mainStore(3_000);
    const focus = new EventStore({ maxEvents: 200_000 });
    const one = [...main.all()].filter((e) => e.involvedObject.name === 'pod-7');
    const object = { kind: 'Pod', name: 'pod-7', namespace: 'default', uid: 'uid-pod-7' };
    assert.equal(await seedFocus(main, focus, { object }), one.length);
    assert.deepEqual([...focus.all()].map((e) => e.uid).sort(), one.map((e) => e.uid).sort());
    assert.ok(new Set(one.map((e) => e.type)).size === 2, 'warnings and normal events alike');
  });

  it('lets the event loop run between slices, and copies the newer version of an event changed meanwhile', async () => {
    const main = mainStore(SEED_SLICE * 4);
    const focus = new EventStore({ maxEvents: 200_000 });
    const last = [...main.all()].filter((e) => e.type === 'Warning').at(-1);
    assert.ok(last);
    let turns = 0;
    const ticker = setInterval(() => turns++, 0);
    // Between the first and the second slice, the last warning is counted again.
    setImmediate(() => main.upsert({ ...last, count: 7, resourceVersion: '99' }));
    await seedFocus(main, focus, WARNINGS);
    clearInterval(ticker);
    assert.equal(focus.get(last.uid)?.count, 7, 'the newer copy');
    assert.ok(turns > 0, 'timers ran while it copied');
  });

  it('stops once cancelled, and says it copied nothing', async () => {
    const main = mainStore(SEED_SLICE * 6);
    const focus = new EventStore({ maxEvents: 200_000 });
    let cancelled = false;
    setImmediate(() => (cancelled = true));
    assert.equal(await seedFocus(main, focus, WARNINGS, () => cancelled), 0);
    assert.equal(focus.size, SEED_SLICE, 'only the first slice');
  });
});
