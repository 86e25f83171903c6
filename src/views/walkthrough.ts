// The Get Started walkthrough's edge: the steps VS Code cannot see done by a command alone
// (a cluster listed, an event recorded) become context keys its completion events read, and
// on the first run the Events view opens with the walkthrough beside it. VS Code registers
// walkthroughs when its walkthrough service first starts, and a step whose context key is
// already true then is never ticked: so the keys are set only once the first run's offer
// (which starts that service) is over.
import * as vscode from 'vscode';
import { FOCUS_VIEW_COMMAND, WALKTHROUGH_ID } from '../common/commandIds';
import { ContextKeys, type ContextKeySetter } from '../common/contextKeys';
import { Disposable } from '../common/lifecycle';
import type { ConnectionService } from '../services/connectionService';

/** globalState: the walkthrough was offered once, on this machine's first run. */
const OFFERED_KEY = 'kubernetesEvents.walkthroughOffered';

export class Walkthrough extends Disposable {
  private ready = false;
  private wasRecorded = false;

  constructor(
    private readonly connection: ConnectionService,
    private readonly keys: ContextKeySetter,
  ) {
    super();
    this._register(connection.onDidChangeStatus(() => this.update()));
  }

  /** An event was recorded in this window. */
  recorded(): void {
    this.wasRecorded = true;
    this.update();
  }

  /**
   * Opens the Events view and the walkthrough beside it, once per machine, when the setting
   * allows; then the steps' context keys follow what was done.
   */
  async start(context: vscode.ExtensionContext, offer: boolean): Promise<void> {
    try {
      if (offer && !context.globalState.get<boolean>(OFFERED_KEY)) {
        await context.globalState.update(OFFERED_KEY, true);
        await vscode.commands.executeCommand(FOCUS_VIEW_COMMAND);
        await vscode.commands.executeCommand('workbench.action.openWalkthrough', `${context.extension.id}#${WALKTHROUGH_ID}`, false);
      }
    } finally {
      this.ready = true;
      this.update();
    }
  }

  private update(): void {
    if (!this.ready) return;
    if (this.connection.status.phase === 'live') this.keys.set(ContextKeys.connected, true);
    if (this.wasRecorded) this.keys.set(ContextKeys.recorded, true);
  }
}
