// Realistic events for the benchmarks: what kubelet, the scheduler and the controllers write
// in a busy cluster, with the strings that make events cost what they cost (image names,
// pod IPs, durations, byte counts, UIDs), distinct from event to event, on many objects in
// several namespaces. Seeded, so every run measures the same data.
import type { Event, ObjectReference } from '../../src/record/types';
import { prng } from '../support/prng';
import { produce, type KeepAliveClient } from './keepAlive';

const APPS = ['checkout', 'payments', 'search-api', 'catalog', 'auth', 'frontend', 'orders', 'inventory', 'recommendations', 'notifications', 'ledger', 'gateway'];
const TEAMS = ['shop', 'platform', 'data', 'identity', 'growth', 'billing'];

/** A core/v1 Event ready to POST, and the time it is about (nanoseconds). */
export interface RealisticEvent {
  readonly event: Event;
  readonly atNanos: bigint;
}

/** What one pod goes through, in kubelet's and the scheduler's own words. */
interface Step {
  readonly component: string;
  readonly reason: string;
  readonly type: 'Normal' | 'Warning';
  readonly fieldPath?: string;
  readonly message: string;
}

/** A generator of a realistic cluster's events: pods with their lifecycles, and their owners. */
export class RealisticCluster {
  private readonly r: () => number;
  private readonly namespaces: string[];

  constructor(
    seed: number,
    namespaceCount: number,
    /** Distinguishes names across runs against one apiserver (events cannot be created twice). */
    private readonly runTag = '',
  ) {
    this.r = prng(seed);
    this.namespaces = Array.from({ length: namespaceCount }, (_, i) => `${TEAMS[i % TEAMS.length]}-${Math.floor(i / TEAMS.length) + 1}`);
  }

  get namespaceNames(): readonly string[] {
    return this.namespaces;
  }

  private int(n: number): number {
    return Math.floor(this.r() * n);
  }

  private pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)];
  }

  private hex(n: number): string {
    let s = '';
    for (let i = 0; i < n; i++) s += '0123456789abcdef'[this.int(16)];
    return s;
  }

  private suffix(n: number): string {
    let s = '';
    for (let i = 0; i < n; i++) s += 'bcdfghjklmnpqrstvwxz2456789'[this.int(27)];
    return s;
  }

  uid(): string {
    return `${this.hex(8)}-${this.hex(4)}-4${this.hex(3)}-a${this.hex(3)}-${this.hex(12)}`;
  }

  /** The lifecycle of one pod: scheduled, pulled, started, and for some a crash loop or failing probes. */
  private podSteps(ns: string, pod: string, uid: string, app: string): Step[] {
    const node = `ip-10-${this.int(256)}-${this.int(256)}-${this.int(256)}.eu-west-1.compute.internal`;
    const image = `registry.example.com/${ns}/${app}:v${this.int(4)}.${this.int(30)}.${this.int(100)}-${this.hex(7)}`;
    const container = this.pick([app, 'app', 'main', `${app}-server`]);
    const ip = `10.${this.int(256)}.${this.int(256)}.${this.int(256)}`;
    const fieldPath = `spec.containers{${container}}`;
    const secs = (1 + this.r() * 40).toFixed(3);
    const steps: Step[] = [
      { component: 'default-scheduler', reason: 'Scheduled', type: 'Normal', message: `Successfully assigned ${ns}/${pod} to ${node}` },
      { component: 'kubelet', reason: 'Pulling', type: 'Normal', fieldPath, message: `Pulling image "${image}"` },
      {
        component: 'kubelet',
        reason: 'Pulled',
        type: 'Normal',
        fieldPath,
        message: `Successfully pulled image "${image}" in ${secs}s (${secs}s including waiting). Image size: ${20_000_000 + this.int(900_000_000)} bytes.`,
      },
      { component: 'kubelet', reason: 'Created', type: 'Normal', fieldPath, message: `Created container: ${container}` },
      { component: 'kubelet', reason: 'Started', type: 'Normal', fieldPath, message: `Started container ${container}` },
    ];
    const fate = this.r();
    if (fate < 0.15) {
      for (let i = 0; i < 1 + this.int(4); i++) {
        steps.push({ component: 'kubelet', reason: 'BackOff', type: 'Warning', fieldPath, message: `Back-off restarting failed container ${container} in pod ${pod}_${ns}(${uid})` });
      }
    } else if (fate < 0.3) {
      const port = 8000 + this.int(1000);
      for (let i = 0; i < 1 + this.int(4); i++) {
        steps.push({
          component: 'kubelet',
          reason: 'Unhealthy',
          type: 'Warning',
          fieldPath,
          message: `Readiness probe failed: Get "http://${ip}:${port}/healthz": dial tcp ${ip}:${port}: connect: connection refused`,
        });
      }
    } else if (fate < 0.4) {
      steps.push({ component: 'kubelet', reason: 'Killing', type: 'Normal', fieldPath, message: `Stopping container ${container}` });
    }
    return steps;
  }

  private event(ns: string, ref: ObjectReference, step: Step, at: bigint, host: string): RealisticEvent {
    const time = new Date(Number(at / 1_000_000n)).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const involvedObject: ObjectReference = step.fieldPath ? { ...ref, fieldPath: step.fieldPath } : ref;
    return {
      atNanos: at,
      event: {
        metadata: { name: `${ref.name}.${this.runTag}${at.toString(16)}`, namespace: ns },
        involvedObject,
        reason: step.reason,
        message: step.message,
        source: step.component === 'kubelet' ? { component: 'kubelet', host } : { component: step.component },
        firstTimestamp: time,
        lastTimestamp: time,
        count: 1,
        type: step.type,
        reportingComponent: step.component,
        reportingInstance: step.component === 'kubelet' ? host : '',
      },
    };
  }

  /**
   * `count` events, in time order from `start`: deployments rolling out replica sets whose
   * pods go through their lifecycle, interleaved as they would be in a busy cluster.
   */
  events(count: number, start = BigInt(Date.UTC(2025, 0, 1)) * 1_000_000n): RealisticEvent[] {
    const out: RealisticEvent[] = [];
    let at = start;
    /** Pods in flight, each with the steps it has left. */
    const live: { ns: string; ref: ObjectReference; steps: Step[]; host: string }[] = [];
    while (out.length < count) {
      if (live.length < 64 || this.r() < 0.05) {
        // A rollout: the deployment scales a new replica set, which creates pods.
        const ns = this.pick(this.namespaces);
        const app = this.pick(APPS);
        const rs = `${app}-${this.hex(9)}`;
        const deployment: ObjectReference = { kind: 'Deployment', namespace: ns, name: app, uid: this.uid(), apiVersion: 'apps/v1' };
        const replicaSet: ObjectReference = { kind: 'ReplicaSet', namespace: ns, name: rs, uid: this.uid(), apiVersion: 'apps/v1' };
        const replicas = 1 + this.int(6);
        at += BigInt(1 + this.int(50_000_000));
        out.push(this.event(ns, deployment, { component: 'deployment-controller', reason: 'ScalingReplicaSet', type: 'Normal', message: `Scaled up replica set ${rs} from 0 to ${replicas}` }, at, ''));
        for (let i = 0; i < replicas && out.length < count; i++) {
          const pod = `${rs}-${this.suffix(5)}`;
          const uid = this.uid();
          at += BigInt(1 + this.int(5_000_000));
          out.push(this.event(ns, replicaSet, { component: 'replicaset-controller', reason: 'SuccessfulCreate', type: 'Normal', message: `Created pod: ${pod}` }, at, ''));
          const host = `ip-10-0-${this.int(64)}-${this.int(256)}.eu-west-1.compute.internal`;
          live.push({ ns, ref: { kind: 'Pod', namespace: ns, name: pod, uid, apiVersion: 'v1' }, steps: this.podSteps(ns, pod, uid, app), host });
        }
        continue;
      }
      const i = this.int(live.length);
      const p = live[i];
      const step = p.steps.shift() as Step;
      at += BigInt(1 + this.int(20_000_000));
      out.push(this.event(p.ns, p.ref, step, at, p.host));
      if (p.steps.length === 0) live.splice(i, 1);
    }
    return out.slice(0, count);
  }
}

/** The JSON to POST for an event (core/v1), with apiVersion and kind as kubectl sends them. */
export function postBody(e: Event): string {
  return JSON.stringify({ apiVersion: 'v1', kind: 'Event', ...e });
}

/** Fills the apiserver with `count` of the cluster's events, `concurrency` requests at a time; prints the rate. */
export async function fillEvents(producer: KeepAliveClient, concurrency: number, cluster: RealisticCluster, count: number): Promise<void> {
  const events = cluster.events(count, BigInt(Date.now() - 3_600_000) * 1_000_000n);
  const ms = await produce(producer, count, concurrency, (i) => {
    const e = events[i].event;
    return ['POST', `/api/v1/namespaces/${e.metadata.namespace}/events`, postBody(e)];
  });
  console.log(`created ${count.toLocaleString('en-US')} events in ${(ms / 1000).toFixed(1)} s (${Math.round(count / (ms / 1000))}/s, ${concurrency} at a time over keep-alive)`);
}
