// Record Event: a multi-step pick (kind, object, type, reason, message), or Record Event on
// This Object from a tree item. Arguments skip the questions (tests, other extensions).
import * as vscode from 'vscode';
import type { Controller } from '../controller';
import { listObjects, listResourceKinds, type ObjectSummary } from '../cluster/discovery';
import { GroupNode, EventNode } from '../views/eventsTree';

/** The longest reason and message the apiserver accepts for events (events.k8s.io validation). */
export const MAX_REASON_LENGTH = 128;
export const MAX_MESSAGE_LENGTH = 1024;
const REASON_FORMAT = /^[A-Za-z][A-Za-z0-9_.-]*$/;
const SUGGESTED_REASONS = ['Deployed', 'ConfigChanged', 'MaintenanceStarted', 'MaintenanceFinished', 'Investigating', 'Resolved', 'ManualRestart', 'Note'];

export interface RecordRequest {
  readonly object: ObjectSummary;
  readonly type: 'Normal' | 'Warning';
  readonly reason: string;
  readonly message: string;
}

/** Why a reason cannot be used, or undefined. */
export function reasonProblem(reason: string): string | undefined {
  if (!reason.trim()) return 'The reason is empty: give a short UpperCamelCase word such as Deployed.';
  if (reason.length > MAX_REASON_LENGTH) return `The reason has ${reason.length} characters; the apiserver accepts at most ${MAX_REASON_LENGTH}.`;
  if (!REASON_FORMAT.test(reason)) return 'A reason is one word: letters, digits, dots, dashes or underscores, starting with a letter (for example BackupFailed).';
  return undefined;
}

export function messageProblem(message: string): string | undefined {
  if (message.length > MAX_MESSAGE_LENGTH) return `The message has ${message.length} characters; the apiserver accepts at most ${MAX_MESSAGE_LENGTH} in an event.`;
  return undefined;
}

/** Records the event; returns a sentence for the user. Throws nothing. */
export async function record(c: Controller, r: RecordRequest): Promise<{ ok: boolean; text: string }> {
  const problem = reasonProblem(r.reason) ?? messageProblem(r.message) ?? (r.type !== 'Normal' && r.type !== 'Warning' ? `The type must be Normal or Warning, not ${String(r.type)}.` : undefined);
  if (problem) return { ok: false, text: problem };
  const queued = await c.recorder.event(r.object, r.type, r.reason, r.message);
  const where = `${r.object.kind}/${r.object.metadata.name}${r.object.metadata.namespace ? ` in ${r.object.metadata.namespace}` : ''}`;
  if (!queued) return { ok: false, text: `The event on ${where} was not recorded; see the Kubernetes Events log.` };
  return { ok: true, text: `Recorded ${r.type} ${r.reason} on ${where}${c.sinkEnabled ? ' and sent it to the cluster' : ' (in this window; enable the sink to write it to the cluster)'}.` };
}

async function pickObject(c: Controller): Promise<ObjectSummary | undefined> {
  const client = c.connection.newClient();
  try {
    const kinds = await listResourceKinds(client);
    const picked = await vscode.window.showQuickPick(
      kinds.map((k) => ({ label: k.kind, description: k.apiVersion, resource: k })),
      { title: 'Record Event (1/5): kind of object', placeHolder: 'Pod, Deployment, ...', matchOnDescription: true },
    );
    if (!picked) return undefined;
    const kind = picked.resource;
    const objects = await listObjects(client, kind);
    if (objects.length === 0) {
      void vscode.window.showInformationMessage(`There is no ${kind.kind} in the cluster to record an event on.`);
      return undefined;
    }
    const object = await vscode.window.showQuickPick(
      objects.map((o) => ({ label: o.metadata.name, description: o.metadata.namespace, object: o })),
      { title: `Record Event (2/5): which ${kind.kind}`, matchOnDescription: true },
    );
    return object?.object;
  } finally {
    client.dispose();
  }
}

async function pickReason(): Promise<string | undefined> {
  const qp = vscode.window.createQuickPick();
  qp.title = 'Record Event (4/5): reason';
  qp.placeholder = 'One UpperCamelCase word; type your own or pick one';
  const suggestions = SUGGESTED_REASONS.map((label) => ({ label }));
  qp.items = suggestions;
  qp.onDidChangeValue((v) => {
    const problem = v ? reasonProblem(v) : undefined;
    qp.items = v && !SUGGESTED_REASONS.includes(v) ? [{ label: v, description: problem ?? 'your reason' }, ...suggestions] : suggestions;
  });
  return new Promise((resolve) => {
    qp.onDidAccept(() => {
      const value = qp.selectedItems[0]?.label ?? qp.value;
      const problem = reasonProblem(value);
      if (problem) {
        // QuickPick has no validation message in the VS Code versions we support: say it in the title.
        qp.title = `Record Event (4/5): reason. ${problem}`;
        return;
      }
      resolve(value);
      qp.hide();
    });
    qp.onDidHide(() => {
      resolve(undefined);
      qp.dispose();
    });
    qp.show();
  });
}

/** The questions after the object: type, reason, message. Undefined when the user cancels. */
async function askEvent(object: ObjectSummary, firstStep: number): Promise<RecordRequest | undefined> {
  const type = (await vscode.window.showQuickPick(['Normal', 'Warning'], { title: `Record Event (${firstStep}/5): type` })) as 'Normal' | 'Warning' | undefined;
  if (!type) return undefined;
  const reason = await pickReason();
  if (reason === undefined) return undefined;
  const message = await vscode.window.showInputBox({ title: 'Record Event (5/5): message', prompt: `What happened to ${object.kind}/${object.metadata.name}`, validateInput: (m) => messageProblem(m) });
  if (message === undefined) return undefined;
  return { object, type, reason, message };
}

async function run(c: Controller, request: RecordRequest | undefined): Promise<{ ok: boolean; text: string } | undefined> {
  if (!request) {
    vscode.window.setStatusBarMessage('Record Event cancelled: nothing was recorded.', 3000);
    return undefined;
  }
  const result = await record(c, request);
  if (result.ok) void vscode.window.showInformationMessage(result.text);
  else void vscode.window.showErrorMessage(result.text);
  return result;
}

function objectOfNode(node: GroupNode | EventNode): ObjectSummary {
  const o = (node instanceof EventNode ? node.group : node).object;
  return { apiVersion: o.apiVersion || 'v1', kind: o.kind, metadata: { name: o.name, namespace: o.namespace || undefined, uid: o.uid || undefined } };
}

export function registerRecordCommands(c: Controller): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('kubernetesEvents.recordEvent', async (request?: RecordRequest) => {
      if (request) return run(c, request);
      try {
        const object = await pickObject(c);
        return await run(c, object && (await askEvent(object, 3)));
      } catch (e) {
        void vscode.window.showErrorMessage(`Cannot list objects to record an event on: ${(e as Error).message}`);
        return undefined;
      }
    }),
    vscode.commands.registerCommand('kubernetesEvents.recordEventOnObject', async (node?: GroupNode | EventNode, request?: Omit<RecordRequest, 'object'>, target?: ObjectSummary) => {
      if (!target && !(node instanceof GroupNode || node instanceof EventNode)) return void vscode.window.showWarningMessage('Pick an object in the Events view first.');
      const object = target ?? objectOfNode(node as GroupNode | EventNode);
      return run(c, request ? { ...request, object } : await askEvent(object, 3));
    }),
  ];
}
