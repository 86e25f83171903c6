// Recording what the user asks for, in plain Node through the real machinery into a real
// store: a request past the apiserver's limits is refused with the reason, a good one shows
// in the store and the answer says where it went (this window, or the cluster too).
import * as assert from 'node:assert/strict';
import { EventStore } from '../../../src/model/eventStore';
import { MAX_MESSAGE_BYTES, type RecordRequest } from '../../../src/model/recordRequest';
import type { Logger } from '../../../src/record/logger';
import { EventMachinery } from '../../../src/services/eventMachinery';
import { RecordingService } from '../../../src/services/recordingService';

const quiet: Logger = { info: () => undefined, error: () => undefined };
const object = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: 'shop', uid: 'cm-1' } };

describe('RecordingService', () => {
  it('refuses what the apiserver would refuse, saying why, and records nothing', async () => {
    const store = new EventStore({ maxEvents: 100 });
    const machinery = new EventMachinery(store, quiet, {});
    const recording = new RecordingService(machinery, { enabled: false, context: undefined });
    const bad: RecordRequest[] = [
      { object, type: 'Normal', reason: '', message: 'x' },
      { object, type: 'Normal', reason: 'Two words', message: 'x' },
      { object, type: 'Normal', reason: 'Big', message: 'é'.repeat(MAX_MESSAGE_BYTES / 2 + 1) },
      { object, type: 'Error' as 'Normal', reason: 'Odd', message: 'x' },
    ];
    const texts = [];
    for (const r of bad) {
      const result = await recording.record(r);
      assert.equal(result.ok, false);
      texts.push(result.text);
    }
    assert.match(texts[0], /reason is empty/);
    assert.match(texts[1], /one word/);
    assert.match(texts[2], /1026 bytes of UTF-8; the apiserver accepts at most 1024/);
    assert.match(texts[3], /must be Normal or Warning, not Error/);
    await machinery.shutdown();
    assert.equal(store.size, 0);
  });

  it('records into the store and says where the event went', async () => {
    const store = new EventStore({ maxEvents: 100 });
    const machinery = new EventMachinery(store, quiet, {});
    const sink = { enabled: false, context: undefined as string | undefined };
    const recording = new RecordingService(machinery, sink);
    await machinery.ready();
    const local = await recording.record({ object, type: 'Warning', reason: 'BackupFailed', message: 'the nightly backup failed: 磁盘已满 💾' });
    assert.deepEqual(local, { ok: true, toCluster: false, text: 'Recorded Warning BackupFailed on ConfigMap/settings in shop in this window only: the sink is off, so the cluster does not have it.' });
    sink.enabled = true;
    sink.context = 'prod';
    const both = await recording.record({ object, type: 'Normal', reason: 'BackupDone', message: 'ok' });
    assert.equal(both.text, 'Recorded Normal BackupDone on ConfigMap/settings in shop, and sent it to the cluster of context prod.');
    await machinery.shutdown();
    const messages = [...store.all()].map((e) => e.message).sort();
    assert.deepEqual(messages, ['ok', 'the nightly backup failed: 磁盘已满 💾']);
  });
});
