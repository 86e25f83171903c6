// A series of questions with Back, as VS Code's multi-step quick input sample does it: each
// step is a quick pick or an input box titled "(step/total)", Back returns to the previous
// step with its answer kept, Escape cancels the whole series. Validation shows under the
// input as the user types.
import * as vscode from 'vscode';

/** Back or cancel, thrown out of a step. */
class FlowAction extends Error {
  static readonly back = new FlowAction('back');
  static readonly cancel = new FlowAction('cancel');
}

/** A step: asks, stores its answer, and returns the next step (or nothing at the end). */
export type Step = (input: MultiStepInput) => Promise<Step | void>;

interface Common {
  readonly title: string;
  readonly step: number;
  readonly totalSteps: number;
}

export interface PickOptions<T extends vscode.QuickPickItem> extends Common {
  readonly items: readonly T[] | (() => Promise<readonly T[]>);
  readonly placeholder?: string;
  readonly activeLabel?: string;
  readonly matchOnDescription?: boolean;
}

export interface InputOptions extends Common {
  readonly value: string;
  readonly prompt: string;
  readonly placeholder?: string;
  readonly validate: (value: string) => string | vscode.InputBoxValidationMessage | undefined;
  /** Keeps what is typed, so Back and forth does not lose an answer not yet accepted. */
  readonly remember?: (value: string) => void;
}

export class MultiStepInput {
  private current: vscode.QuickInput | undefined;

  /** Runs steps from `start`; true when the last step finished, false when cancelled. */
  static async run(start: Step): Promise<boolean> {
    const input = new MultiStepInput();
    const done: Step[] = [];
    let step: Step | void = start;
    try {
      while (step) {
        try {
          const next: Step | void = await step(input);
          done.push(step);
          step = next;
        } catch (e) {
          if (e !== FlowAction.back) throw e;
          step = done.pop();
        }
      }
      return true;
    } catch (e) {
      if (e === FlowAction.cancel) return false;
      throw e;
    } finally {
      input.current?.dispose();
    }
  }

  private show(q: vscode.QuickInput): void {
    this.current?.dispose();
    this.current = q;
    q.show();
  }

  pick<T extends vscode.QuickPickItem>(o: PickOptions<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const qp = vscode.window.createQuickPick<T>();
      qp.title = o.title;
      qp.step = o.step;
      qp.totalSteps = o.totalSteps;
      qp.placeholder = o.placeholder;
      qp.matchOnDescription = o.matchOnDescription ?? false;
      qp.ignoreFocusOut = true;
      qp.buttons = o.step > 1 ? [vscode.QuickInputButtons.Back] : [];
      const subscriptions = [
        qp.onDidTriggerButton((b) => b === vscode.QuickInputButtons.Back && reject(FlowAction.back)),
        qp.onDidAccept(() => {
          const picked = qp.selectedItems[0];
          if (picked) resolve(picked);
        }),
        qp.onDidHide(() => reject(FlowAction.cancel)),
      ];
      const setItems = (items: readonly T[]) => {
        qp.items = items;
        const active = items.find((i) => i.label === o.activeLabel);
        if (active) qp.activeItems = [active];
      };
      if (typeof o.items === 'function') {
        qp.busy = true;
        qp.enabled = false;
        o.items().then(
          (items) => {
            qp.busy = false;
            qp.enabled = true;
            setItems(items);
          },
          (e: unknown) => reject(e instanceof Error ? e : new Error(String(e))),
        );
      } else setItems(o.items);
      this.show(qp);
      qp.onDidHide(() => {
        for (const d of subscriptions) d.dispose();
      });
    });
  }

  input(o: InputOptions): Promise<string> {
    return new Promise<string>((resolve, reject) => {
      const box = vscode.window.createInputBox();
      box.title = o.title;
      box.step = o.step;
      box.totalSteps = o.totalSteps;
      box.value = o.value;
      box.prompt = o.prompt;
      box.placeholder = o.placeholder;
      box.ignoreFocusOut = true;
      box.buttons = o.step > 1 ? [vscode.QuickInputButtons.Back] : [];
      box.validationMessage = o.validate(o.value);
      const subscriptions = [
        box.onDidTriggerButton((b) => b === vscode.QuickInputButtons.Back && reject(FlowAction.back)),
        box.onDidChangeValue((v) => {
          box.validationMessage = o.validate(v);
          o.remember?.(v);
        }),
        box.onDidAccept(() => {
          const problem = o.validate(box.value);
          if (problem && (typeof problem === 'string' || problem.severity === vscode.InputBoxValidationSeverity.Error)) {
            box.validationMessage = problem;
            return;
          }
          resolve(box.value);
        }),
        box.onDidHide(() => reject(FlowAction.cancel)),
      ];
      this.show(box);
      box.onDidHide(() => {
        for (const d of subscriptions) d.dispose();
      });
    });
  }
}
