// Record Event: kind, object, type, reason, message (five steps with Back), or on a given
// object (three steps). Afterwards it says where the event went: this window only, or the
// cluster too; with the sink off it offers to turn it on.
import * as vscode from 'vscode';
import { listObjects, listResourceKinds, type ResourceKind } from '../cluster/discovery';
import { oneLine } from '../model/displayText';
import { MAX_MESSAGE_BYTES, MAX_REASON_BYTES, messageProblem, reasonProblem, utf8Bytes, type ObjectSummary, type RecordResult } from '../model/recordRequest';
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
      validate: (m) => messageProblem(m) ?? (m ? { message: `${utf8Bytes(m)} of ${MAX_MESSAGE_BYTES} bytes`, severity: vscode.InputBoxValidationSeverity.Info } : undefined),
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
function allSteps(connection: ConnectionService, a: Answers): Step {
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

  /** The five steps: any kind, any object. */
  recordEvent(): Promise<RecordResult | undefined> {
    if (!this.connection.connection.kubeconfig) {
      void vscode.window.showErrorMessage(`Not connected to a cluster${this.connection.status.message ? `: ${this.connection.status.message}` : ''}.`);
      return Promise.resolve(undefined);
    }
    const a: Answers = {};
    return this.ask(allSteps(this.connection, a), a);
  }

  /** The three steps about a given object (a row's, or the Kubernetes extension's). */
  recordOn(object: ObjectSummary): Promise<RecordResult | undefined> {
    const a: Answers = { object };
    return this.ask(eventSteps(a, 1, 3), a);
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
    const result = await this.recording.record({ object: a.object, type: a.type, reason: a.reason, message: a.message });
    void tell(this.sinkConsent, result);
    return result;
  }
}
