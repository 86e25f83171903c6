// A pod's status as `kubectl describe pod` reads it: phase and reason, conditions, and for
// each container its state now (waiting with its reason, running since, terminated with its
// reason and exit code), its last terminated state and its restart count. Which log to show
// first follows from it: the previous one when the container has restarted (the crash is
// there), else the current one.

/** The parts of a core/v1 Pod this reads. */
export interface RawPod {
  metadata?: { name?: string; namespace?: string; uid?: string; deletionTimestamp?: string };
  spec?: { nodeName?: string; containers?: { name?: string }[]; initContainers?: { name?: string; restartPolicy?: string }[] };
  status?: {
    phase?: string;
    reason?: string;
    message?: string;
    conditions?: RawCondition[];
    containerStatuses?: RawContainerStatus[];
    initContainerStatuses?: RawContainerStatus[];
  };
}

export interface RawCondition {
  type?: string;
  status?: string;
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
}

interface RawState {
  waiting?: { reason?: string; message?: string };
  running?: { startedAt?: string };
  terminated?: { reason?: string; message?: string; exitCode?: number; signal?: number; startedAt?: string; finishedAt?: string };
}

interface RawContainerStatus {
  name?: string;
  ready?: boolean;
  restartCount?: number;
  started?: boolean;
  state?: RawState;
  lastState?: RawState;
}

export interface Condition {
  readonly type: string;
  readonly status: string;
  readonly reason: string;
  readonly message: string;
  readonly lastTransition: number | undefined;
}

export interface Terminated {
  readonly reason: string;
  readonly message: string;
  readonly exitCode: number | undefined;
  readonly signal: number | undefined;
  readonly startedAt: number | undefined;
  readonly finishedAt: number | undefined;
}

export type ContainerState =
  | { readonly kind: 'waiting'; readonly reason: string; readonly message: string }
  | { readonly kind: 'running'; readonly startedAt: number | undefined }
  | ({ readonly kind: 'terminated' } & Terminated)
  | { readonly kind: 'unknown' };

export interface ContainerReport {
  readonly name: string;
  readonly init: boolean;
  readonly ready: boolean;
  readonly restartCount: number;
  readonly state: ContainerState;
  readonly lastTerminated: Terminated | undefined;
}

export interface PodReport {
  readonly name: string;
  readonly namespace: string;
  readonly uid: string;
  readonly node: string;
  readonly phase: string;
  /** The STATUS column of `kubectl get pod` (kubectlPodStatus). */
  readonly status: string;
  /** The pod's own reason (Evicted, NodeLost...), else the worst container reason. */
  readonly reason: string;
  readonly message: string;
  readonly deleting: boolean;
  readonly conditions: readonly Condition[];
  readonly containers: readonly ContainerReport[];
}

const time = (s: string | undefined): number | undefined => {
  if (!s) return undefined;
  const t = Date.parse(s);
  return Number.isNaN(t) ? undefined : t;
};

function terminated(t: NonNullable<RawState['terminated']>): Terminated {
  return {
    reason: t.reason ?? '',
    message: t.message ?? '',
    exitCode: typeof t.exitCode === 'number' ? t.exitCode : undefined,
    signal: typeof t.signal === 'number' && t.signal !== 0 ? t.signal : undefined,
    startedAt: time(t.startedAt),
    finishedAt: time(t.finishedAt),
  };
}

function stateOf(s: RawState | undefined): ContainerState {
  if (s?.waiting) return { kind: 'waiting', reason: s.waiting.reason ?? '', message: s.waiting.message ?? '' };
  if (s?.running) return { kind: 'running', startedAt: time(s.running.startedAt) };
  if (s?.terminated) return { kind: 'terminated', ...terminated(s.terminated) };
  return { kind: 'unknown' };
}

export function conditionsOf(raw: readonly RawCondition[] | undefined): Condition[] {
  return (raw ?? []).map((c) => ({ type: c.type ?? '', status: c.status ?? 'Unknown', reason: c.reason ?? '', message: c.message ?? '', lastTransition: time(c.lastTransitionTime) }));
}

function containers(names: readonly { name?: string }[] | undefined, statuses: readonly RawContainerStatus[] | undefined, init: boolean): ContainerReport[] {
  const byName = new Map((statuses ?? []).map((s) => [s.name ?? '', s]));
  // Every container of the spec, in its order: one with no status yet is waiting to be created.
  return (names ?? []).map(({ name = '' }) => {
    const s = byName.get(name);
    return {
      name,
      init,
      ready: s?.ready === true,
      restartCount: s?.restartCount ?? 0,
      state: s ? stateOf(s.state) : { kind: 'unknown' },
      lastTerminated: s?.lastState?.terminated ? terminated(s.lastState.terminated) : undefined,
    };
  });
}

export function podReport(pod: RawPod): PodReport {
  const all = [...containers(pod.spec?.initContainers, pod.status?.initContainerStatuses, true), ...containers(pod.spec?.containers, pod.status?.containerStatuses, false)];
  const phase = pod.status?.phase ?? 'Unknown';
  return {
    name: pod.metadata?.name ?? '',
    namespace: pod.metadata?.namespace ?? '',
    uid: pod.metadata?.uid ?? '',
    node: pod.spec?.nodeName ?? '',
    phase,
    status: kubectlPodStatus(pod),
    reason: pod.status?.reason || containerReason(all) || '',
    message: pod.status?.message ?? '',
    deleting: Boolean(pod.metadata?.deletionTimestamp),
    conditions: conditionsOf(pod.status?.conditions),
    containers: all,
  };
}

/**
 * The STATUS column of `kubectl get pod`, worked out as kubectl's printPod does
 * (k8s.io/kubernetes pkg/printers/internalversion/printers.go): the pod's reason, else its
 * phase (SchedulingGated while gated); an init container not done gives `Init:<reason>`, `Init:ExitCode:N` or `Init:i/n`;
 * then the containers, the first one's word last: a waiting or terminated reason,
 * `ExitCode:N` or `Signal:N`; `Completed` with a container still running reads Running (or
 * NotReady); a pod being deleted reads Terminating (Unknown when its node is unreachable).
 */
export function kubectlPodStatus(pod: RawPod): string {
  const st = pod.status ?? {};
  let reason = st.reason || st.phase || '';
  if ((st.conditions ?? []).some((c) => c.type === 'PodScheduled' && c.reason === 'SchedulingGated')) reason = 'SchedulingGated';
  let initializing = false;
  const inits = st.initContainerStatuses ?? [];
  const initSpecs = pod.spec?.initContainers ?? [];
  for (let i = 0; i < inits.length; i++) {
    const c = inits[i];
    const t = c.state?.terminated;
    const sidecar = initSpecs.find((x) => x.name === c.name)?.restartPolicy === 'Always';
    if (t && t.exitCode === 0) continue;
    if (sidecar && c.started) continue;
    initializing = true;
    if (t) reason = t.reason ? `Init:${t.reason}` : t.signal ? `Init:Signal:${t.signal}` : `Init:ExitCode:${t.exitCode ?? 0}`;
    else if (c.state?.waiting?.reason && c.state.waiting.reason !== 'PodInitializing') reason = `Init:${c.state.waiting.reason}`;
    else reason = `Init:${i}/${initSpecs.length}`;
    break;
  }
  const initialized = (st.conditions ?? []).some((c) => c.type === 'Initialized' && c.status === 'True');
  if (!initializing || initialized) {
    let hasRunning = false;
    const cs = st.containerStatuses ?? [];
    for (let i = cs.length - 1; i >= 0; i--) {
      const s = cs[i].state;
      if (s?.waiting?.reason) reason = s.waiting.reason;
      else if (s?.terminated?.reason) reason = s.terminated.reason;
      else if (s?.terminated) reason = s.terminated.signal ? `Signal:${s.terminated.signal}` : `ExitCode:${s.terminated.exitCode ?? 0}`;
      else if (cs[i].ready && s?.running) hasRunning = true;
    }
    if (reason === 'Completed' && hasRunning) reason = (st.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True') ? 'Running' : 'NotReady';
  }
  if (pod.metadata?.deletionTimestamp && st.reason === 'NodeLost') reason = 'Unknown';
  else if (pod.metadata?.deletionTimestamp && st.phase !== 'Succeeded' && st.phase !== 'Failed') reason = 'Terminating';
  return reason;
}

/** The reason kubectl's STATUS column would show from the containers: the first waiting or failed one. */
function containerReason(all: readonly ContainerReport[]): string | undefined {
  for (const c of all) {
    if (c.state.kind === 'waiting' && c.state.reason) return c.state.reason;
    if (c.state.kind === 'terminated' && c.state.reason && c.state.exitCode !== 0) return c.state.reason;
  }
  return undefined;
}

/** Reasons a container waits in that mean it is failing, not just starting. */
const FAILING_WAIT = new Set(['CrashLoopBackOff', 'ImagePullBackOff', 'ErrImagePull', 'CreateContainerConfigError', 'CreateContainerError', 'InvalidImageName', 'RunContainerError', 'ErrImageNeverPull']);

/**
 * How bad a pod looks, higher worse, to list a workload's pods worst first: failing
 * containers, then a failed or pending pod, then containers not ready, then restarts.
 */
export function badness(p: PodReport): number {
  let score = 0;
  for (const c of p.containers) {
    if (c.state.kind === 'waiting' && FAILING_WAIT.has(c.state.reason)) score = Math.max(score, 4000);
    if (c.state.kind === 'terminated' && c.state.exitCode !== 0 && !c.init) score = Math.max(score, 3500);
  }
  if (p.phase === 'Failed') score = Math.max(score, 3000);
  if (p.phase === 'Pending' || p.phase === 'Unknown') score = Math.max(score, 2000);
  if (p.phase === 'Running' && p.containers.some((c) => !c.init && !c.ready)) score = Math.max(score, 1000);
  const restarts = p.containers.reduce((n, c) => n + c.restartCount, 0);
  return score + Math.min(restarts, 999);
}

/** Pods worst first; equally bad ones by name. */
export function worstFirst(pods: readonly PodReport[]): PodReport[] {
  return [...pods].sort((a, b) => badness(b) - badness(a) || a.name.localeCompare(b.name));
}

/** The log to show first: the previous instance's when the container has terminated before (the crash is there). */
export function defaultLogChoice(c: ContainerReport): 'previous' | 'current' {
  return c.restartCount > 0 && c.lastTerminated ? 'previous' : 'current';
}

/** Whether a container has a current log to read: it has run, or is running. */
export function hasStarted(c: ContainerReport): boolean {
  return c.state.kind === 'running' || c.state.kind === 'terminated' || c.restartCount > 0 || c.lastTerminated !== undefined;
}

/**
 * Why no log can be read from any container yet, or undefined when one can: a pod not
 * scheduled, or containers still being created.
 */
export function noLogsYet(p: PodReport): string | undefined {
  if (p.containers.some(hasStarted)) return undefined;
  const scheduled = p.conditions.find((c) => c.type === 'PodScheduled');
  if (!p.node) {
    const why = scheduled?.reason ? `${scheduled.reason}${scheduled.message ? `: ${scheduled.message}` : ''}` : 'it has no node yet';
    return `No container of Pod/${p.name} has started: the pod is not scheduled (${why}).`;
  }
  const waiting = p.containers.map((c) => (c.state.kind === 'waiting' && c.state.reason ? `${c.name}: ${c.state.reason}` : `${c.name}: not created yet`));
  return `No container of Pod/${p.name} has started yet (${waiting.join('; ') || 'no containers'}).`;
}

/** One line for a container's state, as `kubectl describe` words it. */
export function stateText(s: ContainerState): string {
  switch (s.kind) {
    case 'waiting':
      return `Waiting${s.reason ? `: ${s.reason}` : ''}`;
    case 'running':
      return 'Running';
    case 'terminated':
      return `Terminated${s.reason ? `: ${s.reason}` : ''}${s.exitCode !== undefined ? `, exit code ${s.exitCode}` : ''}${s.signal !== undefined ? `, signal ${s.signal}` : ''}`;
    case 'unknown':
      return 'Not created yet';
  }
}

export function terminatedText(t: Terminated): string {
  return `${t.reason || 'Terminated'}${t.exitCode !== undefined ? `, exit code ${t.exitCode}` : ''}${t.signal !== undefined ? `, signal ${t.signal}` : ''}`;
}
