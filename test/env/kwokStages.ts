// Our KWOK stage configuration: what a kubelet would do on the local cluster's simulated
// nodes, written for KWOK's Stage API (sigs.k8s.io/kwok, pkg/apis/v1alpha1/stage_types.go).
// Nodes register and turn Ready; pods pull, create and start each container in turn; chosen
// containers crash and restart with the kubelet's back-off; Job pods complete or fail;
// deleted pods stop their containers and go. Every kubelet-like event is written as a
// core/v1 Event the way the kubelet's recorder writes it (source kubelet on the node, the
// container's fieldPath, counts that rise when it repeats), through KWOK's `apply` steps.
//
// Stages match with jq expressions over the object; each Go template renders YAML.
import * as yaml from 'js-yaml';

/** Prefix of the labels and annotations that steer the simulation (a reserved TLD: never a real one). */
export const SIM = 'sim.kubernetes-events.invalid';
/** Pod label: the named container exits with code 1 a few seconds after each start. */
export const CRASH_LABEL = `${SIM}/crash`;
/** Pod annotation: seconds a container runs before it exits (crash or, for Job pods, completion). */
export const RUN_SECONDS_ANNOTATION = `${SIM}/run-seconds`;
/** Pod annotation KWOK keeps: how many back-off events it has recorded for the pod (their count). */
export const BACKOFF_EVENTS_ANNOTATION = `${SIM}/backoff-events`;
/** The annotation KWOK's convention puts on nodes it manages, and the taint that keeps other pods off them. */
export const KWOK_NODE_KEY = 'kwok.x-k8s.io/node';
export const KWOK_NODE_VALUE = 'fake';

/** The kubelet's crash-loop back-off (pkg/kubelet/kuberuntime): 10 s, doubling, at most 300 s. */
const BACKOFF_SECONDS = [10, 20, 40, 80, 160, 300];
/** How often the kubelet syncs a pod in back-off (pod_workers.go backOffPeriod): one BackOff event each time. */
const BACKOFF_RESYNC_MS = 10_000;
/** How often the kubelet reports node status when it also renews a lease (nodeStatusReportFrequency). */
const NODE_STATUS_REPORT_MS = 5 * 60_000;

interface Delay {
  durationMilliseconds?: number;
  jitterDurationMilliseconds?: number;
  durationFrom?: { jq: { expression: string } };
  jitterDurationFrom?: { jq: { expression: string } };
}
type Step = { patch: { subresource?: string; root?: string; template: string } } | { apply: { template: string } } | { delete: true };
interface Stage {
  apiVersion: 'kwok.x-k8s.io/v1alpha1';
  kind: 'Stage';
  metadata: { name: string };
  spec: { resourceRef: { apiGroup: 'v1'; kind: 'Pod' | 'Node' }; selector: { matchExpressions: { jq: Jq }[] }; delay?: Delay; steps: Step[] };
}
interface Jq {
  key: string;
  operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';
  values?: string[];
}

function stage(kind: 'Pod' | 'Node', name: string, selector: Jq[], delay: Delay | undefined, steps: Step[]): Stage {
  return { apiVersion: 'kwok.x-k8s.io/v1alpha1', kind: 'Stage', metadata: { name }, spec: { resourceRef: { apiGroup: 'v1', kind }, selector: { matchExpressions: selector.map((jq) => ({ jq })) }, ...(delay ? { delay } : {}), steps } };
}
const is = (key: string): Jq => ({ key, operator: 'In', values: ['true'] });
const absent = (key: string): Jq => ({ key, operator: 'DoesNotExist' });
const jitter = (from: number, to: number): Delay => ({ durationMilliseconds: from, jitterDurationMilliseconds: to });
const statusPatch = (template: string): Step => ({ patch: { subresource: 'status', root: 'status', template } });
const metadataPatch = (template: string): Step => ({ patch: { root: 'metadata', template } });
const apply = (template: string): Step => ({ apply: { template } });

// ---------------------------------------------------------------------------------------
// jq selectors over a pod.

const notDeleting = absent('.metadata.deletionTimestamp');
const deleting: Jq = { key: '.metadata.deletionTimestamp', operator: 'Exists' };
const statuses = '[.status.containerStatuses[]?';
const creatingCount = `${statuses} | select(.state.waiting.reason == "ContainerCreating")] | length`;
const crashLabel = `.metadata.labels["${CRASH_LABEL}"]`;
const restartable = '.spec.restartPolicy != "Never"';
/** Seconds of back-off left for the container in CrashLoopBackOff (negative once over). */
const backoffLeft = `${statuses} | select(.state.waiting.reason == "CrashLoopBackOff") | (.lastState.terminated.finishedAt | fromdateiso8601) + ${JSON.stringify(BACKOFF_SECONDS)}[[.restartCount - 1, ${BACKOFF_SECONDS.length - 1}] | min] - now][0]`;

// ---------------------------------------------------------------------------------------
// Go template pieces. KWOK renders each template with the object as `.`, sprig's functions,
// and its own (Now, Quote, NodeIPWith, PodIPWith...).

/** Names every pod template uses. */
const POD_PRELUDE = `
{{- $now := Now }}
{{- $pod := . }}
{{- $podName := .metadata.name }}
{{- $ns := .metadata.namespace }}
{{- $uid := .metadata.uid }}
{{- $node := .spec.nodeName }}`;

/** Sets $spec and $status to the target container's spec and status, given $target (its name). */
const TARGET_LOOKUP = `
{{- $spec := dict }}{{ range .spec.containers }}{{ if eq .name $target }}{{ $spec = . }}{{ end }}{{ end }}
{{- $status := dict }}{{ range .status.containerStatuses }}{{ if eq .name $target }}{{ $status = . }}{{ end }}{{ end }}
{{- $restarts := int (default 0 $status.restartCount) }}`;

/** $target: the first container still waiting in ContainerCreating; $pullStart: when its image pull began. */
const FIRST_CREATING = `
{{- $target := "" }}{{ $pullStart := .status.startTime }}{{ $previous := "" }}
{{- range .status.containerStatuses }}
{{- if and (not $target) .state.waiting }}{{ if eq .state.waiting.reason "ContainerCreating" }}{{ $target = .name }}{{ if $previous }}{{ $pullStart = $previous }}{{ end }}{{ end }}{{ end }}
{{- if .state.running }}{{ $previous = .state.running.startedAt }}{{ end }}
{{- end }}${TARGET_LOOKUP}`;

/** $next: the container after $target that is still waiting in ContainerCreating (pulled next). */
const NEXT_CREATING = `
{{- $next := "" }}
{{- range .status.containerStatuses }}{{ if and (not $next) (ne .name $target) .state.waiting }}{{ if eq .state.waiting.reason "ContainerCreating" }}{{ $next = .name }}{{ end }}{{ end }}{{ end }}`;

/** $target: the first container in the given state key (running, terminated) or waiting reason. */
const firstIn = (test: string) => `
{{- $target := "" }}
{{- range .status.containerStatuses }}{{ if and (not $target) ${test} }}{{ $target = .name }}{{ end }}{{ end }}${TARGET_LOOKUP}`;
const FIRST_RUNNING = firstIn('.state.running');
const FIRST_TERMINATED = firstIn('.state.terminated');
const FIRST_BACKING_OFF = `
{{- $target := "" }}
{{- range .status.containerStatuses }}{{ if and (not $target) .state.waiting }}{{ if eq .state.waiting.reason "CrashLoopBackOff" }}{{ $target = .name }}{{ end }}{{ end }}{{ end }}${TARGET_LOOKUP}`;
/** $target: the container the crash label names, when it is running. */
const CRASHING = `
{{- $target := index .metadata.labels "${CRASH_LABEL}" }}${TARGET_LOOKUP}`;

/** $image: the image as the runtime reports it (docker.io/library/nginx:1.27); $imageID, $containerID. */
const IMAGE_NAMES = `
{{- $image := $spec.image }}
{{- $first := first (splitList "/" $image) }}
{{- if eq (len (splitList "/" $image)) 1 }}{{ $image = printf "docker.io/library/%s" $image }}
{{- else if not (or (contains "." $first) (contains ":" $first) (eq $first "localhost")) }}{{ $image = printf "docker.io/%s" $image }}{{ end }}
{{- if not (contains ":" (last (splitList "/" $image))) }}{{ $image = printf "%s:latest" $image }}{{ end }}
{{- $imageID := printf "%s@sha256:%s" (regexReplaceAll ":[^:/]*$" $image "") (sha256sum $image) }}
{{- $containerID := printf "containerd://%s" (sha256sum (printf "%s/%s/%d" $uid $target $restarts)) }}`;

/** Who records an event: the kubelet on $node, in the core/v1 and the events.k8s.io fields. */
const KUBELET_SOURCE = `source:
  component: kubelet
  host: {{ $node | Quote }}
reportingComponent: kubelet
reportingInstance: {{ $node | Quote }}`;

/**
 * A core/v1 Event about the target container, as the kubelet's recorder writes it. Its name
 * is stable for one pod, container and key, so a repeat updates the same Event (server-side
 * apply) with a higher count, as client-go's correlator does; firstTimestamp is only sent
 * with the first occurrence so a repeat keeps it.
 */
function containerEvent(type: 'Normal' | 'Warning', reason: string, key: string, message: string, count: string, target = '$target'): string {
  return `
{{- $count := int (${count}) }}
apiVersion: v1
kind: Event
metadata:
  name: {{ printf "%s.%s" $podName (trunc 16 (sha256sum (printf "%s/%s/${key}" $uid ${target}))) | Quote }}
  namespace: {{ $ns | Quote }}
involvedObject:
  apiVersion: v1
  kind: Pod
  name: {{ $podName | Quote }}
  namespace: {{ $ns | Quote }}
  uid: {{ $uid | Quote }}
  resourceVersion: {{ .metadata.resourceVersion | Quote }}
  fieldPath: {{ printf "spec.containers{%s}" ${target} | Quote }}
type: ${type}
reason: ${reason}
message: {{ ${message} | Quote }}
${KUBELET_SOURCE}
count: {{ $count }}
{{- if eq $count 1 }}
firstTimestamp: {{ $now | Quote }}
{{- end }}
lastTimestamp: {{ $now | Quote }}`;
}

/** The containerStatuses list with the target's entry replaced by ENTRY (YAML at two spaces). */
function replaceTarget(entry: string): string {
  return `
containerStatuses:
{{- range .status.containerStatuses }}
{{- if eq .name $target }}
${entry}
{{- else }}
- {{ toJson . }}
{{- end }}
{{- end }}`;
}

/** Ready and ContainersReady, true when every container but the target is ready and the target is (READY). */
function readyConditions(targetReady: 'true' | 'false'): string {
  return `
{{- $unready := list }}
{{- range .status.containerStatuses }}{{ if eq .name $target }}{{ if not ${targetReady} }}{{ $unready = append $unready .name }}{{ end }}{{ else if not .ready }}{{ $unready = append $unready .name }}{{ end }}{{ end }}
conditions:
{{- range list "Ready" "ContainersReady" }}
- type: {{ . }}
  lastProbeTime: null
  lastTransitionTime: {{ $now | Quote }}
{{- if $unready }}
  status: "False"
  reason: ContainersNotReady
  message: {{ printf "containers with unready status: [%s]" (join " " $unready) | Quote }}
{{- else }}
  status: "True"
{{- end }}
{{- end }}`;
}

const RUNNING_ENTRY = `- name: {{ $target | Quote }}
  image: {{ $image | Quote }}
  imageID: {{ $imageID | Quote }}
  containerID: {{ $containerID | Quote }}
  ready: true
  started: true
  restartCount: {{ $restarts }}
  state:
    running:
      startedAt: {{ $now | Quote }}
{{- with $status.lastState }}
  lastState: {{ toJson . }}
{{- end }}`;

/** The start of the target's entry once its container no longer runs: not ready, not started. */
const STOPPED_ENTRY = `- name: {{ $target | Quote }}
  image: {{ $status.image | Quote }}
  imageID: {{ $status.imageID | Quote }}
  containerID: {{ $status.containerID | Quote }}
  ready: false
  started: false
  restartCount: {{ $restarts }}`;

/** The target's entry once its running container exited with EXIT_CODE (REASON); its last state stays. */
const terminatedEntry = (exitCode: 0 | 2, reason: 'Completed' | 'Error') => `${STOPPED_ENTRY}
  state:
    terminated:
      exitCode: ${exitCode}
      reason: ${reason}
      startedAt: {{ $status.state.running.startedAt | Quote }}
      finishedAt: {{ $now | Quote }}
      containerID: {{ $status.containerID | Quote }}
{{- with $status.lastState }}
  lastState: {{ toJson . }}
{{- end }}`;

// ---------------------------------------------------------------------------------------
// Pod stages, in the order a pod meets them.

/** The sandbox is up: an IP, every container waiting in ContainerCreating, the first image pulling. (Init containers are not simulated: such a pod stays Pending.) */
const podSandbox = stage('Pod', 'kev-pod-sandbox', [notDeleting, absent('.status.podIP'), absent('.spec.initContainers')], jitter(300, 1200), [
  statusPatch(`${POD_PRELUDE}
{{- $names := list }}{{ range .spec.containers }}{{ $names = append $names .name }}{{ end }}
{{- $ip := PodIPWith $node (or .spec.hostNetwork false) $uid $podName $ns }}
phase: Pending
hostIP: {{ NodeIPWith $node | Quote }}
hostIPs:
- ip: {{ NodeIPWith $node | Quote }}
podIP: {{ $ip | Quote }}
podIPs:
- ip: {{ $ip | Quote }}
startTime: {{ $now | Quote }}
conditions:
{{- range list "PodReadyToStartContainers" "Initialized" }}
- type: {{ . }}
  status: "True"
  lastProbeTime: null
  lastTransitionTime: {{ $now | Quote }}
{{- end }}
{{- range list "Ready" "ContainersReady" }}
- type: {{ . }}
  status: "False"
  reason: ContainersNotReady
  message: {{ printf "containers with unready status: [%s]" (join " " $names) | Quote }}
  lastProbeTime: null
  lastTransitionTime: {{ $now | Quote }}
{{- end }}
containerStatuses:
{{- range .spec.containers }}
- name: {{ .name | Quote }}
  image: {{ .image | Quote }}
  imageID: ""
  ready: false
  started: false
  restartCount: 0
  state:
    waiting:
      reason: ContainerCreating
{{- end }}`),
  apply(`${POD_PRELUDE}
{{- $target := (index .spec.containers 0).name }}
${containerEvent('Normal', 'Pulling', 'Pulling', 'printf "Pulling image %q" (index .spec.containers 0).image', '1')}`),
]);

/** The image pulled: the target container is created and started (PULLED_MESSAGE), as the kubelet reports each. */
const PULLED_MESSAGE = `
{{- $total := ((now).Sub (toDate "2006-01-02T15:04:05Z07:00" $pullStart)).Truncate 1000000 }}
{{- $pulling := ((now).Sub ((toDate "2006-01-02T15:04:05Z07:00" $pullStart).Add 41000000)).Truncate 1000000 }}
{{- $size := add 18000000 (mod (atoi (adler32sum $spec.image)) 160000000) }}`;
const pulled = containerEvent('Normal', 'Pulled', 'Pulled', 'printf "Successfully pulled image %q in %v (%v including waiting). Image size: %d bytes." $spec.image $pulling $total $size', '1');
const created = (count: string) => containerEvent('Normal', 'Created', 'Created', 'printf "Created container: %s" $target', count);
const started = (count: string) => containerEvent('Normal', 'Started', 'Started', 'printf "Started container %s" $target', count);
const startFirstCreating = (last: boolean): Step[] => [
  apply(`${POD_PRELUDE}${FIRST_CREATING}${PULLED_MESSAGE}${pulled}`),
  apply(`${POD_PRELUDE}${FIRST_CREATING}${created('1')}`),
  apply(`${POD_PRELUDE}${FIRST_CREATING}${started('1')}`),
  statusPatch(`${POD_PRELUDE}${FIRST_CREATING}${IMAGE_NAMES}
${last ? 'phase: Running' : ''}
${readyConditions('true')}
${replaceTarget(RUNNING_ENTRY)}`),
  // The kubelet starts a pod's containers one after another: the next image starts pulling.
  ...(last ? [] : [apply(`${POD_PRELUDE}${FIRST_CREATING}${NEXT_CREATING}
{{- $nextImage := "" }}{{ range .spec.containers }}{{ if eq .name $next }}{{ $nextImage = .image }}{{ end }}{{ end }}
${containerEvent('Normal', 'Pulling', 'Pulling', 'printf "Pulling image %q" $nextImage', '1', '$next')}`)]),
];
const podStartContainer = stage('Pod', 'kev-pod-start-container', [notDeleting, { key: creatingCount, operator: 'In', values: ['1'] }], jitter(800, 2600), startFirstCreating(true));
const podStartContainerThenNext = stage('Pod', 'kev-pod-start-container-then-next', [notDeleting, is(`${creatingCount} > 1`)], jitter(800, 2600), startFirstCreating(false));

/** Run time before a container exits: the pod's run-seconds annotation, else 3 to 5 s. */
const runTime = (fromMs: number, toMs: number): Delay => ({
  durationMilliseconds: fromMs,
  jitterDurationMilliseconds: toMs,
  durationFrom: { jq: { expression: `.metadata.annotations["${RUN_SECONDS_ANNOTATION}"] // empty | "\\(.)s"` } },
  jitterDurationFrom: { jq: { expression: `.metadata.annotations["${RUN_SECONDS_ANNOTATION}"] // empty | "\\(tonumber * 1.3)s"` } },
});

/** A chaos container exits with code 2 (as a Go program does on a panic). A pod that restarts stays Running; one that does not (Job pods) fails. */
const podCrash = stage('Pod', 'kev-pod-container-crash', [
  notDeleting,
  is(`.status.phase == "Running" and (${crashLabel} as $c | ${statuses} | select(.name == $c and .state.running != null)] | length > 0)`),
], runTime(3000, 5000), [
  statusPatch(`${POD_PRELUDE}${CRASHING}
{{- if eq .spec.restartPolicy "Never" }}
phase: Failed
{{- end }}
${readyConditions('false')}
${replaceTarget(terminatedEntry(2, 'Error'))}`),
]);

/** A Job pod's containers finish their work: exit code 0, the pod Succeeded. */
const podComplete = stage('Pod', 'kev-pod-complete', [
  notDeleting,
  absent(crashLabel),
  is('.status.phase == "Running" and ([.metadata.ownerReferences[]? | select(.kind == "Job")] | length > 0)'),
], runTime(2000, 4000), [
  statusPatch(`${POD_PRELUDE}
phase: Succeeded
conditions:
{{- range list "Ready" "ContainersReady" }}
- type: {{ . }}
  status: "False"
  reason: PodCompleted
  lastProbeTime: null
  lastTransitionTime: {{ $now | Quote }}
{{- end }}
containerStatuses:
{{- range .status.containerStatuses }}
- name: {{ .name | Quote }}
  image: {{ .image | Quote }}
  imageID: {{ .imageID | Quote }}
  containerID: {{ .containerID | Quote }}
  ready: false
  started: false
  restartCount: {{ .restartCount }}
  state:
    terminated:
      exitCode: 0
      reason: Completed
      startedAt: {{ .state.running.startedAt | Quote }}
      finishedAt: {{ $now | Quote }}
      containerID: {{ .containerID | Quote }}
{{- end }}`),
]);

/** The target restarts: its image is already on the node, a new container is created and started. */
const restartSteps = (targetLookup: string): Step[] => [
  apply(`${POD_PRELUDE}${targetLookup}${containerEvent('Normal', 'Pulled', 'PulledPresent', 'printf "Container image %q already present on machine" $spec.image', '$restarts | add1')}`),
  apply(`${POD_PRELUDE}${targetLookup}${created('$restarts | add 2')}`),
  apply(`${POD_PRELUDE}${targetLookup}${started('$restarts | add 2')}`),
  statusPatch(`${POD_PRELUDE}${targetLookup}
{{- $restarts = add1 $restarts }}${IMAGE_NAMES}
{{- $previous := $status.lastState }}{{ if $status.state.terminated }}{{ $previous = dict "terminated" $status.state.terminated }}{{ end }}
${readyConditions('true')}
${replaceTarget(RUNNING_ENTRY.replace('{{- with $status.lastState }}', '{{- with $previous }}'))}`),
];
const crashedContainer = (restarts: string) =>
  is(`.status.phase == "Running" and ${restartable} and (${statuses} | select(.state.terminated != null and .state.terminated.exitCode != 0 and .restartCount ${restarts})] | length > 0)`);

/** The first crash: the kubelet has no back-off for the container yet and restarts it at once. */
const podRestartAfterFirstCrash = stage('Pod', 'kev-pod-restart-after-first-crash', [notDeleting, crashedContainer('== 0')], jitter(300, 900), restartSteps(FIRST_TERMINATED));

/** One more BackOff event for the pod: its count is kept in an annotation on the pod. */
const backoffEvent = (targetLookup: string): Step[] => [
  apply(`${POD_PRELUDE}${targetLookup}
{{- $n := add1 (int (default "0" (index (default dict .metadata.annotations) "${BACKOFF_EVENTS_ANNOTATION}"))) }}
${containerEvent('Warning', 'BackOff', 'BackOff', 'printf "Back-off restarting failed container %s in pod %s_%s(%s)" $target $podName $ns $uid', '$n')}`),
  metadataPatch(`
{{- $n := add1 (int (default "0" (index (default dict .metadata.annotations) "${BACKOFF_EVENTS_ANNOTATION}"))) }}
annotations:
  ${BACKOFF_EVENTS_ANNOTATION}: {{ $n | toString | Quote }}`),
];

/** A later crash: the container waits out its back-off in CrashLoopBackOff. */
const podBackOff = stage('Pod', 'kev-pod-crash-loop-back-off', [notDeleting, crashedContainer('>= 1')], jitter(200, 700), [
  statusPatch(`${POD_PRELUDE}${FIRST_TERMINATED}
{{- $window := index (list ${BACKOFF_SECONDS.join(' ')}) (min (sub $restarts 1) ${BACKOFF_SECONDS.length - 1}) }}
${readyConditions('false')}
${replaceTarget(`${STOPPED_ENTRY}
  state:
    waiting:
      reason: CrashLoopBackOff
      message: {{ printf "back-off %ds restarting failed container=%s pod=%s_%s(%s)" $window $target $podName $ns $uid | Quote }}
  lastState:
    terminated: {{ toJson $status.state.terminated }}`)}`),
  ...backoffEvent(FIRST_TERMINATED),
]);

/** While the back-off lasts, the kubelet syncs the pod every 10 s and records BackOff again. */
const podBackOffResync = stage('Pod', 'kev-pod-crash-loop-back-off-resync', [notDeleting, is(`(${backoffLeft}) as $left | $left != null and $left > ${BACKOFF_RESYNC_MS / 1000 + 2}`)], jitter(BACKOFF_RESYNC_MS, BACKOFF_RESYNC_MS + 2000), backoffEvent(FIRST_BACKING_OFF));

/** The back-off is over: restart the container. */
const podRestartAfterBackOff = stage('Pod', 'kev-pod-restart-after-back-off', [notDeleting, is(`(${backoffLeft}) as $left | $left != null and $left <= ${BACKOFF_RESYNC_MS / 1000 + 2}`)], {
  durationMilliseconds: 0,
  durationFrom: { jq: { expression: `${backoffLeft} | if . > 0 then "\\(.)s" else "0s" end` } },
}, restartSteps(FIRST_BACKING_OFF));

/** A deleted pod: the kubelet stops its containers one by one... */
const podStopContainer = stage('Pod', 'kev-pod-stop-container', [deleting, is(`${statuses} | select(.state.running != null)] | length > 0`)], jitter(200, 1000), [
  apply(`${POD_PRELUDE}${FIRST_RUNNING}${containerEvent('Normal', 'Killing', 'Killing', 'printf "Stopping container %s" $target', '1')}`),
  statusPatch(`${POD_PRELUDE}${FIRST_RUNNING}
${readyConditions('false')}
${replaceTarget(terminatedEntry(0, 'Completed'))}`),
]);

/** ...and, with none left running, removes the pod for good (grace period 0, after which it is not matched again). */
const podRemove = stage('Pod', 'kev-pod-remove', [deleting, is(`.metadata.deletionGracePeriodSeconds != 0 and (${statuses} | select(.state.running != null)] | length == 0)`)], jitter(100, 600), [{ delete: true }]);

// ---------------------------------------------------------------------------------------
// Node stages.

const NODE_PRELUDE = `
{{- $now := Now }}
{{- $node := .metadata.name }}`;

/** An event about the node, as the kubelet records it: the node's name doubles as its uid, in namespace default. */
function nodeEvent(reason: string, message: string): string {
  return `
apiVersion: v1
kind: Event
metadata:
  name: {{ printf "%s.%s" $node (trunc 16 (sha256sum (printf "%s/%s/${reason}" $node .metadata.uid))) | Quote }}
  namespace: default
involvedObject:
  kind: Node
  name: {{ $node | Quote }}
  uid: {{ $node | Quote }}
type: Normal
reason: ${reason}
message: {{ ${message} | Quote }}
${KUBELET_SOURCE}
count: 1
firstTimestamp: {{ $now | Quote }}
lastTimestamp: {{ $now | Quote }}`;
}

const PRESSURE_CONDITIONS: readonly [string, string, string][] = [
  ['MemoryPressure', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'],
  ['DiskPressure', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'],
  ['PIDPressure', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'],
];
function nodeConditions(ready: boolean): string {
  const conditions = [
    ...PRESSURE_CONDITIONS.map(([type, reason, message]) => ({ type, status: 'False', reason, message })),
    ready
      ? { type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status' }
      : { type: 'Ready', status: 'False', reason: 'KubeletNotReady', message: 'container runtime status check may not have completed yet' },
  ];
  return `
conditions:${conditions.map((c) => `
- type: ${c.type}
  status: "${c.status}"
  reason: ${c.reason}
  message: ${JSON.stringify(c.message)}
  lastHeartbeatTime: {{ $now | Quote }}
  lastTransitionTime: {{ $now | Quote }}`).join('')}`;
}

/** The machine every simulated node reports: a small general-purpose VM. */
export interface NodeMachine {
  readonly kubeletVersion: string;
  readonly cpu: string;
  readonly memoryKi: number;
  readonly pods: number;
}

/**
 * The kubelet registers the node: capacity, addresses, node info, and Ready False for a moment.
 * Its InternalIP and kubelet port are KWOK's server (--node-ip, --node-port), which the
 * apiserver calls for the node's pods' logs.
 */
const nodeRegister = (machine: NodeMachine) => stage('Node', 'kev-node-register', [
  absent('.metadata.deletionTimestamp'),
  { key: '[.status.conditions[]? | select(.type == "Ready")] | length', operator: 'In', values: ['0'] },
], jitter(200, 700), [
  apply(`${NODE_PRELUDE}${nodeEvent('Starting', '"Starting kubelet."')}`),
  ...PRESSURE_CONDITIONS.map(([, reason]) => apply(`${NODE_PRELUDE}${nodeEvent(reason.replace(/^Kubelet/, 'Node'), `printf "Node %s status is now: ${reason.replace(/^Kubelet/, 'Node')}" $node`)}`)),
  apply(`${NODE_PRELUDE}${nodeEvent('NodeAllocatableEnforced', '"Updated Node Allocatable limit across pods"')}`),
  statusPatch(`${NODE_PRELUDE}
{{- $id := sha256sum $node }}
${nodeConditions(false)}
addresses:
- type: InternalIP
  address: {{ NodeIP | Quote }}
- type: Hostname
  address: {{ $node | Quote }}
capacity:
  cpu: "${machine.cpu}"
  memory: ${machine.memoryKi}Ki
  pods: "${machine.pods}"
  ephemeral-storage: 101430960Ki
  hugepages-2Mi: "0"
allocatable:
  cpu: "${machine.cpu}"
  memory: ${machine.memoryKi - 102400}Ki
  pods: "${machine.pods}"
  ephemeral-storage: "93478772582"
  hugepages-2Mi: "0"
daemonEndpoints:
  kubeletEndpoint:
    Port: {{ NodePort }}
nodeInfo:
  architecture: amd64
  operatingSystem: linux
  osImage: Debian GNU/Linux 12 (bookworm)
  kernelVersion: 6.1.0-28-cloud-amd64
  containerRuntimeVersion: containerd://1.7.24
  kubeletVersion: ${machine.kubeletVersion}
  kubeProxyVersion: ""
  machineID: {{ trunc 32 $id | Quote }}
  systemUUID: {{ printf "%s-%s-%s-%s-%s" (substr 32 40 $id) (substr 40 44 $id) (substr 44 48 $id) (substr 48 52 $id) (substr 52 64 $id) | Quote }}
  bootID: {{ printf "%s-%s-%s-%s-%s" (substr 0 8 $id) (substr 8 12 $id) (substr 12 16 $id) (substr 16 20 $id) (substr 20 32 $id) | Quote }}`),
]);

/** A moment later the runtime answers: Ready. */
const nodeReady = stage('Node', 'kev-node-ready', [
  absent('.metadata.deletionTimestamp'),
  { key: '.status.conditions[]? | select(.type == "Ready") | .reason', operator: 'In', values: ['KubeletNotReady'] },
], jitter(1500, 3000), [
  apply(`${NODE_PRELUDE}${nodeEvent('NodeReady', 'printf "Node %s status is now: NodeReady" $node')}`),
  statusPatch(`${NODE_PRELUDE}
conditions:
- type: Ready
  status: "True"
  reason: KubeletReady
  message: kubelet is posting ready status
  lastHeartbeatTime: {{ $now | Quote }}
  lastTransitionTime: {{ $now | Quote }}`),
]);

/** Every five minutes the kubelet reports status anyway (KWOK renews the node's lease every 10 s). */
const nodeHeartbeat = stage('Node', 'kev-node-status-report', [
  absent('.metadata.deletionTimestamp'),
  { key: '.status.conditions[]? | select(.type == "Ready") | .reason', operator: 'In', values: ['KubeletReady'] },
], jitter(NODE_STATUS_REPORT_MS, NODE_STATUS_REPORT_MS + 10_000), [
  statusPatch(`${NODE_PRELUDE}
conditions:
{{- range .status.conditions }}
- type: {{ .type }}
  lastHeartbeatTime: {{ $now | Quote }}
{{- end }}`),
]);

/** Every stage, as the multi-document YAML KWOK reads with --config. */
export function kwokStagesYaml(machine: NodeMachine): string {
  const stages = [
    nodeRegister(machine), nodeReady, nodeHeartbeat,
    podSandbox, podStartContainer, podStartContainerThenNext, podCrash, podComplete,
    podRestartAfterFirstCrash, podBackOff, podBackOffResync, podRestartAfterBackOff,
    podStopContainer, podRemove,
  ];
  return stages.map((s) => yaml.dump(s, { lineWidth: -1, noRefs: true })).join('---\n');
}
