// Record Event: kind, object, type, reason, message (five steps with Back), or Record Event
// on This Object from a row (three steps). Afterwards it says where the event went: this
// window only, or the cluster too.
import * as vscode from 'vscode';
import { listObjects, listResourceKinds, type ObjectSummary, type ResourceKind } from '../cluster/discovery';
import { Commands } from '../common/commandIds';
import { oneLine } from '../model/displayText';
import type { Services } from '../services/services';
import { MultiStepInput, type Step } from '../views/multiStepInput';
import { EventNode } from '../views/tree/nodes/eventNode';
import { GroupNode } from '../views/tree/nodes/groupNode';
import { enableSink } from './sink';
import { registerPlainCommand, registerRowCommand } from './registry';

/**
 * The apiserver's limits for an event's reason and message (ReasonLengthLimit and
 * NoteLengthLimit in k8s.io/kubernetes pkg/apis/core/validation/events.go). They count bytes
 * of UTF-8, as Go's len does, and bind every event that has an eventTime; we hold the
 * events we record to them too, so they fit either event API.
 */
export const MAX_REASON_BYTES = 128;
export const MAX_MESSAGE_BYTES = 1024;
/** Our convention for reasons, as Kubernetes' own components write them (BackOff, FailedMount). */
const REASON_FORMAT = /^[A-Za-z][A-Za-z0-9_.-]*$/;

export interface RecordRequest {
  readonly object: ObjectSummary;
  readonly type: 'Normal' | 'Warning';
  readonly reason: string;
  readonly message: string;
}

export interface RecordResult {
  readonly ok: boolean;
  readonly text: string;
  /** Also written to the cluster (the sink is on). */
  readonly toCluster: boolean;
}

const bytes = (s: string) => Buffer.byteLength(s, 'utf8');

/** Why a reason cannot be used, or undefined. */
export function reasonProblem(reason: string): string | undefined {
  if (!reason.trim()) return 'The reason is empty: give a short UpperCamelCase word such as Deployed.';
  if (bytes(reason) > MAX_REASON_BYTES) return `The reason has ${bytes(reason)} bytes; the apiserver accepts at most ${MAX_REASON_BYTES}.`;
  if (!REASON_FORMAT.test(reason)) return 'A reason is one word: letters, digits, dots, dashes or underscores, starting with a letter (for example BackupFailed).';
  return undefined;
}

export function messageProblem(message: string): string | undefined {
  if (bytes(message) > MAX_MESSAGE_BYTES) return `The message has ${bytes(message)} bytes of UTF-8; the apiserver accepts at most ${MAX_MESSAGE_BYTES} in an event.`;
  return undefined;
}

function where(o: ObjectSummary): string {
  return `${o.kind}/${o.metadata.name}${o.metadata.namespace ? ` in ${o.metadata.namespace}` : ''}`;
}

/** Records the event; returns a sentence for the user. Throws nothing. */
export async function record(s: Services, r: RecordRequest): Promise<RecordResult> {
  const toCluster = s.sink.enabled;
  const problem = reasonProblem(r.reason) ?? messageProblem(r.message) ?? (r.type !== 'Normal' && r.type !== 'Warning' ? `The type must be Normal or Warning, not ${String(r.type)}.` : undefined);
  if (problem) return { ok: false, text: problem, toCluster: false };
  const queued = await s.recording.recorder.event(r.object, r.type, r.reason, r.message);
  if (!queued) return { ok: false, text: `The event on ${where(r.object)} was not recorded; see the Kubernetes Events log.`, toCluster: false };
  return {
    ok: true,
    toCluster,
    text: toCluster
      ? `Recorded ${r.type} ${r.reason} on ${where(r.object)}, and sent it to the cluster of context ${s.sink.context}.`
      : `Recorded ${r.type} ${r.reason} on ${where(r.object)} in this window only: the sink is off, so the cluster does not have it.`,
  };
}

/** Tells the user where the event went; with the sink off, offers to turn it on. */
async function tell(s: Services, result: RecordResult): Promise<void> {
  if (!result.ok) {
    void vscode.window.showErrorMessage(result.text);
    return;
  }
  if (result.toCluster || !vscode.workspace.isTrusted) {
    void vscode.window.showInformationMessage(result.text);
    return;
  }
  const pick = await vscode.window.showInformationMessage(result.text, 'Enable Sink…');
  if (pick) await enableSink(s);
}

interface Answers {
  kind?: ResourceKind;
  object?: ObjectSummary;
  type?: 'Normal' | 'Warning';
  reason?: string;
  message?: string;
}

/** The questions after the object: type, reason, message; `first` is the type's step number. */
function eventSteps(a: Answers, first: number, total: number): Step {
  const title = 'Record Event';
  const message: Step = async (input) => {
    const o = a.object as ObjectSummary;
    a.message = await input.input({
      title,
      step: first + 2,
      totalSteps: total,
      value: a.message ?? '',
      prompt: `What happened to ${oneLine(`${o.kind}/${o.metadata.name}`)}. Enter records it.`,
      placeholder: `A sentence, up to ${MAX_MESSAGE_BYTES} bytes of UTF-8 (the apiserver's limit)`,
      validate: (m) => messageProblem(m) ?? (m ? { message: `${bytes(m)} of ${MAX_MESSAGE_BYTES} bytes`, severity: vscode.InputBoxValidationSeverity.Info } : undefined),
      remember: (m) => (a.message = m),
    });
  };
  const reason: Step = async (input) => {
    a.reason = await input.input({
      title,
      step: first + 1,
      totalSteps: total,
      value: a.reason ?? '',
      prompt: `One UpperCamelCase word, up to ${MAX_REASON_BYTES} bytes: why it happened.`,
      placeholder: 'For example Deployed, ConfigChanged, MaintenanceStarted, BackupFailed',
      validate: (r) => (r ? reasonProblem(r) : undefined),
      remember: (r) => (a.reason = r),
    });
    return message;
  };
  return async (input) => {
    const picked = await input.pick({
      title,
      step: first,
      totalSteps: total,
      placeholder: 'Type of event',
      activeLabel: a.type,
      items: [
        { label: 'Normal', description: 'something happened as expected', type: 'Normal' as const },
        { label: 'Warning', description: 'something may need attention', type: 'Warning' as const },
      ],
    });
    a.type = picked.type;
    return reason;
  };
}

/** The whole series: kind, object, then the event. */
function allSteps(s: Services, a: Answers): Step {
  const title = 'Record Event';
  const object: Step = async (input) => {
    const kind = a.kind as ResourceKind;
    const picked = await input.pick({
      title,
      step: 2,
      totalSteps: 5,
      placeholder: `Which ${kind.kind}`,
      matchOnDescription: true,
      activeLabel: a.object?.metadata.name,
      items: async () => {
        const client = s.connection.newClient();
        try {
          const objects = await listObjects(client, kind);
          if (objects.length === 0) return [{ label: `There is no ${kind.kind} in this cluster`, description: 'go Back and pick another kind', object: undefined }];
          return objects.map((o) => ({ label: oneLine(o.metadata.name), description: o.metadata.namespace, object: o as ObjectSummary | undefined }));
        } finally {
          client.dispose();
        }
      },
    });
    if (!picked.object) return object;
    a.object = picked.object;
    return eventSteps(a, 3, 5);
  };
  return async (input) => {
    const picked = await input.pick({
      title,
      step: 1,
      totalSteps: 5,
      placeholder: 'Kind of object: Pod, Deployment, ...',
      matchOnDescription: true,
      activeLabel: a.kind?.kind,
      items: async () => {
        const client = s.connection.newClient();
        try {
          return (await listResourceKinds(client)).map((k) => ({ label: k.kind, description: k.apiVersion, resource: k }));
        } finally {
          client.dispose();
        }
      },
    });
    a.kind = picked.resource;
    return object;
  };
}

async function ask(s: Services, start: Step, a: Answers): Promise<RecordResult | undefined> {
  let finished: boolean;
  try {
    finished = await s.tree.holding(() => MultiStepInput.run(start));
  } catch (e) {
    void vscode.window.showErrorMessage(`Cannot record an event: ${(e as Error).message}`);
    return undefined;
  }
  if (!finished || !a.object || !a.type || a.reason === undefined || a.message === undefined) {
    vscode.window.setStatusBarMessage('Record Event cancelled: nothing was recorded.', 3000);
    return undefined;
  }
  const result = await record(s, { object: a.object, type: a.type, reason: a.reason, message: a.message });
  void tell(s, result);
  return result;
}

/** The object a row is about, as a reference can be made from it. */
export function objectOfNode(node: GroupNode | EventNode): ObjectSummary {
  const o = (node instanceof EventNode ? node.parent : node).object;
  return { apiVersion: o.apiVersion || 'v1', kind: o.kind, metadata: { name: o.name, namespace: o.namespace || undefined, uid: o.uid || undefined } };
}

/** Record Event on an object given by another extension's row (the Kubernetes extension). */
export function recordOnObject(s: Services, object: ObjectSummary): Promise<RecordResult | undefined> {
  const a: Answers = { object };
  return ask(s, eventSteps(a, 1, 3), a);
}

export function registerRecordCommands(s: Services): vscode.Disposable[] {
  const isRow = (x: unknown): x is GroupNode | EventNode => x instanceof GroupNode || x instanceof EventNode;
  return [
    registerPlainCommand(Commands.recordEvent, () => {
      if (!s.connection.connection.kubeconfig) return void vscode.window.showErrorMessage(`Not connected to a cluster${s.connection.status.message ? `: ${s.connection.status.message}` : ''}.`);
      const a: Answers = {};
      return ask(s, allSteps(s, a), a);
    }),
    registerRowCommand(Commands.recordEventOnObject, isRow, () => s.selection.selection, (node) => recordOnObject(s, objectOfNode(node)), 'Pick an object in the Events view first.'),
  ];
}
