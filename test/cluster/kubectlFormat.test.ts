// Our kubectl formatting against the real kubectl (built from the same Go module as the
// control plane), on the same events in the real apiserver: the LAST SEEN of `kubectl
// events` and the Events table of `kubectl describe`.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { CoreV1Api, type KubeConfig } from '@kubernetes/client-node';
import { normalizeEvent, type RawEvent } from '../../src/cluster/normalize';
import type { ClusterEvent } from '../../src/model/clusterEvent';
import { ControlPlane } from '../env/controlPlane';
import { describeRow, kubectlEventsRow } from '../support/kubectlRows';
import { controlPlaneDir, createNamespace, kubeConfigFor } from './support';

const S = 1000;
const M = 60 * S;
const H = 60 * M;
const D = 24 * H;

/** Events about one ConfigMap: ages across HumanDuration's bands, singletons and repeats. */
const SHAPES: { reason: string; type: string; firstAgo?: number; lastAgo?: number; count: number; message: string }[] = [
  { reason: 'Fresh', type: 'Normal', firstAgo: 5 * S, lastAgo: 5 * S, count: 1, message: 'just now' },
  { reason: 'Repeated', type: 'Warning', firstAgo: 5 * M + 2 * S, lastAgo: 45 * S, count: 3, message: 'again and again' },
  { reason: 'Minutes', type: 'Normal', firstAgo: 135 * M + 20 * S, lastAgo: 135 * M + 20 * S, count: 1, message: 'over two hours' },
  { reason: 'Hours', type: 'Warning', firstAgo: 7 * H + 59 * M + 30 * S, lastAgo: 2 * H + 30 * M + 30 * S, count: 12, message: 'hours' },
  { reason: 'Day', type: 'Normal', firstAgo: 30 * H + 30 * S, lastAgo: 30 * H + 30 * S, count: 1, message: 'yesterday' },
  { reason: 'Days', type: 'Warning', firstAgo: 3 * D + 5 * H + 30 * S, lastAgo: 90 * S, count: 400, message: 'all week' },
  { reason: 'Padded', type: 'Normal', firstAgo: 10 * M + 30 * S, lastAgo: 10 * M + 30 * S, count: 1, message: '  trimmed message  ' },
  // No timestamps at all: kubectl prints <unknown> (it never falls back to the creation time).
  { reason: 'Timeless', type: 'Normal', count: 1, message: 'no time of its own' },
  // Terminal escapes: kubectl shows ESC as ^[ and CR as \r.
  { reason: 'Escapes', type: 'Warning', firstAgo: 20 * S, lastAgo: 20 * S, count: 1, message: 'red \u001b[31mtext\rback' },
];

function kubectl(args: string[]): string {
  const plane = ControlPlane.attach(controlPlaneDir());
  return execFileSync(path.join(plane.info.binDir, 'kubectl'), ['--kubeconfig', plane.info.adminKubeconfig, ...args]).toString();
}

/** Splits kubectl's tab-aligned table into rows of columns (columns are separated by 2+ spaces). */
function table(text: string): string[][] {
  return text.split('\n').filter((l) => l.trim()).map((l) => l.trim().split(/\s{2,}/));
}

describe('kubectl formatting against the real kubectl', function () {
  this.timeout(60_000);
  let kc: KubeConfig;
  let namespace: string;
  let events: ClusterEvent[];

  before(async () => {
    kc = kubeConfigFor('admin.kubeconfig');
    namespace = await createNamespace(kc, 'format');
    const core = kc.makeApiClient(CoreV1Api);
    const cm = await core.createNamespacedConfigMap({ namespace, body: { metadata: { name: 'target' }, data: { a: 'b' } } });
    const now = Date.now();
    for (const [i, s] of SHAPES.entries()) {
      await core.createNamespacedEvent({
        namespace,
        body: {
          metadata: { name: `target.${i}` },
          involvedObject: { kind: 'ConfigMap', name: 'target', namespace, uid: cm.metadata?.uid, apiVersion: 'v1' },
          reason: s.reason,
          message: s.message,
          type: s.type,
          count: s.count,
          firstTimestamp: s.firstAgo === undefined ? undefined : new Date(now - s.firstAgo),
          lastTimestamp: s.lastAgo === undefined ? undefined : new Date(now - s.lastAgo),
          source: { component: 'format-test' },
        },
      });
    }
    const list = await core.listNamespacedEvent({ namespace });
    // Read back as JSON, the way the watch and our store get them.
    events = list.items.map((e) => normalizeEvent(JSON.parse(JSON.stringify(e)) as RawEvent, 'core/v1'));
  });

  /** Our rows at the instants just before and just after kubectl ran: kubectl's must be one of them. */
  function oursAround<T>(before: number, after: number, row: (e: ClusterEvent, now: number) => T): { early: T[]; late: T[] } {
    return { early: events.map((e) => row(e, before)), late: events.map((e) => row(e, after)) };
  }

  it('`kubectl events` LAST SEEN, TYPE, REASON, OBJECT and MESSAGE', () => {
    const before = Date.now();
    const out = kubectl(['events', '-n', namespace]);
    const after = Date.now();
    const rows = table(out).slice(1); // header: LAST SEEN  TYPE  REASON  OBJECT  MESSAGE
    assert.equal(rows.length, SHAPES.length);
    const { early, late } = oursAround(before, after, kubectlEventsRow);
    for (const row of rows) {
      const match = [...early, ...late].some((ours) => JSON.stringify(ours) === JSON.stringify(row));
      assert.ok(match, `kubectl printed ${JSON.stringify(row)}; ours: ${JSON.stringify(early.find((o) => o[2] === row[2]))}`);
    }
  });

  it('`kubectl describe` Events: Type, Reason, Age, From, Message', () => {
    const before = Date.now();
    const out = kubectl(['describe', 'configmap', 'target', '-n', namespace]);
    const after = Date.now();
    const section = out.slice(out.indexOf('Events:'));
    const rows = table(section).slice(3); // "Events:", the header and the dashes
    assert.equal(rows.length, SHAPES.length, section);
    const { early, late } = oursAround(before, after, describeRow);
    for (const row of rows) {
      const match = [...early, ...late].some((ours) => JSON.stringify(ours) === JSON.stringify(row));
      assert.ok(match, `kubectl printed ${JSON.stringify(row)}; ours: ${JSON.stringify(early.find((o) => o[1] === row[1]))}`);
    }
  });
});
