// The times an event and its store entry hold are references to one number per time text,
// not a boxed copy per field (src/common/heldShape.ts). Only V8 can tell: a fresh Node
// runs this file with --allow-natives-syntax and prints the objects with %DebugPrint, and
// the test compares the addresses of the numbers the fields hold. The probe collects
// garbage first, as an extension host does long before its first list arrives.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { normalizeEvent } from '../../../src/cluster/normalize';
import { newEntry } from '../../../src/model/storeEntry';

const PROBE_ENV = 'KEV_SHARED_TIMES_PROBE';
const SECOND = '2026-12-02T08:00:00Z';
const NEXT_SECOND = '2026-12-02T08:00:01Z';

/** In the child: one event (first seen and created in one second) and its entry, printed by V8. */
function probe(): void {
  const gc = (globalThis as { gc?: () => void }).gc as () => void;
  for (let i = 0; i < 3; i++) gc();
  const event = normalizeEvent({
    metadata: { uid: 'u1', name: 'web.1', namespace: 'shop', creationTimestamp: SECOND, resourceVersion: '7' },
    involvedObject: { kind: 'Pod', name: 'web', namespace: 'shop', uid: 'p1' },
    reason: 'Pulled', message: 'pulled', type: 'Normal', count: 2,
    firstTimestamp: SECOND, lastTimestamp: NEXT_SECOND, source: { component: 'kubelet' },
  }, 'core/v1');
  const entry = newEntry(event, 1, false);
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- V8's natives syntax is not TypeScript: only code made at run time can use it
  const debugPrint = new Function('o', '%DebugPrint(o)') as (o: object) => void;
  debugPrint(event);
  debugPrint(entry);
}

/** The address of the number a field holds, from %DebugPrint's "#name: 0x... <HeapNumber ...>". */
function numberAt(printed: string, field: string): string {
  const m = new RegExp(`#${field}: (0x[0-9a-f]+) <HeapNumber`).exec(printed);
  const line = new RegExp(`#${field}: .*`).exec(printed);
  assert.ok(m, `${field} holds no reference to a number (a field of its own boxes its copy): ${line?.[0] ?? `not printed:\n${printed}`}`);
  return m[1];
}

if (process.env[PROBE_ENV]) probe();
else {
  describe('shared times: how V8 stores an event\'s times', () => {
    it('an event and its store entry hold one number per time text, by reference, even after collections', () => {
      const out = execFileSync(process.execPath, ['--allow-natives-syntax', '--expose-gc', __filename], { env: { ...process.env, [PROBE_ENV]: '1' }, encoding: 'utf8' });
      // firstTimestamp and creationTimestamp are one text: one number.
      assert.equal(numberAt(out, 'firstSeen'), numberAt(out, 'created'));
      assert.notEqual(numberAt(out, 'firstSeen'), numberAt(out, 'lastSeen'));
      // The entry's sort time is the event's last seen: the same number, not a copy.
      assert.equal(numberAt(out, 'time'), numberAt(out, 'lastSeen'));
    });
  });
}
