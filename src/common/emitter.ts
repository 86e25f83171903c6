// A change event that owners offer (vscode.EventEmitter's shape, in plain Node): listeners
// subscribe through `event` and get a disposable back.
import { toDisposable, type IDisposable } from './lifecycle';

export class Emitter<T = void> {
  private readonly listeners = new Set<(value: T) => void>();

  /** Subscribe: `owner.onDidChange(listener)`. */
  readonly event = (listener: (value: T) => void): IDisposable => {
    this.listeners.add(listener);
    return toDisposable(() => this.listeners.delete(listener));
  };

  fire(value: T): void {
    for (const l of this.listeners) l(value);
  }

  dispose(): void {
    this.listeners.clear();
  }
}
