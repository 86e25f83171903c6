// What the Diagnose panel says, as text: kubectl's columns (READY 1/2, RESTARTS 4, STATUS
// CrashLoopBackOff), its ages (apimachinery's HumanDuration: 117s, 9m57s, 120m) and event
// intervals (`5s (x12 over 8m20s)`), and the log's header and long-line note.
import * as assert from 'node:assert/strict';
import { conditionsOf, podReport, type RawPod } from '../../../../src/model/diagnose/podStatus';
import { workloadReport } from '../../../../src/model/diagnose/workloadStatus';
import { LineSplitter, parseLine } from '../../../../src/model/diagnose/logLines';
import type { LogState } from '../../../../src/services/diagnoseSession';
import { conditionRows, containerRows, eventRows, kib, logChoices, logHeader, MAX_SHOWN_LINE_CHARS, podRows, shownLine, summaryOf } from '../../../../src/views/diagnose/diagnoseText';
import { coreEvent } from '../../model/fixtures';

const NOW = Date.UTC(2026, 11, 5, 6, 0, 0);

const CRASHING: RawPod = {
  metadata: { name: 'checkout-7d9f8b6c5-x2x9k', namespace: 'shop', uid: 'p-1' },
  spec: { nodeName: 'kwok-node-1', containers: [{ name: 'checkout' }, { name: 'istio-proxy' }] },
  status: {
    phase: 'Running',
    conditions: [{ type: 'Ready', status: 'False', reason: 'ContainersNotReady', message: 'containers with unready status: [checkout]', lastTransitionTime: '2026-12-05T04:00:00Z' }],
    containerStatuses: [
      { name: 'istio-proxy', ready: true, restartCount: 0, state: { running: { startedAt: '2026-12-05T05:50:03Z' } } },
      {
        name: 'checkout',
        ready: false,
        restartCount: 4,
        state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 1m20s restarting failed container=checkout' } },
        lastState: { terminated: { exitCode: 2, reason: 'Error', startedAt: '2026-12-05T05:58:01Z', finishedAt: '2026-12-05T05:58:03Z' } },
      },
    ],
  },
};

const healthy = (name: string, restarts = 0) =>
  podReport({ metadata: { name }, spec: { nodeName: 'kwok-node-2', containers: [{ name: 'app' }] }, status: { phase: 'Running', containerStatuses: [{ name: 'app', ready: true, restartCount: restarts, state: { running: { startedAt: '2026-12-05T05:00:00Z' } } }] } });

function logState(o: Partial<LogState> = {}): LogState {
  return { container: 'checkout', previous: false, following: false, loading: false, tailLines: 1000, whole: false, shortened: false, retrying: false, lines: 0, bytes: 0, dropped: { lines: 0, bytes: 0 }, ...o };
}

/** A UTF-16 surrogate without its pair. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

describe('diagnose text: kib', () => {
  it('writes bytes under 1 KiB as bytes, and KiB to one decimal with thousands separators', () => {
    assert.equal(kib(0), '0 B');
    assert.equal(kib(1023), '1023 B');
    assert.equal(kib(1024), '1 KiB');
    assert.equal(kib(1536), '1.5 KiB');
    assert.equal(kib(1126), '1.1 KiB');
    assert.equal(kib(4 * 1024 * 1024), '4,096 KiB');
  });
});

describe('diagnose text: summaryOf', () => {
  it("says a crashing pod's kubectl columns: STATUS CrashLoopBackOff, READY 1/2, RESTARTS 4, its node, in the warning colour", () => {
    assert.deepEqual(summaryOf({ loading: false, gone: false, pod: podReport(CRASHING) }), { text: 'CrashLoopBackOff · 1/2 ready · 4 restarts · node kwok-node-1', warn: true });
  });

  it('says a healthy pod plainly, one restart in the singular', () => {
    assert.deepEqual(summaryOf({ loading: false, gone: false, pod: healthy('web-0', 1) }), { text: 'Running · 1/1 ready · 1 restart · node kwok-node-2', warn: false });
  });

  it('says Terminating for a pod being deleted, as kubectl get pod does', () => {
    const p = podReport({ ...CRASHING, metadata: { ...CRASHING.metadata, deletionTimestamp: '2026-12-05T06:00:00Z' } });
    const s = summaryOf({ loading: false, gone: false, pod: p });
    assert.ok(s.text.startsWith('Terminating · '), s.text);
    assert.equal(s.warn, true);
  });

  it('counts READY and RESTARTS over the app containers only, as kubectl does once the pod is initialized', () => {
    const p = podReport({
      metadata: { name: 'api-0' },
      spec: { nodeName: 'n1', initContainers: [{ name: 'migrate' }], containers: [{ name: 'api' }] },
      status: {
        phase: 'Running',
        initContainerStatuses: [{ name: 'migrate', ready: true, restartCount: 2, state: { terminated: { exitCode: 0, reason: 'Completed' } } }],
        containerStatuses: [{ name: 'api', ready: true, restartCount: 0, state: { running: {} } }],
      },
    });
    assert.deepEqual(summaryOf({ loading: false, gone: false, pod: p }), { text: 'Running · 1/1 ready · 0 restarts · node n1', warn: false });
  });

  it('warns for a pending pod and for a container that cannot start', () => {
    const pending = podReport({ metadata: { name: 'p' }, spec: { containers: [{ name: 'a' }] }, status: { phase: 'Pending' } });
    assert.equal(summaryOf({ loading: false, gone: false, pod: pending }).warn, true);
    const pull = podReport({ metadata: { name: 'p' }, spec: { nodeName: 'n', containers: [{ name: 'a' }] }, status: { phase: 'Pending', containerStatuses: [{ name: 'a', state: { waiting: { reason: 'ErrImagePull' } } }] } });
    const s = summaryOf({ loading: false, gone: false, pod: pull });
    assert.ok(s.text.startsWith('ErrImagePull · 0/1 ready'), s.text);
    assert.equal(s.warn, true);
  });

  it("says a workload's summary and counts, short ones in the warning colour", () => {
    const w = workloadReport({ kind: 'Deployment', spec: { replicas: 3 }, status: { replicas: 3, readyReplicas: 2, updatedReplicas: 3, availableReplicas: 2 } });
    assert.deepEqual(summaryOf({ loading: false, gone: false, workload: w }), { text: '2/3 ready · desired 3 · current 3 · ready 2 · up-to-date 3 · available 2', warn: true });
  });

  it('says how many conditions any other object has, or that it has none', () => {
    assert.equal(summaryOf({ loading: false, gone: false, conditions: conditionsOf([{ type: 'Ready', status: 'True' }]) }).text, '1 condition');
    assert.equal(summaryOf({ loading: false, gone: false, conditions: conditionsOf([{ type: 'A' }, { type: 'B' }]) }).text, '2 conditions');
    assert.match(summaryOf({ loading: false, gone: false }).text, /no status conditions/);
  });

  it('says it is still reading, and warns when the object is gone', () => {
    assert.equal(summaryOf({ loading: true, gone: false }).warn, false);
    assert.match(summaryOf({ loading: true, gone: false }).text, /^Reading/);
    const gone = summaryOf({ loading: false, gone: true });
    assert.equal(gone.warn, true);
    assert.match(gone.text, /not on the cluster/);
  });
});

describe("diagnose text: summaryOf, kubectl's STATUS with the pod's own reason", () => {
  it("says kubectl's word for an evicted pod (its container's reason) and the eviction beside it", () => {
    const p = podReport({
      metadata: { name: 'worker-1' },
      spec: { nodeName: 'n', containers: [{ name: 'w' }] },
      status: { phase: 'Failed', reason: 'Evicted', message: 'The node was low on resource: memory.', containerStatuses: [{ name: 'w', state: { terminated: { exitCode: 137, reason: 'ContainerStatusUnknown' } } }] },
    });
    assert.deepEqual(summaryOf({ loading: false, gone: false, pod: p }), { text: 'ContainerStatusUnknown (Evicted) · 0/1 ready · 0 restarts · node n', warn: true });
  });

  it('says Init:CrashLoopBackOff for a failing init container, as kubectl get pod does', () => {
    const p = podReport({
      metadata: { name: 'api-0' },
      spec: { nodeName: 'n', initContainers: [{ name: 'migrate' }], containers: [{ name: 'api' }] },
      status: { phase: 'Pending', initContainerStatuses: [{ name: 'migrate', restartCount: 3, state: { waiting: { reason: 'CrashLoopBackOff' } } }], containerStatuses: [{ name: 'api', state: { waiting: { reason: 'PodInitializing' } } }] },
    });
    assert.deepEqual(summaryOf({ loading: false, gone: false, pod: p }), { text: 'Init:CrashLoopBackOff · 0/1 ready · 0 restarts · node n', warn: true });
  });
});

describe('diagnose text: containerRows', () => {
  it("shows each container's state with kubectl's ages, and its last termination", () => {
    const { head, rows } = containerRows(podReport(CRASHING), NOW);
    assert.deepEqual(head, ['Container', 'State', 'Ready', 'Restarts', 'Last terminated']);
    assert.deepEqual(rows, [
      // Finished at 05:58:03, 117 s before 06:00:00: HumanDuration writes seconds up to 2 minutes.
      { cells: ['checkout', 'Waiting: CrashLoopBackOff (back-off 1m20s restarting failed container=checkout)', 'no', '4', 'Error, exit code 2, 117s ago'], warn: true },
      // Running since 05:50:03: 597 s, 9m57s.
      { cells: ['istio-proxy', 'Running for 9m57s', 'yes', '0', ''], warn: false },
    ]);
  });

  it('marks init containers, warns for a failed exit, not for a clean one, and makes a message inert', () => {
    const p = podReport({
      metadata: { name: 'job-1' },
      spec: { nodeName: 'n', initContainers: [{ name: 'fetch' }], containers: [{ name: 'work' }, { name: 'oom' }, { name: 'cfg' }] },
      status: {
        phase: 'Failed',
        initContainerStatuses: [{ name: 'fetch', state: { terminated: { exitCode: 0, reason: 'Completed' } } }],
        containerStatuses: [
          { name: 'work', state: { terminated: { exitCode: 0, reason: 'Completed' } } },
          { name: 'oom', state: { terminated: { exitCode: 137, reason: 'OOMKilled' } } },
          { name: 'cfg', state: { waiting: { reason: 'CreateContainerConfigError', message: 'secret "db-\u001b[2Jpass" not found' } } },
        ],
      },
    });
    const { rows } = containerRows(p, NOW);
    assert.deepEqual(rows.map((r) => [r.cells[0], r.cells[1], r.warn]), [
      ['fetch (init)', 'Terminated: Completed, exit code 0', false],
      ['work', 'Terminated: Completed, exit code 0', false],
      ['oom', 'Terminated: OOMKilled, exit code 137', true],
      ['cfg', 'Waiting: CreateContainerConfigError (secret "db-^[[2Jpass" not found)', true],
    ]);
  });
});

describe('diagnose text: conditionRows', () => {
  it('warns for a healthy condition that is False and a problem condition that is True, with kubectl ages', () => {
    const conditions = conditionsOf([
      { type: 'Ready', status: 'False', reason: 'KubeletNotReady', message: 'container runtime network not ready', lastTransitionTime: '2026-12-05T04:00:00Z' },
      { type: 'MemoryPressure', status: 'True', reason: 'KubeletHasInsufficientMemory', lastTransitionTime: '2026-12-05T05:59:30Z' },
      { type: 'DiskPressure', status: 'False', reason: 'KubeletHasNoDiskPressure' },
      { type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable' },
      { type: 'ReplicaFailure', status: 'True', reason: 'FailedCreate', message: 'pods "x" is forbidden: exceeded quota' },
      { type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded' },
      { type: 'NetworkUnavailable', status: 'False', reason: 'RouteCreated' },
      { type: 'Complete', status: 'True' },
    ]);
    const { head, rows } = conditionRows(conditions, NOW);
    assert.deepEqual(head, ['Condition', 'Status', 'Reason', 'Message', 'Since']);
    assert.deepEqual(rows.map((r) => [r.cells[0], r.warn]), [
      ['Ready', true],
      ['MemoryPressure', true],
      ['DiskPressure', false],
      ['Available', false],
      ['ReplicaFailure', true],
      ['Progressing', true],
      ['NetworkUnavailable', false],
      ['Complete', false],
    ]);
    // Two hours: HumanDuration says 120m (minutes up to three hours); thirty seconds: 30s.
    assert.deepEqual(rows[0].cells, ['Ready', 'False', 'KubeletNotReady', 'container runtime network not ready', '120m']);
    assert.equal(rows[1].cells[4], '30s');
    assert.equal(rows[2].cells[4], '');
  });

  it('makes a condition message inert', () => {
    const { rows } = conditionRows(conditionsOf([{ type: 'Ready', status: 'False', message: 'image "app\u202Egpj.exe" \u0007' }]), NOW);
    assert.equal(rows[0].cells[3], 'image "app\\u202egpj.exe" \\x07');
  });
});

describe('diagnose text: podRows', () => {
  it("lists a workload's pods with kubectl get pod's columns, warning for the failing ones", () => {
    const creating = podReport({ metadata: { name: 'checkout-7d9f8b6c5-new' }, spec: { nodeName: 'kwok-node-3', containers: [{ name: 'checkout' }, { name: 'istio-proxy' }] }, status: { phase: 'Pending', containerStatuses: [{ name: 'checkout', state: { waiting: { reason: 'ContainerCreating' } } }, { name: 'istio-proxy', state: { waiting: { reason: 'ContainerCreating' } } }] } });
    const { head, rows } = podRows([podReport(CRASHING), healthy('checkout-7d9f8b6c5-ok', 1), creating]);
    assert.deepEqual(head, ['Pod', 'Status', 'Ready', 'Restarts', 'Node']);
    assert.deepEqual(rows, [
      { pod: 'checkout-7d9f8b6c5-x2x9k', cells: ['checkout-7d9f8b6c5-x2x9k', 'CrashLoopBackOff', '1/2', '4', 'kwok-node-1'], warn: true },
      { pod: 'checkout-7d9f8b6c5-ok', cells: ['checkout-7d9f8b6c5-ok', 'Running', '1/1', '1', 'kwok-node-2'], warn: false },
      { pod: 'checkout-7d9f8b6c5-new', cells: ['checkout-7d9f8b6c5-new', 'ContainerCreating', '0/2', '0', 'kwok-node-3'], warn: true },
    ]);
  });

  it('says Terminating for a pod being deleted, and warns for OOMKilled and Failed ones', () => {
    const deleting = podReport({ ...podReportRaw('going'), metadata: { name: 'going', deletionTimestamp: '2026-12-05T05:59:00Z' } });
    const oom = podReport({ metadata: { name: 'oom' }, spec: { nodeName: 'n', containers: [{ name: 'a' }] }, status: { phase: 'Running', containerStatuses: [{ name: 'a', state: { terminated: { exitCode: 137, reason: 'OOMKilled' } } }] } });
    const failed = podReport({ metadata: { name: 'failed' }, spec: { nodeName: 'n', containers: [{ name: 'a' }] }, status: { phase: 'Failed' } });
    const { rows } = podRows([deleting, oom, failed]);
    assert.deepEqual(rows.map((r) => r.cells[1]), ['Terminating', 'OOMKilled', 'Failed']);
    assert.deepEqual(rows.slice(1).map((r) => r.warn), [true, true]);
  });
});

function podReportRaw(name: string): RawPod {
  return { metadata: { name }, spec: { nodeName: 'n', containers: [{ name: 'a' }] }, status: { phase: 'Running', containerStatuses: [{ name: 'a', ready: true, state: { running: {} } }] } };
}

describe('diagnose text: eventRows', () => {
  const backOff = coreEvent({ uid: 'e1', ns: 'shop', object: 'checkout-7d9f8b6c5-x2x9k', type: 'Warning', reason: 'BackOff', message: 'Back-off restarting failed container checkout in pod checkout-7d9f8b6c5-x2x9k_shop(p-1)', count: 12, first: NOW - 500_000, last: NOW - 5_000 });
  const pulled = coreEvent({ uid: 'e2', ns: 'shop', object: 'checkout-7d9f8b6c5-x2x9k', reason: 'Pulled', message: 'Successfully pulled image "registry.example/checkout:1.4.2" in 1.2s', first: NOW - 400_000 });

  it("shows each event as kubectl describe's Events do: type, reason, last seen with its count, object, message", () => {
    const { head, rows, note } = eventRows({ events: [backOff, pulled], total: 2, warnings: 1 }, NOW);
    assert.deepEqual(head, ['Type', 'Reason', 'Last seen', 'Object', 'Message']);
    assert.deepEqual(rows, [
      { cells: ['Warning', 'BackOff', '5s (x12 over 8m20s)', 'Pod/checkout-7d9f8b6c5-x2x9k', 'Back-off restarting failed container checkout in pod checkout-7d9f8b6c5-x2x9k_shop(p-1)'], warn: true },
      { cells: ['Normal', 'Pulled', '6m40s', 'Pod/checkout-7d9f8b6c5-x2x9k', 'Successfully pulled image "registry.example/checkout:1.4.2" in 1.2s'], warn: false },
    ]);
    assert.match(note, /^2 events, 1 warning\b/);
  });

  it('makes an event message inert: ANSI escapes, bidi overrides; CJK and emoji stay', () => {
    const e = coreEvent({ uid: 'e3', type: 'Warning', reason: 'Failed', message: '\u001b[31m拉取镜像失败\u001b[0m 🚫 \u202Eevil', first: NOW - 1000 });
    const { rows } = eventRows({ events: [e], total: 1, warnings: 1 }, NOW);
    assert.equal(rows[0].cells[4], '^[[31m拉取镜像失败^[[0m 🚫 \\u202eevil');
  });

  it('says how many events there are: none, all of them, or the newest of more', () => {
    assert.match(eventRows({ events: [], total: 0, warnings: 0 }, NOW).note, /^No events/);
    assert.match(eventRows({ events: [pulled], total: 1, warnings: 0 }, NOW).note, /^1 event, 0 warnings\b/);
    assert.match(eventRows({ events: [backOff, pulled], total: 250, warnings: 30 }, NOW).note, /^The newest 2 of 250 events \(30 warnings\)/);
  });
});

describe('diagnose text: logChoices', () => {
  it("offers each container's log, and the previous one, with its termination, for one that restarted", () => {
    const p = podReport(CRASHING);
    assert.deepEqual(logChoices(p, logState({ container: 'checkout', previous: true })), [
      { container: 'checkout', previous: false, label: 'checkout', selected: false },
      { container: 'checkout', previous: true, label: 'checkout: previous (Error, exit code 2)', selected: true },
      { container: 'istio-proxy', previous: false, label: 'istio-proxy', selected: false },
    ]);
    assert.deepEqual(logChoices(p, logState({ container: 'istio-proxy' })).map((c) => c.selected), [false, false, true]);
    assert.deepEqual(logChoices(p, undefined).map((c) => c.selected), [false, false, false]);
  });

  it('offers an init container that has run, marked, and not one that has not', () => {
    const p = podReport({
      metadata: { name: 'api-0' },
      spec: { nodeName: 'n', initContainers: [{ name: 'migrate' }, { name: 'seed' }], containers: [{ name: 'api' }] },
      status: {
        phase: 'Pending',
        initContainerStatuses: [
          { name: 'migrate', restartCount: 1, state: { running: {} } },
          { name: 'seed', state: { waiting: { reason: 'PodInitializing' } } },
        ],
        containerStatuses: [{ name: 'api', state: { waiting: { reason: 'PodInitializing' } } }],
      },
    });
    assert.deepEqual(logChoices(p, undefined).map((c) => c.label), ['migrate (init)', 'migrate (init): previous (restarted)', 'api']);
  });
});

describe('diagnose text: logHeader', () => {
  it('says which log, and that it is being read', () => {
    assert.equal(logHeader(logState({ loading: true })), 'Log of checkout · reading…');
    assert.equal(logHeader(logState({ loading: true, previous: true })), 'Previous log of checkout · reading…');
  });

  it('says a log that could not be read was not read (no "last 0 lines"), and a followed one waiting for its first line', () => {
    assert.equal(logHeader(logState({ problem: 'Cannot read the log of container checkout in Pod/p: your user may not get pods/log' })), 'Log of checkout · not read');
    assert.equal(logHeader(logState({ loading: true, following: true })), 'Log of checkout · following · no lines yet (waiting for the container to write one)');
  });

  it('says a whole log is whole: its lines and size', () => {
    assert.equal(logHeader(logState({ previous: true, whole: true, lines: 12, bytes: 1126 })), 'Previous log of checkout · the whole log: 12 lines, 1.1 KiB');
    assert.equal(logHeader(logState({ whole: true, lines: 1, bytes: 80 })), 'Log of checkout · the whole log: 1 line, 80 B');
  });

  it('says a followed tail is followed, how much shows, and what was let go', () => {
    const h = logHeader(logState({ following: true, lines: 1000, bytes: 250_000, dropped: { lines: 12_345, bytes: 5 * 1024 * 1024 } }));
    assert.ok(h.startsWith('Log of checkout · following · showing the last 1,000 lines (244.1 KiB)'), h);
    assert.ok(h.includes('12,345 older lines (5,120 KiB)'), h);
  });

  it('says when long lines kept the tail shorter than asked', () => {
    const h = logHeader(logState({ lines: 300, bytes: 1024 * 1024, shortened: true, tailLines: 4000 }));
    assert.ok(h.includes('fewer than 4,000'), h);
    assert.ok(!logHeader(logState({ lines: 300 })).includes('fewer than'));
  });
});

describe('diagnose text: shownLine', () => {
  /** What follows the part of a cut line that shows (kept short, for a readable failure). */
  const note = (shown: string, kept: string) => {
    assert.ok(shown.startsWith(kept), `shows the first ${kept.length} characters`);
    return shown.slice(kept.length);
  };

  it('shows a line of up to MAX_SHOWN_LINE_CHARS as it is', () => {
    assert.equal(shownLine('GET /healthz 200', 0), 'GET /healthz 200');
    const exact = 'x'.repeat(MAX_SHOWN_LINE_CHARS);
    assert.equal(shownLine(exact, 0), exact);
  });

  it('cuts a longer line and says how many bytes more it has', () => {
    const rest = note(shownLine('x'.repeat(MAX_SHOWN_LINE_CHARS + 1), 0), 'x'.repeat(MAX_SHOWN_LINE_CHARS));
    assert.ok(!rest.startsWith('x'));
    assert.match(rest, /\b1 B more on this line/);
  });

  it('counts what a 2 MiB line has beyond what shows, the bytes the splitter let go included', () => {
    const s = new LineSplitter();
    const [line] = s.push(Buffer.from(`2026-12-05T06:00:00Z ${'z'.repeat(2 * 1024 * 1024)}\n`));
    const rest = note(shownLine(line.text, line.droppedBytes), 'z'.repeat(MAX_SHOWN_LINE_CHARS));
    // 2,097,152 bytes in all, 10,000 shown: 2,087,152 more, 2,038.2 KiB.
    assert.match(rest, /^\W[^z]*\b2,038\.2 KiB more on this line/);
    assert.ok(rest.length < 100);
  });

  it('counts the bytes, not the UTF-16 units, of a long CJK line beyond what shows', () => {
    const line = parseLine(Buffer.from(`2026-12-05T06:00:00Z ${'日'.repeat(20_000)}`));
    // 20,000 characters of 3 bytes; 10,000 shown: 30,000 bytes more, 29.3 KiB.
    assert.match(note(shownLine(line.text, line.droppedBytes), '日'.repeat(MAX_SHOWN_LINE_CHARS)), /\b29\.3 KiB more on this line/);
  });

  it('does not cut an emoji in half where the line is cut', () => {
    const text = 'a'.repeat(MAX_SHOWN_LINE_CHARS - 1) + '😀' + 'b'.repeat(50);
    const rest = note(shownLine(text, 0), 'a'.repeat(MAX_SHOWN_LINE_CHARS - 1));
    assert.doesNotMatch(rest, LONE_SURROGATE);
    assert.doesNotMatch(rest, /b/);
  });
});
