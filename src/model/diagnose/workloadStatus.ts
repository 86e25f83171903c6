// A workload's status as `kubectl get` and `kubectl describe` read it: its replicas (wanted,
// ready, up to date, available: each kind names them differently), its conditions, and the
// label selector that finds its pods.
import { conditionsOf, type Condition, type RawCondition } from './podStatus';

/** The kinds whose pods Diagnose lists, with where each keeps its counts. */
export const WORKLOAD_KINDS = ['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet', 'ReplicationController', 'Job'] as const;

export interface RawWorkload {
  kind?: string;
  metadata?: { name?: string; namespace?: string; uid?: string; generation?: number };
  spec?: {
    replicas?: number;
    completions?: number;
    parallelism?: number;
    selector?: RawSelector | Record<string, string>;
  };
  status?: Record<string, unknown> & { conditions?: RawCondition[] };
}

interface RawSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key?: string; operator?: string; values?: string[] }[];
}

/** One count of a workload, named as kubectl names it. */
export interface Count {
  readonly label: string;
  readonly value: number;
}

export interface WorkloadReport {
  readonly kind: string;
  /** "2/3 ready": what `kubectl get` shows first. */
  readonly summary: string;
  readonly counts: readonly Count[];
  readonly conditions: readonly Condition[];
  /** The pods' label selector in the API's query syntax, or undefined when it has none. */
  readonly selector: string | undefined;
  /** Whether fewer are ready (or succeeded) than wanted. */
  readonly short: boolean;
}

const n = (x: unknown): number => (typeof x === 'number' && Number.isFinite(x) ? x : 0);

export function isWorkloadKind(kind: string): boolean {
  return (WORKLOAD_KINDS as readonly string[]).includes(kind);
}

/** A LabelSelector (or a ReplicationController's plain map) in the query syntax: `a=b,c in (d,e),!f`. */
export function selectorQuery(selector: unknown): string | undefined {
  if (!selector || typeof selector !== 'object') return undefined;
  const s = selector as RawSelector & Record<string, unknown>;
  const isLabelSelector = 'matchLabels' in s || 'matchExpressions' in s;
  const labels = isLabelSelector ? (s.matchLabels ?? {}) : (s as Record<string, string>);
  const parts = Object.entries(labels).map(([k, v]) => `${k}=${v}`);
  for (const e of (isLabelSelector ? s.matchExpressions : undefined) ?? []) {
    if (!e.key) continue;
    const values = (e.values ?? []).join(',');
    if (e.operator === 'In') parts.push(`${e.key} in (${values})`);
    else if (e.operator === 'NotIn') parts.push(`${e.key} notin (${values})`);
    else if (e.operator === 'Exists') parts.push(e.key);
    else if (e.operator === 'DoesNotExist') parts.push(`!${e.key}`);
  }
  return parts.length ? parts.join(',') : undefined;
}

export function workloadReport(w: RawWorkload): WorkloadReport {
  const kind = w.kind ?? '';
  const st = w.status ?? {};
  const conditions = conditionsOf(w.status?.conditions);
  const selector = selectorQuery(w.spec?.selector);
  if (kind === 'DaemonSet') {
    const desired = n(st.desiredNumberScheduled);
    const ready = n(st.numberReady);
    return {
      kind, conditions, selector, short: ready < desired,
      summary: `${ready}/${desired} ready`,
      counts: [{ label: 'desired', value: desired }, { label: 'current', value: n(st.currentNumberScheduled) }, { label: 'ready', value: ready }, { label: 'up-to-date', value: n(st.updatedNumberScheduled) }, { label: 'available', value: n(st.numberAvailable) }],
    };
  }
  if (kind === 'Job') {
    const completions = w.spec?.completions ?? 1;
    const succeeded = n(st.succeeded);
    const failed = n(st.failed);
    const done = conditions.some((c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True');
    return {
      kind, conditions, selector, short: succeeded < completions && (failed > 0 || done),
      summary: `${succeeded}/${completions} succeeded`,
      counts: [{ label: 'active', value: n(st.active) }, { label: 'succeeded', value: succeeded }, { label: 'failed', value: failed }],
    };
  }
  const wanted = w.spec?.replicas ?? 1;
  const ready = n(st.readyReplicas);
  const counts: Count[] = [{ label: 'desired', value: wanted }, { label: 'current', value: n(st.replicas) }, { label: 'ready', value: ready }];
  if (kind === 'Deployment' || kind === 'StatefulSet') counts.push({ label: 'up-to-date', value: n(st.updatedReplicas) });
  if (kind !== 'ReplicationController') counts.push({ label: 'available', value: n(st.availableReplicas) });
  return { kind, conditions, selector, short: ready < wanted, summary: `${ready}/${wanted} ready`, counts };
}
