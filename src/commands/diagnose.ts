// Diagnose: one panel per object with its status, its events and, for a pod, its containers'
// logs. Opened from an object's row in the Events view, a manifest resource's CodeLens and
// Problems entries, and the Kubernetes extension's Cluster Explorer. Asking again for an
// object already open shows its panel. While a workload is diagnosed the owners are
// watched, so its ReplicaSets' and Pods' events come with its own.
import * as vscode from 'vscode';
import { Commands } from '../common/commandIds';
import type { InvolvedObject } from '../model/clusterEvent';
import { eventsAbout, type EventsAbout } from '../model/diagnose/eventsAbout';
import { isWorkloadKind } from '../model/diagnose/workloadStatus';
import type { EventStore } from '../model/eventStore';
import type { Logger } from '../record/logger';
import type { ConnectionService } from '../services/connectionService';
import { DiagnoseSession, type DiagnoseTarget } from '../services/diagnoseSession';
import type { OwnerService } from '../services/ownerService';
import { DIAGNOSE_VIEW_TYPE, DiagnosePanel } from '../views/diagnose/diagnosePanel';
import { EventNode } from '../views/tree/nodes/eventNode';
import { GroupNode } from '../views/tree/nodes/groupNode';
import { registerRowCommand } from './registry';

/** Events of the object are counted again at most this often (a busy store changes all the time). */
const EVENTS_RECOUNT_MS = 1_000;
/** Workspace state: the open panels' objects by their key, so a window reload brings them back. */
const OPEN_PANELS_KEY = 'kubernetesEvents.diagnose.open';
/** How long a panel brought back by a reload waits for the view to connect before it closes. */
const RESTORE_CONNECT_MS = 30_000;

/** What a panel is about, as kept for a reload. */
interface SavedPanel extends DiagnoseTarget {
  readonly context: string;
}

export interface DiagnoseDeps {
  readonly extensionUri: vscode.Uri;
  readonly connection: ConnectionService;
  readonly store: EventStore;
  readonly owners: OwnerService;
  readonly logger: Logger;
  readonly selection: () => readonly unknown[];
  readonly memento: vscode.Memento;
  /** A manifest resource's object, from a CodeLens's or quick fix's arguments: the warning's object when a reason is named. */
  readonly manifestObject: (uriText: unknown, index: unknown, reason: unknown) => InvolvedObject | undefined;
}

export class Diagnoser {
  private readonly panels = new Map<string, DiagnosePanel>();

  constructor(private readonly d: DiagnoseDeps) {}

  /** Opens (or shows) the panel of an object of the connected cluster; `restored` is a panel a reload brought back. */
  open(o: DiagnoseTarget, restored?: vscode.WebviewPanel): DiagnosePanel | undefined {
    const context = this.d.connection.context ?? '';
    const key = `${context}|${o.kind}|${o.namespace}|${o.name}`;
    const open = this.panels.get(key);
    if (open) {
      restored?.dispose();
      open.reveal();
      return open;
    }
    let client;
    try {
      client = this.d.connection.newClient();
    } catch {
      restored?.dispose();
      void vscode.window.showErrorMessage(`Cannot diagnose ${o.kind}/${o.name}: the Events view is not connected to a cluster.`);
      return undefined;
    }
    const session = new DiagnoseSession(client, o, {
      events: (t) => this.events(t),
      onEventsChange: (listener) => {
        let timer: NodeJS.Timeout | undefined;
        const sub = this.d.store.onDidChange(() => (timer ??= setTimeout(() => ((timer = undefined), listener()), EVENTS_RECOUNT_MS)));
        const owners = this.d.owners.onDidChange(() => listener());
        return { dispose: () => (clearTimeout(timer), sub.dispose(), owners.dispose()) };
      },
    });
    const workload = isWorkloadKind(o.kind);
    const panel = new DiagnosePanel(session, {
      extensionUri: this.d.extensionUri,
      context: this.d.connection.context,
      restoreKey: key,
      diagnosePod: (namespace, name) => void this.open({ kind: 'Pod', apiVersion: 'v1', namespace, name }),
      problem: (text) => this.d.logger.error(undefined, text),
    }, restored);
    this.panels.set(key, panel);
    void this.save(key, { context, kind: o.kind, name: o.name, namespace: o.namespace, apiVersion: o.apiVersion, ...(o.uid ? { uid: o.uid } : {}) });
    if (workload) void this.d.owners.setWanted(true, `diagnose:${key}`);
    panel.onDidClose(() => {
      this.panels.delete(key);
      if (!this.closingWindow) void this.save(key, undefined);
      client.dispose();
      if (workload) void this.d.owners.setWanted(false, `diagnose:${key}`);
    });
    return panel;
  }

  private events(t: DiagnoseTarget): EventsAbout {
    return eventsAbout(this.d.store.view(), (o) => this.d.owners.index.chain(o), t);
  }

  /** Set while the window closes: its panels are kept for the reload, not forgotten. */
  private closingWindow = false;

  private save(key: string, saved: SavedPanel | undefined): Thenable<void> {
    const all = { ...this.d.memento.get<Record<string, SavedPanel>>(OPEN_PANELS_KEY, {}) };
    if (saved) all[key] = saved;
    else delete all[key];
    return this.d.memento.update(OPEN_PANELS_KEY, all);
  }

  /**
   * A panel a window reload brought back: its page kept the key it was given, and the object
   * comes from what this window saved under it (never from the page). It opens once the view
   * has connected to that panel's context; otherwise it closes.
   */
  async restore(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
    const key = typeof state === 'object' && state !== null ? (state as { restoreKey?: unknown }).restoreKey : undefined;
    const saved = typeof key === 'string' ? this.d.memento.get<Record<string, SavedPanel>>(OPEN_PANELS_KEY, {})[key] : undefined;
    if (!saved) {
      panel.dispose();
      return;
    }
    const connected = () => this.d.connection.context === saved.context && this.d.connection.status.phase !== 'loading' && this.d.connection.status.phase !== 'disconnected';
    if (!connected()) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, RESTORE_CONNECT_MS);
        const sub = this.d.connection.onDidChangeStatus(() => connected() && done());
        function done() {
          clearTimeout(timer);
          sub.dispose();
          resolve();
        }
      });
    }
    if (!connected()) {
      panel.dispose();
      return void this.save(key as string, undefined);
    }
    this.open({ kind: saved.kind, name: saved.name, namespace: saved.namespace, apiVersion: saved.apiVersion, uid: saved.uid }, panel);
  }

  /** Panels open now (for tests and the host benchmark). */
  get panelsOpen(): readonly DiagnosePanel[] {
    return [...this.panels.values()];
  }

  /** The window is closing (or reloading): the panels are left open, VS Code keeps them for the next window. */
  dispose(): void {
    this.closingWindow = true;
  }
}

export function targetOf(o: InvolvedObject): DiagnoseTarget {
  return { kind: o.kind, name: o.name, namespace: o.namespace, apiVersion: o.apiVersion || 'v1', uid: o.uid || undefined };
}

export function registerDiagnoseCommands(diagnoser: Diagnoser, d: DiagnoseDeps): vscode.Disposable[] {
  const isRow = (x: unknown): x is GroupNode | EventNode => x instanceof GroupNode || x instanceof EventNode;
  return [
    { dispose: () => diagnoser.dispose() },
    registerRowCommand(Commands.diagnose, isRow, d.selection, (node) => {
      const group = node instanceof EventNode ? node.parent : node;
      diagnoser.open(targetOf(group.object));
    }, 'Pick an object in the Events view first.'),
    vscode.window.registerWebviewPanelSerializer(DIAGNOSE_VIEW_TYPE, { deserializeWebviewPanel: (panel, state) => diagnoser.restore(panel, state) }),
    vscode.commands.registerCommand(Commands.diagnoseManifestResource, (uriText?: unknown, index?: unknown, reason?: unknown) => {
      const o = d.manifestObject(uriText, index, reason);
      if (!o) return void vscode.window.showErrorMessage('Diagnose for a manifest resource needs a manifest document and a resource in it that is in the cluster (its CodeLens or a Problems entry passes them).');
      diagnoser.open(targetOf(o));
    }),
  ];
}
