// Record Event: kind, object, type, reason, message (five steps with Back), or on a given
// object (three steps); then, where the cluster serves events.k8s.io/v1, the API (that one
// first: client-go's adapter prefers it too) and for it the action and an optional related
// object. Afterwards it says where the event went: this window only, or the cluster too;
// with the sink off it offers to turn it on.
import * as vscode from 'vscode';
import { findObject, listObjects, listResourceKinds, servesEventsV1, type ResourceKind } from '../cluster/discovery';
import { oneLine } from '../model/displayText';
import { actionProblem, MAX_ACTION_BYTES, MAX_MESSAGE_BYTES, MAX_REASON_BYTES, messageProblem, reasonProblem, utf8Bytes, type ObjectSummary, type RecordApi, type RecordResult } from '../model/recordRequest';
import type { ConnectionService } from '../services/connectionService';
import type { RecordingService } from '../services/recordingService';
import { MultiStepInput, type Step } from './multiStepInput';
import type { SinkConsent } from './sinkConsent';
import type { QuickInputs } from './tree/quickInputs';

/** Tells the user where the event went; with the sink off, offers to turn it on. */
async function tell(sinkConsent: SinkConsent, result: RecordResult): Promise<void> {
  if (!result.ok) {
    void vscode.window.showErrorMessage(result.text);
    return;
  }
  if (result.toCluster || !vscode.workspace.isTrusted) {
    void vscode.window.showInformationMessage(result.text);
    return;
  }
  const pick = await vscode.window.showInformationMessage(result.text, 'Enable Sink…');
  if (pick) await sinkConsent.enable();
}

interface Answers {
  kind?: ResourceKind;
  object?: ObjectSummary;
  type?: 'Normal' | 'Warning';
  reason?: string;
  message?: string;
  api?: RecordApi;
  action?: string;
  related?: ObjectSummary;
  relatedText?: string;
  /** The related object typed last that could not be found, and why. */
  relatedFailed?: { readonly text: string; readonly problem: string };
}

/** Steps the events.k8s.io/v1 questions add: the API, the action, the related object. */
const V1_STEPS = 3;

/** The API, then (for events.k8s.io/v1) the action and the related object; `first` is the API's step number. */
function apiSteps(connection: ConnectionService, a: Answers, first: number, total: number): Step {
  const title = 'Record Event';
  const related: Step = async (input) => {
    const o = a.object as ObjectSummary;
    const typed = await input.input({
      title,
      step: first + 2,
      totalSteps: total,
      value: a.relatedText ?? '',
      prompt: `Optional: a second object the event is about, as Kind/name (for example Node/worker-1)${o.metadata.namespace ? `, looked for in ${oneLine(o.metadata.namespace)}` : ''}. Enter with nothing records it without one.`,
      placeholder: 'Kind/name, or nothing',
      validate: (v) => (v.trim() && v === a.relatedFailed?.text ? a.relatedFailed.problem : undefined),
      remember: (v) => (a.relatedText = v),
    });
    a.related = undefined;
    if (!typed.trim()) return undefined;
    const client = connection.newClient();
    try {
      a.related = await findObject(client, typed, o.metadata.namespace);
      return undefined;
    } catch (e) {
      a.relatedFailed = { text: typed, problem: (e as Error).message };
      return related;
    } finally {
      client.dispose();
    }
  };
  const action: Step = async (input) => {
    a.action = await input.input({
      title,
      step: first + 1,
      totalSteps: total,
      value: a.action ?? '',
      prompt: `What was being done, in one word of up to ${MAX_ACTION_BYTES} bytes (events.k8s.io/v1 requires it).`,
      placeholder: 'For example Backup, Deploy, Scheduling, Reconcile',
      validate: (v) => (v ? actionProblem(v) : undefined),
      remember: (v) => (a.action = v),
    });
    return related;
  };
  return async (input) => {
    const picked = await input.pick({
      title,
      step: first,
      totalSteps: total,
      placeholder: 'Events API to record it through',
      activeLabel: a.api ?? 'events.k8s.io/v1',
      items: [
        { label: 'events.k8s.io/v1', description: 'action, related object, series (client-go tools/events, as kube-scheduler)', api: 'events.k8s.io/v1' as const },
        { label: 'core/v1', description: 'count and source (client-go tools/record, as the kubelet)', api: 'core/v1' as const },
      ],
    });
    a.api = picked.api;
    return picked.api === 'events.k8s.io/v1' ? action : undefined;
  };
}

/**
 * The questions after the object: type, reason, message; `first` is the type's step number.
 * Where the cluster serves events.k8s.io/v1 (`v1`), the API's questions follow.
 */
function eventSteps(connection: ConnectionService, a: Answers, first: number, coreTotal: number, v1: boolean): Step {
  const title = 'Record Event';
  const total = v1 ? coreTotal + V1_STEPS : coreTotal;
  const message: Step = async (input) => {
    const o = a.object as ObjectSummary;
    a.message = await input.input({
      title,
      step: first + 2,
      totalSteps: total,
      value: a.message ?? '',
      prompt: `What happened to ${oneLine(`${o.kind}/${o.metadata.name}`)}.${v1 ? '' : ' Enter records it.'}`,
      placeholder: `A sentence, up to ${MAX_MESSAGE_BYTES} bytes of UTF-8 (the apiserver's limit)`,
      validate: (m) => messageProblem(m) ?? (m ? { message: `${utf8Bytes(m)} of ${MAX_MESSAGE_BYTES} bytes`, severity: vscode.InputBoxValidationSeverity.Info } : undefined),
      remember: (m) => (a.message = m),
    });
    return v1 ? apiSteps(connection, a, first + 3, total) : undefined;
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
function allSteps(connection: ConnectionService, a: Answers, v1: boolean): Step {
  const total = v1 ? 5 + V1_STEPS : 5;
  const title = 'Record Event';
  const object: Step = async (input) => {
    const kind = a.kind as ResourceKind;
    const picked = await input.pick({
      title,
      step: 2,
      totalSteps: total,
      placeholder: `Which ${kind.kind}`,
      matchOnDescription: true,
      activeLabel: a.object?.metadata.name,
      items: async () => {
        const client = connection.newClient();
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
    return eventSteps(connection, a, 3, 5, v1);
  };
  return async (input) => {
    const picked = await input.pick({
      title,
      step: 1,
      totalSteps: total,
      placeholder: 'Kind of object: Pod, Deployment, ...',
      matchOnDescription: true,
      activeLabel: a.kind?.kind,
      items: async () => {
        const client = connection.newClient();
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

export class RecordEventInput {
  constructor(
    private readonly inputs: QuickInputs,
    private readonly recording: RecordingService,
    private readonly connection: ConnectionService,
    private readonly sinkConsent: SinkConsent,
  ) {}

  /** The five steps: any kind, any object (and the API's, where served). */
  async recordEvent(): Promise<RecordResult | undefined> {
    if (!this.connection.connection.kubeconfig) {
      void vscode.window.showErrorMessage(`Not connected to a cluster${this.connection.status.message ? `: ${this.connection.status.message}` : ''}.`);
      return undefined;
    }
    const a: Answers = {};
    return this.ask(allSteps(this.connection, a, await this.servesEventsV1()), a);
  }

  /** The three steps about a given object (a row's, or the Kubernetes extension's), and the API's where served. */
  async recordOn(object: ObjectSummary): Promise<RecordResult | undefined> {
    const a: Answers = { object };
    return this.ask(eventSteps(this.connection, a, 1, 3, await this.servesEventsV1()), a);
  }

  /** Asked of the cluster each time (a context switch may change it); not connected is no. */
  private async servesEventsV1(): Promise<boolean> {
    if (!this.connection.connection.kubeconfig) return false;
    const client = this.connection.newClient();
    try {
      return await servesEventsV1(client);
    } finally {
      client.dispose();
    }
  }

  private async ask(start: Step, a: Answers): Promise<RecordResult | undefined> {
    let finished: boolean;
    try {
      finished = await this.inputs.ask(() => MultiStepInput.run(start));
    } catch (e) {
      void vscode.window.showErrorMessage(`Cannot record an event: ${(e as Error).message}`);
      return undefined;
    }
    if (!finished || !a.object || !a.type || a.reason === undefined || a.message === undefined) {
      vscode.window.setStatusBarMessage('Record Event cancelled: nothing was recorded.', 3000);
      return undefined;
    }
    const v1 = a.api === 'events.k8s.io/v1' ? { api: a.api, action: a.action, ...(a.related ? { related: a.related } : {}) } : {};
    const result = await this.recording.record({ object: a.object, type: a.type, reason: a.reason, message: a.message, ...v1 });
    void tell(this.sinkConsent, result);
    return result;
  }
}
