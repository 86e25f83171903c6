// Diagnose against the real apiserver and KWOK's kubelet (which serves each container's log
// from a CRI-format file, see test/env/kwokLogs.ts): the crash loop's previous log and last
// state side by side with kubectl; tailLines and limitBytes; a followed log across an
// apiserver SIGKILL and restart with no line lost or doubled; hostile bytes kept inert; a
// 100 MB log read and saved in bounded memory; a user who may not read pods/log; a frozen
// kubelet.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import { CoreV1Api, RbacAuthorizationV1Api, type KubeConfig } from '@kubernetes/client-node';
import { ApiClient } from '../../src/cluster/apiRequest';
import { LOG_ANSWER_DEADLINE_MS, LogFollower, logProblem, readLog, type LogTarget } from '../../src/cluster/podLogs';
import type { LogLine } from '../../src/model/diagnose/logLines';
import { DiagnoseSession, type DiagnoseTarget } from '../../src/services/diagnoseSession';
import { ControlPlane } from '../env/controlPlane';
import { criLine, kwokLogFile, LOGS_CONTAINER, LOGS_NAMESPACE } from '../env/kwokLogs';
import { ensureLogPods } from '../env/logPods';
import { SEEDED } from '../env/seedCluster';
import { pollUntil } from '../support/wait';
import { controlPlaneDir, kubeConfigFor, restConfigOf } from './support';

/** What reading and saving a 100 MB log may hold at once: the 4 MiB view buffer, a 1 MiB read, stream buffers. */
const LIVE_BOUND_BYTES = 16 * 2 ** 20;

/** A session with no events store behind it: these tests are about status and logs. */
function session(client: ApiClient, target: DiagnoseTarget): DiagnoseSession {
  const s = new DiagnoseSession(client, target, { events: () => ({ events: [], total: 0, warnings: 0 }), onEventsChange: () => ({ dispose: () => undefined }) });
  void s.start();
  return s;
}

function kubectl(plane: ControlPlane, ...args: string[]): string {
  return execFileSync(path.join(plane.info.binDir, 'kubectl'), ['--kubeconfig', plane.info.adminKubeconfig, ...args], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
}

/** Numbers as runs ("0-25, 0-31, 40"), for a message. */
function runs(ns: readonly number[]): string {
  const out: string[] = [];
  for (let i = 0; i < ns.length; ) {
    let j = i;
    while (j + 1 < ns.length && ns[j + 1] === ns[j] + 1) j++;
    out.push(i === j ? `${ns[i]}` : `${ns[i]}-${ns[j]}`);
    i = j + 1;
  }
  return out.join(', ');
}

function target(pod: string): LogTarget {
  return { namespace: LOGS_NAMESPACE, pod, container: LOGS_CONTAINER };
}

describe('Diagnose against the real apiserver and KWOK', function () {
  this.timeout(180_000);
  let kc: KubeConfig;
  let plane: ControlPlane;
  let client: ApiClient;
  const run = Date.now().toString(36);

  before(async () => {
    kc = kubeConfigFor('admin.kubeconfig');
    plane = ControlPlane.attach(controlPlaneDir());
    client = new ApiClient(restConfigOf('admin.kubeconfig'));
    await ensureLogPods(kc);
  });
  after(() => client.dispose());

  it("shows the crash loop's previous log (the panic) and its last state as kubectl has them", async () => {
    const { namespace, crashLoop, crashContainer } = SEEDED.payments;
    const core = kc.makeApiClient(CoreV1Api);
    const pod = await pollUntil('a checkout pod that has restarted', async () => {
      const pods = await core.listNamespacedPod({ namespace, labelSelector: `app.kubernetes.io/name=${crashLoop}` });
      return pods.items.find((p) => (p.status?.containerStatuses?.[0]?.restartCount ?? 0) > 0 && p.status?.containerStatuses?.[0]?.lastState?.terminated);
    }, 120_000, 500);
    const name = pod.metadata!.name!;
    const s = session(client, { kind: 'Pod', apiVersion: 'v1', namespace, name });
    try {
      await pollUntil('the default log: the previous instance', () => s.log && !s.log.loading && s.buffer.length > 0 && s.log);
      assert.equal(s.log!.container, crashContainer);
      assert.equal(s.log!.previous, true, 'a container that restarted shows its previous log first');
      const shown = s.buffer.slice().map((l) => l.text);
      const kubectlText = kubectl(plane, 'logs', '-n', namespace, name, '-c', crashContainer, '--previous').replace(/\n$/, '').split('\n');
      assert.deepEqual(shown, kubectlText, 'the same lines as kubectl logs --previous');
      assert.ok(shown.some((t) => t.startsWith('panic: runtime error: invalid memory address or nil pointer dereference')));
      // The last state, as kubectl describe prints it. The pod keeps crashing: the view (from its
      // watch) and kubectl (a fresh read) agree once both have seen the same restart.
      const shownContainer = () => s.status.pod!.containers.find((x) => x.name === crashContainer)!;
      const described = await pollUntil('the view at the restart kubectl describes', () => {
        const d = kubectl(plane, 'describe', 'pod', '-n', namespace, name);
        return String(shownContainer().restartCount) === /Restart Count:\s+(\d+)/.exec(d)?.[1] && d;
      }, 30_000, 500);
      const c = shownContainer();
      const exit = /Last State:\s+Terminated\s+Reason:\s+(\S+)\s+Exit Code:\s+(\d+)/.exec(described);
      assert.ok(exit, described);
      assert.equal(c.lastTerminated?.reason, exit[1]);
      assert.equal(String(c.lastTerminated?.exitCode), exit[2]);
    } finally {
      s.dispose();
    }
  });

  it('says a container without a previous instance has none', async () => {
    const read = readLog(client, target('ticker'), { previous: true }, new AbortController().signal);
    const e = await read.then(() => undefined, (x: unknown) => x);
    assert.ok(e, 'the apiserver refuses a previous log the container does not have');
    assert.match(logProblem(e, target('ticker'), { previous: true }).message, /^Container app in Pod\/ticker has no previous instance/);
  });

  it('honours tailLines and limitBytes as kubectl logs --tail and --limit-bytes do', async () => {
    const file = kwokLogFile(plane.info.dir, 'ticker');
    // Stamped in the past (as a log's lines are): a later test follows this file from now on.
    const t0 = Date.now() - 5000;
    fs.appendFileSync(file, Array.from({ length: 2000 }, (_, i) => criLine(new Date(t0 + i), 'stdout', `${run} tail ${i}`)).join(''));
    const tail = await readLog(client, target('ticker'), { tailLines: 10 }, new AbortController().signal);
    assert.deepEqual(tail.lines.map((l) => l.text), Array.from({ length: 10 }, (_, i) => `${run} tail ${1990 + i}`));
    assert.equal(tail.cut, false);
    const kubectlTail = kubectl(plane, 'logs', '-n', LOGS_NAMESPACE, 'ticker', '-c', LOGS_CONTAINER, '--tail=10').replace(/\n$/, '').split('\n');
    assert.deepEqual(tail.lines.map((l) => l.text), kubectlTail);
    const limited = await readLog(client, target('ticker'), { tailLines: 2000, limitBytes: 1000 }, new AbortController().signal);
    assert.ok(limited.bytes <= 1000 && limited.bytes > 900, `at most limitBytes came: ${limited.bytes}`);
    assert.equal(limited.cut, true);
    assert.equal(limited.lines[0].text, `${run} tail 0`);
  });

  it('follows a log across an apiserver SIGKILL and restart: every line once, in order', async function () {
    const file = kwokLogFile(plane.info.dir, 'ticker');
    const lines: LogLine[] = [];
    const problems: string[] = [];
    const stream: number[] = [];
    const follower: LogFollower = new LogFollower(client, target('ticker'), { tailLines: 0 }, {
      onLines: (l) => {
        lines.push(...l);
        for (const _ of l) stream.push(follower.opens);
      },
      onProblem: (p) => problems.push(p.message),
    });
    follower.start();
    const tag = `${run} follow`;
    let written = 0;
    const write = () => fs.appendFileSync(file, criLine(new Date(), 'stdout', `${tag} ${written++}`));
    // The kubelet answers a follow with its first line: the writer starts before anything is awaited.
    const writer = setInterval(write, 15);
    try {
      await pollUntil('lines followed', () => lines.length > 20);
      await plane.stopComponent('kube-apiserver', 'SIGKILL');
      await new Promise((r) => setTimeout(r, 3000));
      await plane.startComponent('kube-apiserver');
      await pollUntil('the follow open again', () => follower.opens > 1, 60_000);
      await new Promise((r) => setTimeout(r, 2000));
    } finally {
      clearInterval(writer);
    }
    try {
      // Not there in time, the comparison below says which lines are missing, per stream.
      await pollUntil('every line written', () => lines.filter((l) => l.text.startsWith(tag)).length >= written, 30_000).catch(() => undefined);
      const ours = lines.map((l, i) => ({ l, stream: stream[i] })).filter((x) => x.l.text.startsWith(tag));
      const seen = ours.map((x) => Number(x.l.text.slice(tag.length + 1)));
      const byStream = [...new Set(ours.map((x) => x.stream))].map((n) => `stream ${n}: ${runs(ours.filter((x) => x.stream === n).map((x) => Number(x.l.text.slice(tag.length + 1))))}`);
      assert.deepEqual(seen, Array.from({ length: written }, (_, i) => i), `no line lost, doubled or out of order: ${byStream.join('; ')} of 0-${written - 1}; problems: ${problems.join(' | ')}`);
      assert.ok(problems.length > 0, 'the break was said');
    } finally {
      await follower.stop();
      await plane.restartControllers();
    }
  });

  it('keeps hostile bytes inert: escapes, controls, bidi overrides, invalid UTF-8, a 2 MiB line', async () => {
    const file = kwokLogFile(plane.info.dir, 'hostile');
    const at = new Date();
    const long = 'x'.repeat(2 * 1024 * 1024);
    const parts = [
      criLine(at, 'stdout', `${run} \u001b[31mred\u001b[0m \u001b]8;;https://evil.example\u0007link\u001b]8;;\u0007 bell\u0007`),
      criLine(at, 'stderr', `${run} rtl \u202egnp.exe\u202c 日本語 🚀 <b>bold</b> [x](command:workbench.action.quit)`),
      criLine(at, 'stdout', `${run} cr\rback`),
    ];
    fs.appendFileSync(file, parts.join(''));
    // Invalid UTF-8 and a line longer than one read holds, as raw bytes.
    fs.appendFileSync(file, Buffer.concat([Buffer.from(`${criLine(at, 'stdout', `${run} bad `).slice(0, -1)}`), Buffer.from([0xc3, 0x28, 0xff, 0xfe, 0x00]), Buffer.from('\n')]));
    fs.appendFileSync(file, criLine(at, 'stdout', `${run} long ${long}`));
    const read = await readLog(client, target('hostile'), { tailLines: 5 }, new AbortController().signal);
    const texts = read.lines.map((l) => l.text);
    assert.equal(texts.length, 5);
    // eslint-disable-next-line no-control-regex -- the controls are what the test looks for
    for (const t of texts) assert.doesNotMatch(t, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e]/, 'no control or bidi override is left to act');
    assert.equal(texts[0], `${run} ^[[31mred^[[0m ^[]8;;https://evil.example\\x07link^[]8;;\\x07 bell\\x07`);
    assert.equal(texts[1], `${run} rtl \\u202egnp.exe\\u202c 日本語 🚀 <b>bold</b> [x](command:workbench.action.quit)`);
    assert.equal(texts[2], `${run} cr\\rback`);
    assert.equal(texts[3], `${run} bad \ufffd(\ufffd\ufffd\\x00`);
    assert.ok(texts[4].startsWith(`${run} long xxx`));
    assert.ok(read.lines[4].droppedBytes > 0 && read.lines[4].bytes === `${run} long `.length + long.length, 'the long line counted whole, kept in part');
  });

  it('reads the end of a 100 MB log and saves all of it, in bounded memory', async function () {
    const file = kwokLogFile(plane.info.dir, 'big');
    const line = (i: number) => criLine(new Date(1_764_900_000_000 + i), 'stdout', `${run} big ${String(i).padStart(8, '0')} ${'lorem ipsum dolor sit amet '.repeat(3)}`);
    const perLine = Buffer.byteLength(line(0));
    const count = Math.ceil((100 * 1024 * 1024) / perLine);
    const out = fs.openSync(file, 'w');
    for (let i = 0; i < count; i += 10_000) fs.writeSync(out, Array.from({ length: Math.min(10_000, count - i) }, (_, j) => line(i + j)).join(''));
    fs.closeSync(out);
    // The kubelet gives each line as `<time with 9 fraction digits> <text>`: the stream and tag fields go, the time is padded.
    const given = (i: number) => `${new Date(1_764_900_000_000 + i).toISOString().slice(0, 23)}000000Z ${line(i).split(' F ')[1]}`;
    const size = fs.statSync(file).size;
    // Live memory, garbage collected first: what is held, not what waits for the collector.
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    const live = () => {
      gc();
      const m = process.memoryUsage();
      return m.heapUsed + m.external;
    };
    let peak = 0;
    const base = live();
    const sample = setInterval(() => (peak = Math.max(peak, live() - base)), 100);
    const s = session(client, { kind: 'Pod', apiVersion: 'v1', namespace: LOGS_NAMESPACE, name: 'big' });
    const saved = path.join(os.tmpdir(), `kev-big-${run}.log`);
    try {
      // The container runs, so its log is followed: the tail comes in chunks, the last line last.
      const last = line(count - 1).split(' F ')[1].replace(/\n$/, '');
      const shownLast = () => s.buffer.slice(s.buffer.length - 1)[0]?.text;
      await pollUntil('the log shown to its last line', () => s.log && !s.log.loading && shownLast() === last, 60_000).catch(() => undefined);
      assert.equal(shownLast(), last, 'its last line');
      assert.ok(s.buffer.length <= 1000);
      const bytes = await s.saveLog(saved, true);
      assert.equal(bytes, fs.statSync(saved).size);
      assert.equal(bytes, Buffer.byteLength(given(0)) * count, 'every line, as the kubelet gives it');
      const fd = fs.openSync(saved, 'r');
      const head = Buffer.alloc(Buffer.byteLength(given(0)));
      fs.readSync(fd, head, 0, head.length, 0);
      const tail = Buffer.alloc(head.length);
      fs.readSync(fd, tail, 0, tail.length, bytes - tail.length);
      fs.closeSync(fd);
      assert.equal(head.toString(), given(0));
      assert.equal(tail.toString(), given(count - 1));
    } finally {
      clearInterval(sample);
      s.dispose();
      fs.rmSync(saved, { force: true });
      fs.truncateSync(file, 0);
    }
    assert.ok(peak < LIVE_BOUND_BYTES, `live memory grew by less than ${LIVE_BOUND_BYTES / 2 ** 20} MiB while reading and saving ${Math.round(size / 1e6)} MB: ${(peak / 2 ** 20).toFixed(1)} MiB`);
  });

  it('tells a user who may not get pods/log what is missing, and still shows the status', async () => {
    const rbac = kc.makeApiClient(RbacAuthorizationV1Api);
    const role = `kev-diagnose-nolog-${run}`;
    await rbac.createNamespacedRole({ namespace: LOGS_NAMESPACE, body: { metadata: { name: role }, rules: [{ apiGroups: [''], resources: ['pods', 'events'], verbs: ['get', 'list', 'watch'] }] } });
    await rbac.createNamespacedRoleBinding({ namespace: LOGS_NAMESPACE, body: { metadata: { name: role }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: role }, subjects: [{ kind: 'User', name: 'kev-limited', apiGroup: 'rbac.authorization.k8s.io' }] } });
    const limited = new ApiClient(restConfigOf('limited.kubeconfig'));
    const s = session(limited, { kind: 'Pod', apiVersion: 'v1', namespace: LOGS_NAMESPACE, name: 'ticker' });
    try {
      await pollUntil('the log refused', () => s.log?.problem, 30_000);
      assert.match(s.log!.problem!, /may not get pods\/log in namespace kev-logs \(it needs the verb "get" on the resource "pods\/log"\)/);
      assert.equal(s.status.pod?.phase, 'Running');
      assert.equal(s.status.problem, undefined);
    } finally {
      s.dispose();
      limited.dispose();
      await rbac.deleteNamespacedRoleBinding({ namespace: LOGS_NAMESPACE, name: role });
      await rbac.deleteNamespacedRole({ namespace: LOGS_NAMESPACE, name: role });
    }
  });

  it('says the kubelet did not answer when KWOK is frozen (SIGSTOP), within the deadline', async function () {
    const pid = plane.info.pids.kwok;
    if (pid === undefined) throw new Error('KWOK is not running');
    process.kill(-pid, 'SIGSTOP');
    const started = Date.now();
    try {
      const e = await readLog(client, target('ticker'), { tailLines: 5 }, new AbortController().signal).then(() => undefined, (x: unknown) => x);
      const took = Date.now() - started;
      assert.ok(e, 'no log came from a frozen kubelet');
      const p = logProblem(e, { ...target('ticker'), node: 'kwok-node-0' }, {});
      assert.match(p.message, /^The kubelet on node kwok-node-0 (did not answer within 15 s|did not give)/);
      assert.equal(p.final, false, 'worth trying again');
      assert.ok(took <= LOG_ANSWER_DEADLINE_MS + 2000, `answered in ${took} ms`);
    } finally {
      process.kill(-pid, 'SIGCONT');
    }
  });
});
